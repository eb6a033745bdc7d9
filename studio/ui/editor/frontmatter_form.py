"""The form over a SKILL.md's frontmatter: one widget per field of the spec, plus metadata, and
the fields the skill's target client reads (`TargetFields`).

The form never owns the text: it reports what the user typed (`field_edited`, `metadata_edited`)
and shows whatever the text parses to (`show_skill`), leaving alone the field being typed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.skills import Diagnostic, Severity, Skill
from studio.skills.checks import MAX_COMPATIBILITY, MAX_DESCRIPTION, names
from studio.ui.editor.metadata_model import MetadataModel
from studio.ui.editor.openai_yaml_box import OpenAIYamlBox
from studio.ui.editor.target_fields import TargetFields


def name_message(value: str, folder: str) -> tuple[str, Severity | None]:
    """What is wrong with a name as typed, said at once: ("uppercase letters: use `x`", ERROR)."""
    if not value.strip():
        return ("A name is required: lowercase letters, digits and hyphens, like `pdf-tools`.",
                Severity.ERROR)
    problems = names.name_problems(value)
    if problems:
        said = "; ".join(problem.removeprefix("it has ").removeprefix("it ")
                         for problem in problems)
        return f"{said[0].upper()}{said[1:]}: use `{names.suggest_name(value)}`.", Severity.ERROR
    if folder and names.normalize_name(value) != names.normalize_name(folder):
        return (f"The folder is named `{folder}`; the name must match it. Rename the skill (F2) "
                "to change both.", Severity.ERROR)
    return "", None


def _text_of(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _UndoKeys(QObject):
    """Sends the undo/redo keys of the form's editors to the skill's one undo stack."""

    def __init__(self, form: FrontmatterForm) -> None:
        super().__init__(form)
        self._form = form

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            assert isinstance(event, QKeyEvent)
            for key, signal in ((QKeySequence.StandardKey.Undo, self._form.undo_requested),
                                (QKeySequence.StandardKey.Redo, self._form.redo_requested)):
                if event.matches(key):
                    if event.type() == QEvent.Type.KeyPress:
                        signal.emit()
                    event.accept()
                    return True
        return False


class FrontmatterForm(QWidget):
    """Name, description, license, compatibility, allowed-tools and metadata of one skill.

    Signals:
        field_edited: (key, text) the user changed a field.
        flag_edited: (key, bool) the user toggled a true-or-false field of the target.
        metadata_edited: (list of (key, value)) the user changed the metadata table.
        undo_requested, redo_requested: the undo keys were pressed in a field.
    """

    field_edited = Signal(str, str)
    flag_edited = Signal(str, bool)
    metadata_edited = Signal(list)
    undo_requested = Signal()
    redo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._folder = ""
        self._editing: str | None = None
        self._undo_keys = _UndoKeys(self)

        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setObjectName("formNotice")
        self.notice.hide()

        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("lowercase-with-hyphens, same as the folder")
        self.name_message = QLabel()
        self.name_message.setWordWrap(True)
        self.name_message.setObjectName("fieldMessage")
        self.name_message.setTextFormat(Qt.TextFormat.MarkdownText)

        self.description_edit = QPlainTextEdit()
        self.description_edit.setPlaceholderText(
            "What the skill does and when to use it, e.g. \"Extract tables from PDF files. "
            "Use when the user asks about a PDF.\"")
        self.description_edit.setTabChangesFocus(True)
        self.description_edit.setFixedHeight(self.fontMetrics().lineSpacing() * 6 + 12)
        self.description_counter = QLabel()
        self.description_counter.setObjectName("counter")

        self.license_edit = QLineEdit()
        self.license_edit.setPlaceholderText("e.g. Apache-2.0, or LICENSE.txt")
        self.compatibility_edit = QLineEdit()
        self.compatibility_edit.setPlaceholderText("optional: what the skill needs, e.g. Python 3.11")
        self.compatibility_counter = QLabel()
        self.compatibility_counter.setObjectName("counter")
        self.tools_edit = QLineEdit()
        self.tools_edit.setPlaceholderText("optional, space-separated, e.g. Bash(git:*) Read")

        self.metadata_model = MetadataModel(self)
        self.metadata_view = QTableView()
        self.metadata_view.setModel(self.metadata_model)
        self.metadata_view.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents)
        self.metadata_view.horizontalHeader().setStretchLastSection(True)
        self.metadata_view.verticalHeader().hide()
        self.metadata_view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.metadata_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.metadata_view.setMinimumHeight(self.fontMetrics().lineSpacing() * 6)
        self.metadata_view.setMaximumHeight(self.fontMetrics().lineSpacing() * 12)
        self.add_metadata_button = QToolButton()
        self.add_metadata_button.setText("+")
        self.add_metadata_button.setToolTip("Add a metadata entry")
        self.remove_metadata_button = QToolButton()
        self.remove_metadata_button.setText("−")
        self.remove_metadata_button.setToolTip("Remove the selected metadata entry")

        self.target_fields = TargetFields()
        self.target_fields.install_key_filter(self._undo_keys)

        self._widgets: dict[str, QWidget] = {
            "name": self.name_edit,
            "description": self.description_edit,
            "license": self.license_edit,
            "compatibility": self.compatibility_edit,
            "allowed-tools": self.tools_edit,
            "metadata": self.metadata_view,
        }
        self._layout()
        for widget in (self.name_edit, self.description_edit, self.license_edit,
                       self.compatibility_edit, self.tools_edit):
            widget.installEventFilter(self._undo_keys)
        self.name_edit.textEdited.connect(self._on_name_edit_text_edited)
        self.description_edit.textChanged.connect(self._on_description_edit_text_changed)
        self.license_edit.textEdited.connect(self._on_license_edit_text_edited)
        self.compatibility_edit.textEdited.connect(self._on_compatibility_edit_text_edited)
        self.tools_edit.textEdited.connect(self._on_tools_edit_text_edited)
        self.metadata_model.items_edited.connect(self._on_metadata_model_items_edited)
        self.target_fields.field_edited.connect(self._edited)
        self.target_fields.flag_edited.connect(self._on_target_fields_flag_edited)
        self.add_metadata_button.clicked.connect(self._on_add_metadata_button_clicked)
        self.remove_metadata_button.clicked.connect(self._on_remove_metadata_button_clicked)
        self._update_counters()

    def _layout(self) -> None:
        self.openai_yaml = OpenAIYamlBox(self)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.setVerticalSpacing(4)

        name_box = QVBoxLayout()
        name_box.setSpacing(2)
        name_box.addWidget(self.name_edit)
        name_box.addWidget(self.name_message)
        form.addRow(_label("&Name", self.name_edit), name_box)

        description_box = QVBoxLayout()
        description_box.setSpacing(2)
        description_box.addWidget(self.description_edit)
        description_box.addWidget(self.description_counter, 0, Qt.AlignmentFlag.AlignRight)
        form.addRow(_label("&Description", self.description_edit), description_box)

        form.addRow(_label("&License", self.license_edit), self.license_edit)
        compatibility_box = QVBoxLayout()
        compatibility_box.setSpacing(2)
        compatibility_box.addWidget(self.compatibility_edit)
        compatibility_box.addWidget(self.compatibility_counter, 0, Qt.AlignmentFlag.AlignRight)
        form.addRow(_label("&Compatibility", self.compatibility_edit), compatibility_box)
        form.addRow(_label("Allowed &tools", self.tools_edit), self.tools_edit)

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_metadata_button)
        buttons.addWidget(self.remove_metadata_button)
        buttons.addStretch()
        metadata_box = QVBoxLayout()
        metadata_box.setSpacing(2)
        metadata_box.addWidget(self.metadata_view, 1)
        metadata_box.addLayout(buttons)
        form.addRow(_label("&Metadata", self.metadata_view), metadata_box)

        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        outer.addWidget(self.notice)
        outer.addLayout(form)
        outer.addWidget(self.target_fields)
        outer.addWidget(self.openai_yaml)
        outer.addStretch(1)

    def set_target(self, target: str) -> None:
        """Show the controls of the fields `target` (`studio.skills.checks.clients`) reads."""
        self.target_fields.set_target(target)

    # -- showing a skill ---------------------------------------------------------------------------------

    def show_skill(self, skill: Skill, *, keep: str | None = None, read_only: bool = False) -> None:
        """Show what `skill`'s text says; the field `keep` (being typed in) is left as it is."""
        self._folder = skill.dir_name
        editable = skill.frontmatter is not None and not read_only
        if skill.frontmatter is None and skill.source:
            self.notice.setText("The frontmatter cannot be read, so the form is off. Fix it in "
                                "the SKILL.md view; the Problems panel says what is wrong.")
            self.notice.show()
        else:
            self.notice.hide()
        fields = skill.fields
        for key, widget in (("name", self.name_edit), ("license", self.license_edit),
                            ("compatibility", self.compatibility_edit),
                            ("allowed-tools", self.tools_edit)):
            assert isinstance(widget, QLineEdit)
            widget.setReadOnly(not editable)
            if key != keep:
                _set_line(widget, _text_of(fields.get(key)))
        self.description_edit.setReadOnly(not editable)
        if keep != "description":
            _set_plain(self.description_edit, _text_of(fields.get("description")))
        self.metadata_model.read_only = not editable
        self.add_metadata_button.setEnabled(editable)
        self.remove_metadata_button.setEnabled(editable)
        if keep != "metadata":
            metadata = fields.get("metadata")
            self.metadata_model.set_metadata(metadata if isinstance(metadata, dict) else {})
        self.target_fields.show_fields(fields, keep=keep, editable=editable)
        if keep is None:
            self.openai_yaml.show_folder(None if skill.read_only else skill.directory)
        self._show_name_message(self.name_edit.text())
        self._update_counters()

    def _all_widgets(self) -> dict[str, QWidget]:
        return {**self.target_fields.widgets, **self._widgets}

    def mark_problems(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Outline each field that a diagnostic points at; its tooltip says what is wrong."""
        by_field: dict[str, list[Diagnostic]] = {}
        widgets = self._all_widgets()
        for diagnostic in diagnostics:
            if diagnostic.field in widgets:
                by_field.setdefault(diagnostic.field, []).append(diagnostic)
        for key, widget in widgets.items():
            found = by_field.get(key, [])
            level = ("error" if any(d.severity is Severity.ERROR for d in found)
                     else "warning" if found else "")
            said = "\n".join(f"{d.code}: {d.message}" for d in found)
            self._set_problem(widget, level, said or self.target_fields.notes.get(key, ""))

    def focus_field(self, key: str, message: str) -> None:
        """Bring a field to the user's attention: marked, with the message, and focused."""
        widget = self._all_widgets().get(key)
        if widget is None:
            return
        self._set_problem(widget, "error", message)
        widget.setFocus(Qt.FocusReason.OtherFocusReason)

    def field_widget(self, key: str) -> QWidget | None:
        return self._all_widgets().get(key)

    @staticmethod
    def _set_problem(widget: QWidget, level: str, tooltip: str) -> None:
        if widget.property("problem") != level:
            widget.setProperty("problem", level)
            _repolish(widget)
        widget.setToolTip(tooltip)

    def _show_name_message(self, value: str) -> None:
        message, severity = name_message(value, self._folder)
        self.name_message.setText(message)
        self.name_message.setProperty("severity", str(severity) if severity else "")
        _repolish(self.name_message)
        self.name_message.setVisible(bool(message))

    def _update_counters(self) -> None:
        for label, text, limit in (
            (self.description_counter, self.description_edit.toPlainText(), MAX_DESCRIPTION),
            (self.compatibility_counter, self.compatibility_edit.text(), MAX_COMPATIBILITY),
        ):
            label.setText(f"{len(text)} / {limit}")
            over = "error" if len(text) > limit else ""
            if label.property("severity") != over:
                label.setProperty("severity", over)
                _repolish(label)

    # -- what the user typed ----------------------------------------------------------------------------

    def _edited(self, key: str, text: str) -> None:
        self._editing = key
        try:
            self.field_edited.emit(key, text)
        finally:
            self._editing = None

    @property
    def editing(self) -> str | None:
        """The field whose edit is being written into the text right now, if any."""
        return self._editing

    def _on_target_fields_flag_edited(self, key: str, on: bool) -> None:
        self._editing = key
        try:
            self.flag_edited.emit(key, on)
        finally:
            self._editing = None

    def _on_name_edit_text_edited(self, text: str) -> None:
        self._show_name_message(text)
        self._edited("name", text)

    def _on_description_edit_text_changed(self) -> None:
        self._update_counters()
        if self.description_edit.property("syncing"):
            return
        self._edited("description", self.description_edit.toPlainText())

    def _on_license_edit_text_edited(self, text: str) -> None:
        self._edited("license", text)

    def _on_compatibility_edit_text_edited(self, text: str) -> None:
        self._update_counters()
        self._edited("compatibility", text)

    def _on_tools_edit_text_edited(self, text: str) -> None:
        self._edited("allowed-tools", text)

    def _on_metadata_model_items_edited(self, items: list[tuple[str, str]]) -> None:
        self._editing = "metadata"
        try:
            self.metadata_edited.emit(items)
        finally:
            self._editing = None

    def _on_add_metadata_button_clicked(self) -> None:
        index = self.metadata_model.add_row()
        self.metadata_view.setCurrentIndex(index)
        self.metadata_view.edit(index)

    def _on_remove_metadata_button_clicked(self) -> None:
        rows = sorted({index.row() for index in self.metadata_view.selectedIndexes()},
                      reverse=True)
        if not rows and self.metadata_view.currentIndex().isValid():
            rows = [self.metadata_view.currentIndex().row()]
        for row in rows:
            self.metadata_model.remove_row(row)


def _repolish(widget: QWidget) -> None:
    """Apply style-sheet rules that depend on a property that just changed, and repaint."""
    widget.style().unpolish(widget)
    widget.style().polish(widget)
    widget.update()


def _label(text: str, buddy: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(buddy)
    return label


def _set_line(widget: QLineEdit, text: str) -> None:
    if widget.text() == text:
        return
    position = widget.cursorPosition()
    widget.setText(text)
    widget.setCursorPosition(min(position, len(text)))


def _set_plain(widget: QPlainTextEdit, text: str) -> None:
    if widget.toPlainText() == text:
        return
    cursor = widget.textCursor()
    position = cursor.position()
    widget.setProperty("syncing", True)
    try:
        widget.setPlainText(text)
    finally:
        widget.setProperty("syncing", False)
    cursor = widget.textCursor()
    cursor.setPosition(min(position, widget.document().characterCount() - 1))
    widget.setTextCursor(cursor)
