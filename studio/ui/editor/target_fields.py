"""The frontmatter fields a skill's target client reads beyond the spec, as controls of the form.

Which fields and what values they take come from `studio.skills.checks.clients`: a field with a few
documented values (`context`, `effort`) is a picker, a flag (`user-invocable`) a checkbox,
`model` an editable list of the backend's models, `agent` an editable list of the saved agents,
the rest text. A mapping (`hooks`) and a list value stay in the SKILL.md view. Like the form, the
controls never own the text: they say what the user picked (`field_edited`, `flag_edited`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from studio.skills import SPEC, flag
from studio.skills.checks import clients
from studio.ui.editor.metadata_model import value_text

# Fields the spec's part of the form already shows.
SHOWN_BY_THE_FORM = frozenset({"allowed-tools"})
# What a client does when a flag is left out (from its documentation): the checkbox shows it.
FLAG_DEFAULTS = {"disable-model-invocation": False, "user-invocable": True}
MODEL_FIELD = "model"
AGENT_FIELD = "agent"
NOT_SET = "(not set)"
# How a skill runs first, then how it is invoked; fields not listed follow in the client's order.
ORDER = ("context", MODEL_FIELD, AGENT_FIELD, "effort", "argument-hint", "user-invocable",
         "disable-model-invocation", "when_to_use", "paths", "shell")

PLACEHOLDERS = {
    MODEL_FIELD: "empty: the chat's model",
    AGENT_FIELD: "empty: the chat's own agent",
    "argument-hint": "e.g. [issue-number]",
    "when_to_use": "when the model should pick this skill",
    "paths": "glob patterns the skill applies to, e.g. src/**/*.py",
}


class TargetFields(QWidget):
    """The controls of one target's fields.

    Attributes:
        widgets: each shown field's control, by key.

    Signals:
        field_edited: (key, text) a text or a pick changed ("" removes the field).
        flag_edited: (key, bool) a checkbox was toggled.
    """

    field_edited = Signal(str, str)
    flag_edited = Signal(str, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target = SPEC
        self.widgets: dict[str, QWidget] = {}
        self.notes: dict[str, str] = {}
        self._models: list[str] = []
        self._agents: list[str] = []
        self._syncing = False
        self._key_filter: QObject | None = None
        self.heading = QLabel()
        self.heading.setObjectName("sectionHeading")
        self._form = QFormLayout(self)
        self._form.setContentsMargins(0, 6, 0, 0)
        self._form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self._form.setVerticalSpacing(4)
        self.setVisible(False)

    def install_key_filter(self, key_filter: QObject) -> None:
        """Send the undo keys typed in these controls to `key_filter` (the form's)."""
        self._key_filter = key_filter

    # -- building ------------------------------------------------------------------------------------

    def set_target(self, target: str) -> None:
        """Show the controls of `target`'s fields (none for the spec, Ollama or Codex)."""
        if target == self.target and (self.widgets or target == SPEC):
            return
        self.target = target
        while self._form.rowCount():
            self._form.removeRow(0)
        self.widgets = {}
        self.notes = {}
        client = clients.CLIENTS[target]
        shown = {key: kind for key, kind in sorted(
                     client.fields.items(),
                     key=lambda item: ORDER.index(item[0]) if item[0] in ORDER else len(ORDER))
                 if key not in SHOWN_BY_THE_FORM and kind != clients.MAPPING}
        if not shown:
            self.setVisible(False)
            return
        self.heading = QLabel(f"<b>{client.title}</b> reads these fields too")
        self.heading.setObjectName("sectionHeading")
        self._form.addRow(self.heading)
        for key, kind in shown.items():
            widget = self._control(key, kind)
            self.widgets[key] = widget
            label = QLabel(key)
            label.setBuddy(widget)
            self._form.addRow(label, widget)
        self.setVisible(True)

    def _control(self, key: str, kind: clients.FieldKind) -> QWidget:
        widget: QWidget
        if bool in kind.types:
            box = QCheckBox()
            box.toggled.connect(lambda on, field=key: self._on_flag_toggled(field, on))
            widget = box
        elif kind.choices:
            combo = QComboBox()
            combo.addItem(NOT_SET, "")
            for choice in kind.choices:
                combo.addItem(choice, choice)
            combo.activated.connect(lambda index, field=key, c=combo: self._on_choice_activated(
                field, c, index))
            widget = combo
            self.notes[key] = f"{clients.CLIENTS[self.target].title} reads one of: " + ", ".join(
                kind.choices)
        elif key in (MODEL_FIELD, AGENT_FIELD):
            combo = QComboBox()
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            line = combo.lineEdit()
            assert line is not None
            line.setPlaceholderText(PLACEHOLDERS[key])
            line.setClearButtonEnabled(True)
            line.textEdited.connect(lambda text, field=key: self._edited(field, text))
            combo.activated.connect(lambda index, field=key, c=combo: self._edited(
                field, c.itemText(index)))
            self._fill(combo, self._models if key == MODEL_FIELD else self._agents)
            if self._key_filter is not None:
                line.installEventFilter(self._key_filter)
            widget = combo
        else:
            edit = QLineEdit()
            edit.setPlaceholderText(PLACEHOLDERS.get(key, ""))
            edit.textEdited.connect(lambda text, field=key: self._edited(field, text))
            if self._key_filter is not None:
                edit.installEventFilter(self._key_filter)
            widget = edit
        widget.setObjectName(f"targetField:{key}")
        return widget

    # -- the lists the editable combos offer ------------------------------------------------------------

    def set_models(self, names: list[str], note: str = "") -> None:
        """Offer these models in `model:` (free text stays allowed); `note` says why there are
        none, when the server did not answer."""
        self._models = list(names)
        combo = self.widgets.get(MODEL_FIELD)
        if isinstance(combo, QComboBox):
            self._fill(combo, self._models)
            self.notes[MODEL_FIELD] = note or (
                "The models the chat's backend offers; type another name, or leave it empty "
                "for the chat's model.")
            if not combo.property("problem"):
                combo.setToolTip(self.notes[MODEL_FIELD])

    def set_agents(self, names: list[str]) -> None:
        self._agents = list(names)
        combo = self.widgets.get(AGENT_FIELD)
        if isinstance(combo, QComboBox):
            self._fill(combo, self._agents)

    def _fill(self, combo: QComboBox, names: list[str]) -> None:
        text = combo.currentText()
        self._syncing = True
        try:
            combo.clear()
            combo.addItems(names)
            combo.setEditText(text)
        finally:
            self._syncing = False

    # -- showing a skill --------------------------------------------------------------------------------

    def show_fields(self, fields: dict[str, Any], *, keep: str | None, editable: bool) -> None:
        """Show the values `fields` holds; the field `keep` (being typed in) is left alone."""
        self._syncing = True
        try:
            for key, widget in self.widgets.items():
                value = fields.get(key)
                widget.setEnabled(editable)
                if key == keep:
                    continue
                self._show(key, widget, value)
        finally:
            self._syncing = False

    def _show(self, key: str, widget: QWidget, value: Any) -> None:
        if isinstance(widget, QCheckBox):
            # Claude Code reads yes/no/on/off as booleans too.
            default = FLAG_DEFAULTS.get(key, False)
            shown = flag(value, default)
            widget.setChecked(shown)
            readable = isinstance(value, bool) or value is None or flag(value, not default) == shown
            widget.setText("" if readable else f"not true or false: {value_text(value)}")
        elif isinstance(widget, QComboBox) and not widget.isEditable():
            kind = clients.CLIENTS[self.target].fields[key]
            while widget.count() > 1 + len(kind.choices):
                widget.removeItem(widget.count() - 1)
            index = widget.findData(value_text(value))
            if index < 0:
                # A value the client does not know: shown as it is, the problem mark says why.
                widget.addItem(value_text(value), value_text(value))
                index = widget.count() - 1
            widget.setCurrentIndex(index)
        elif isinstance(widget, QComboBox):
            if widget.currentText() != value_text(value):
                widget.setEditText(value_text(value))
        elif isinstance(widget, QLineEdit):
            listed = isinstance(value, list)
            widget.setReadOnly(listed)
            self.notes[key] = "A list: edit it in the SKILL.md view." if listed else ""
            text = ", ".join(map(str, value)) if listed else value_text(value)
            if widget.text() != text:
                widget.setText(text)

    # -- what the user did -------------------------------------------------------------------------------

    def _edited(self, key: str, text: str) -> None:
        if not self._syncing:
            self.field_edited.emit(key, text)

    def _on_choice_activated(self, key: str, combo: QComboBox, index: int) -> None:
        self._edited(key, str(combo.itemData(index) or ""))

    def _on_flag_toggled(self, key: str, on: bool) -> None:
        if not self._syncing:
            self.flag_edited.emit(key, on)
