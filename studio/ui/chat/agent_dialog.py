"""The dialog that names an agent before it is saved (Save as Agent, Import Agentfile): its name,
checked as it is typed, its system text, and what else it holds."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.agent.agents import AgentSpec, valid_name

_WARNINGS_SHOWN = 8


def agent_name_problem(name: str) -> str:
    """Why `name` cannot name an agent (empty when it can), in words the user can act on."""
    if not name:
        return "Type a name, like `csv-helper`."
    if not valid_name(name):
        return ("A name is up to 64 letters, digits, `-`, `_` or `.`, starting with a letter or "
                "digit (it is also the agent's file name).")
    return ""


def describe_agent(spec: AgentSpec) -> str:
    """What an agent holds besides its name and system text, one line each."""
    skills = (", ".join(Path(path).name or path for path in spec.skills)
              if spec.skills else "every skill in the library")
    parameters = (", ".join(f"{key} {value}" for key, value in spec.parameters.items())
                  if spec.parameters else "none")
    return (f"Model: {spec.model or 'the chat’s'}\nSkills: {skills}\nParameters: {parameters}"
            + (f"\nAgent type: {spec.agent_type}" if spec.agent_type else ""))


class AgentDialog(QDialog):
    """Asks for an agent's name and system text; `spec()` is the agent with them.

    A name taken by a saved agent is allowed: the caller asks before replacing it.
    """

    def __init__(self, title: str, spec: AgentSpec, taken: Collection[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agentDialog")
        self.setWindowTitle(title)
        self.setMinimumWidth(480)
        self._spec = spec
        self._taken = set(taken)
        self.name_edit = QLineEdit(spec.name)
        self.name_edit.setPlaceholderText("e.g. csv-helper")
        self.message = QLabel()
        self.message.setObjectName("fieldMessage")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.MarkdownText)
        self.system_edit = QPlainTextEdit(spec.system)
        self.system_edit.setPlaceholderText("Put first in the model's system prompt, e.g. "
                                            "“You answer briefly and cite the skill you used.”")
        self.system_edit.setFixedHeight(self.system_edit.fontMetrics().lineSpacing() * 5 + 12)
        self.details = QLabel(describe_agent(spec))
        self.details.setObjectName("agentDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        form = QFormLayout()
        form.addRow("&Name", self.name_edit)
        form.addRow("", self.message)
        form.addRow("&System text", self.system_edit)
        form.addRow("", self.details)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.name_edit.textChanged.connect(self._on_name_edit_text_changed)
        self.refresh()

    @property
    def name(self) -> str:
        return self.name_edit.text().strip()

    def spec(self) -> AgentSpec:
        return replace(self._spec, name=self.name, system=self.system_edit.toPlainText().strip())

    def refresh(self) -> None:
        problem = agent_name_problem(self.name)
        if not problem and self.name in self._taken:
            note = f"An agent named `{self.name}` exists; saving asks before replacing it."
        else:
            note = problem
        self.message.setProperty("severity", "error" if problem else "warning")
        self.message.setText(note)
        self.message.setVisible(bool(note))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not problem)

    def accept(self) -> None:
        if not agent_name_problem(self.name):
            super().accept()

    def _on_name_edit_text_changed(self, _text: str) -> None:
        self.refresh()


def _question(parent: QWidget | None, title: str, text: str, informative: str,
              yes: str) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Question, title, text,
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, parent)
    box.setInformativeText(informative)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText(yes)
    return box


def replace_agent(parent: QWidget | None, name: str) -> QMessageBox:
    return _question(parent, "Replace agent", f"An agent named {name} is already saved.",
                     "Replace it with this one? Its model, skills, system text and parameters "
                     "are then lost.", "Replace")


def delete_agent(parent: QWidget | None, name: str) -> QMessageBox:
    return _question(parent, "Delete agent", f"Delete the agent {name}?",
                     "Its model, skills, system text and parameters are forgotten; the skills "
                     "themselves stay as they are.", "Delete")


def overwrite_file(parent: QWidget | None, path: Path) -> QMessageBox:
    return _question(parent, "Replace file", f"{path.name} already exists in {path.parent}.",
                     "Replace it with the exported Agentfile?", "Replace")


def unused_lines(parent: QWidget | None, path: Path, warnings: list[str]) -> QMessageBox:
    shown = warnings[:_WARNINGS_SHOWN] + (
        [f"… and {len(warnings) - _WARNINGS_SHOWN} more"] if len(warnings) > _WARNINGS_SHOWN else [])
    box = _question(parent, "Import Agentfile",
                    f"{path.name} has lines the studio does not use:",
                    "\n".join(shown) + "\n\nImport the agent without them?", "Import")
    box.setIcon(QMessageBox.Icon.Warning)
    return box
