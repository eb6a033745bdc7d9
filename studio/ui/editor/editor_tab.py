"""The editor tab of one skill: the frontmatter form beside the body (folded away for the other
views, see `form_fold`), raw text, preview and files.

Every view edits the one `SkillDocument`: the raw view shows its QTextDocument directly; the
body editor and the form turn what the user typed into the smallest edit of that text, and are
refreshed from its parse when anything else changed it (the raw view, undo, a fix, a reload).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextDocumentLayout,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.editing import set_field, set_flag, set_metadata
from studio.skills import SKILL_FILE, SPEC, Diagnostic, Skill, codes
from studio.skills.checks import ValidationResult, fixes
from studio.ui.editor.code_editor import CodeEditor
from studio.ui.editor.document import SkillDocument, plain_text, replace_text
from studio.ui.editor.files_model import FILE_ROLE, FilesModel
from studio.ui.editor.form_fold import FormFold, TabLayout
from studio.ui.editor.frontmatter_form import FrontmatterForm
from studio.ui.editor.highlighter import MarkdownHighlighter
from studio.ui.editor.preview import PreviewView

BODY_ORIGIN = "body"


class SkillEditorTab(QWidget):
    """One open skill.

    Signals:
        dirty_changed: (bool) the text now differs (or no longer differs) from the file.
        diagnostics_changed: a new validation result is shown.
        file_open_requested: (Path, int line) open a file of the skill in its own tab.
    """

    dirty_changed = Signal(bool)
    diagnostics_changed = Signal()
    file_open_requested = Signal(Path, int)

    def __init__(self, skill: Skill, font: QFont, parent: QWidget | None = None,
                 target: str = SPEC, *, untitled: bool = False,
                 tab_layout: TabLayout | None = None) -> None:
        super().__init__(parent)
        self.doc = SkillDocument(skill, self, target, untitled=untitled)
        self._origin: str | None = None
        self._body_start: int | None = None
        self._syncing_body = False

        self.banner = QLabel(self.doc.why_read_only)
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        if untitled:
            self.banner.setText("A draft, not saved anywhere yet. Save (Ctrl+S) asks which "
                                "folder of skills it goes in.")
        self.banner.setVisible(self.doc.read_only or untitled)
        self.doc.saved.connect(self._on_doc_saved)

        self.form = FrontmatterForm()
        self.form.set_target(target)
        form_scroll = QScrollArea()
        form_scroll.setWidget(self.form)
        form_scroll.setWidgetResizable(True)
        form_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        form_scroll.setMinimumWidth(260)

        self.body_editor = CodeEditor()
        self.body_editor.route_undo = True
        self._body_document = QTextDocument(self.body_editor)
        self._body_document.setDocumentLayout(QPlainTextDocumentLayout(self._body_document))
        self._body_document.setUndoRedoEnabled(False)
        self.body_editor.setDocument(self._body_document)
        self.body_editor.setPlaceholderText("The instructions an agent follows, in Markdown.")
        self._body_highlighter = MarkdownHighlighter(self._body_document)

        self.raw_editor = CodeEditor()
        self.raw_editor.setDocument(self.doc.document)
        self._raw_highlighter = MarkdownHighlighter(self.doc.document, frontmatter=True)

        self.preview = PreviewView()
        self.files_model = FilesModel(self)
        self.files_view = QTableView()
        self.files_view.setModel(self.files_model)
        self.files_view.verticalHeader().hide()
        self.files_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.files_view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.files_view.setShowGrid(False)

        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.addTab(self.body_editor, "Body")
        self.views.addTab(self.raw_editor, SKILL_FILE)
        self.views.addTab(self.preview, "Preview")
        self.views.addTab(self.files_view, "Files")
        self.views.setTabToolTip(0, "The Markdown instructions after the frontmatter")
        self.views.setTabToolTip(1, "The whole file as text; the form and body follow it")

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(form_scroll)
        splitter.addWidget(self.views)
        splitter.setChildrenCollapsible(False)
        self.splitter = splitter
        self.form_pane = form_scroll
        # The form stands beside the Body view and folds away for the views that need the room.
        self.tab_layout = tab_layout if tab_layout is not None else TabLayout(parent=self)
        self.fold = FormFold(splitter, form_scroll, self.views, self.body_editor, self.tab_layout)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(splitter, 1)

        self.set_editor_font(font)
        read_only = self.doc.read_only
        self.raw_editor.setReadOnly(read_only)
        self.body_editor.setReadOnly(read_only)

        self.doc.text_changed.connect(self._on_doc_text_changed)
        self.doc.validated.connect(self._on_doc_validated)
        self.doc.document.modificationChanged.connect(self._on_document_modification_changed)
        self._body_document.contentsChanged.connect(self._on_body_document_contents_changed)
        self.body_editor.undo_requested.connect(self.undo)
        self.body_editor.redo_requested.connect(self.redo)
        self.form.undo_requested.connect(self.undo)
        self.form.redo_requested.connect(self.redo)
        self.form.field_edited.connect(self._on_form_field_edited)
        self.form.flag_edited.connect(self._on_form_flag_edited)
        self.form.metadata_edited.connect(self._on_form_metadata_edited)
        self.views.currentChanged.connect(self._on_views_current_changed)
        self.files_view.doubleClicked.connect(self._on_files_view_double_clicked)
        self.preview.link_clicked.connect(self._on_preview_link_clicked)

        self._refresh_views(None)
        self._on_doc_validated(self.doc.validate_now())

    # -- what the window asks -------------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self.doc.skill.display_name

    @property
    def dirty(self) -> bool:
        return self.doc.dirty

    @property
    def path(self) -> Path:
        return self.doc.skill_file

    @property
    def directory(self) -> Path:
        return self.doc.directory

    @property
    def read_only(self) -> bool:
        return self.doc.read_only

    @property
    def document(self) -> QTextDocument:
        return self.doc.document

    @property
    def disk_text(self) -> str:
        return self.doc.disk_text

    @disk_text.setter
    def disk_text(self, text: str) -> None:
        self.doc.disk_text = text

    def text(self) -> str:
        return self.doc.text()

    def set_text(self, text: str) -> None:
        self.doc.set_text(text)

    def reload(self, disk_text: str) -> None:
        self.doc.reload(disk_text)

    def save(self) -> None:
        self.doc.save()

    def show_note(self, text: str) -> None:
        """Say something about the tab above it (it goes once the tab is saved)."""
        self.banner.setText(text)
        self.banner.show()

    def retarget(self, directory: Path) -> None:
        """Follow the skill to its new folder (after a rename): the form, which checks the name
        against the folder's, and the diagnostics are made afresh."""
        self.doc.retarget(directory)
        self._refresh_views(None)
        self.doc.validate_now()

    @property
    def target(self) -> str:
        return self.doc.target

    def set_target(self, target: str) -> None:
        """Judge the skill for another client: the form shows that client's fields, and the
        problems are found afresh."""
        if target == self.doc.target:
            return
        self.form.set_target(target)
        self.form.show_skill(self.doc.skill, read_only=self.doc.read_only)
        self.doc.set_target(target)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.doc.result.diagnostics

    def set_editor_font(self, font: QFont) -> None:
        for editor in (self.body_editor, self.raw_editor):
            editor.setFont(font)

    def refresh_colors(self) -> None:
        """Follow a switch between light and dark palettes."""
        self._body_highlighter.refresh_colors()
        self._raw_highlighter.refresh_colors()
        self.preview.forget()
        if self.views.currentWidget() is self.preview:
            self._refresh_preview()

    def undo(self) -> None:
        self.doc.document.undo()

    def redo(self) -> None:
        self.doc.document.redo()

    def set_field(self, key: str, value: str) -> bool:
        """Set a frontmatter field as if typed into the form (one undo step)."""
        text = set_field(self.doc.skill, key, value)
        if text is None:
            return False
        self.doc.set_text(text)
        return True

    def apply_fix(self, diagnostic: Diagnostic) -> str | None:
        """Apply a fresh diagnostic's fix to the current text (undoable), after the core's check
        that `studio fix` makes: the result must parse, keep the body, and change only the field
        the fix is about. Returns why the fix was refused, or None when it was applied."""
        fix = diagnostic.fix
        if fix is None:
            return "no fix is offered for it"
        if fix.edits:
            skill = self.doc.skill
            text = fixes.apply_fix_to_text(skill, fix)
            after = fixes.reparse(skill, text, max_bytes=None)
            why = fixes.unplanned_change(skill, after, diagnostic)
            if why is not None:
                return why
            self.doc.set_text(text)
        self.doc.validate_now()
        return None

    def fresh_diagnostic(self, diagnostic: Diagnostic) -> Diagnostic | None:
        """The same problem in a validation of the current text (so its fix's offsets hold)."""
        result = self.doc.result
        if result.skill.source != self.doc.text():
            result = self.doc.validate_now()
        for candidate in result.diagnostics:
            if (candidate.code, candidate.field, candidate.file) == (
                    diagnostic.code, diagnostic.field, diagnostic.file) and (
                    candidate.line == diagnostic.line or diagnostic.field is not None):
                return candidate
        return None

    def show_diagnostic(self, diagnostic: Diagnostic) -> None:
        """Go to where a diagnostic points, and mark the form field it is about."""
        if diagnostic.file not in (SKILL_FILE, self.doc.skill_file.name):
            self.file_open_requested.emit(self.doc.directory / diagnostic.file, diagnostic.line)
            return
        if diagnostic.field is not None:
            self.form.focus_field(diagnostic.field, f"{diagnostic.code}: {diagnostic.message}")
        body_line = self.doc.skill.body_span.line
        in_body = self._body_start is not None and diagnostic.line >= body_line and (
            diagnostic.field is None)
        if in_body:
            self.views.setCurrentWidget(self.body_editor)
            self.body_editor.go_to(diagnostic.line, diagnostic.column)
        else:
            self.views.setCurrentWidget(self.raw_editor)
            self.raw_editor.go_to(diagnostic.line, diagnostic.column)
            if diagnostic.field is not None:
                widget = self.form.field_widget(diagnostic.field)
                if widget is not None:
                    widget.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- keeping the views in step ------------------------------------------------------------------------

    def _apply(self, text: str | None, origin: str) -> None:
        if text is None or self.doc.read_only:
            return
        self._origin = origin
        try:
            self.doc.set_text(text)
        finally:
            self._origin = None

    def _on_form_field_edited(self, key: str, value: str) -> None:
        self._apply(set_field(self.doc.skill, key, value), f"field:{key}")

    def _on_form_flag_edited(self, key: str, on: bool) -> None:
        self._apply(set_flag(self.doc.skill, key, on), f"field:{key}")

    def _on_form_metadata_edited(self, items: list[tuple[str, str]]) -> None:
        self._apply(set_metadata(self.doc.skill, items), "field:metadata")

    def _on_body_document_contents_changed(self) -> None:
        if self._syncing_body or self._body_start is None:
            return
        body = plain_text(self._body_document)
        text = self.doc.text()
        self._apply(text[: self._body_start] + body, BODY_ORIGIN)

    def _on_doc_text_changed(self) -> None:
        self._refresh_views(self._origin)

    def _refresh_views(self, origin: str | None) -> None:
        skill = self.doc.skill
        if origin != BODY_ORIGIN:
            self._sync_body(skill)
            keep = origin.removeprefix("field:") if origin and origin.startswith("field:") else None
            self.form.show_skill(skill, keep=keep, read_only=self.doc.read_only)
        if self.views.currentWidget() is self.preview:
            self._refresh_preview()

    def _sync_body(self, skill: Skill) -> None:
        unclosed = any(d.code == codes.UNCLOSED_FRONTMATTER for d in skill.problems)
        if unclosed or (not skill.source and skill.problems):
            self._body_start = None
            self.body_editor.setReadOnly(True)
            self.body_editor.setPlaceholderText(
                "The frontmatter is not closed with a `---` line, so the body cannot be told "
                "apart from it. Close it in the SKILL.md view.")
            self._set_body_text("")
            return
        self._body_start = skill.body_span.start
        self.body_editor.setReadOnly(self.doc.read_only)
        self.body_editor.setPlaceholderText("The instructions an agent follows, in Markdown.")
        self.body_editor.set_first_line(skill.body_span.line)
        self._set_body_text(skill.source[skill.body_span.start:])

    def _set_body_text(self, body: str) -> None:
        old = plain_text(self._body_document)
        if old == body:
            return
        self._syncing_body = True
        try:
            replace_text(self._body_document, old, body)
        finally:
            self._syncing_body = False

    def _on_doc_saved(self) -> None:
        if not self.doc.read_only:
            self.banner.hide()

    def _on_doc_validated(self, result: ValidationResult) -> None:
        self.form.mark_problems(result.diagnostics)
        self.files_model.set_files(result.skill.files)
        if self.views.currentWidget() is self.preview:
            self._refresh_preview()
        self.diagnostics_changed.emit()

    def _on_document_modification_changed(self, dirty: bool) -> None:
        self.dirty_changed.emit(dirty)

    def _on_views_current_changed(self, _index: int) -> None:
        if self.views.currentWidget() is self.preview:
            self._refresh_preview()

    def _refresh_preview(self) -> None:
        skill = self.doc.skill
        self.preview.show_skill(skill.name, skill.description,
                                skill.body if skill.frontmatter is not None else skill.source)

    def _on_files_view_double_clicked(self, index: QModelIndex) -> None:
        file = self.files_model.data(index.siblingAtColumn(0), FILE_ROLE)
        if file is not None:
            self.file_open_requested.emit(self.doc.directory / str(file.path), 1)

    def _on_preview_link_clicked(self, target: str) -> None:
        if "://" in target or target.startswith(("mailto:", "#")):
            return
        path = self.doc.directory / target.split("#", 1)[0]
        if path.is_file() or self.doc.read_only:
            self.file_open_requested.emit(path, 1)
