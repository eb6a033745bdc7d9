"""Dialogs that ask for a skill name, checking it as it is typed: new skill, rename skill."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from studio.skills.checks import names


def name_check(name: str, parent: Path | None) -> str:
    """Why `name` cannot be used in `parent` (empty when it can), in words the user can act on."""
    if not name.strip():
        return "Type a name: lowercase letters, digits and hyphens, like `pdf-tools`."
    problems = names.name_problems(name)
    if problems:
        said = "; ".join(p.removeprefix("it has ").removeprefix("it ") for p in problems)
        return f"{said[0].upper()}{said[1:]}: use `{names.suggest_name(name)}`."
    if parent is not None and (parent / names.normalize_name(name)).exists():
        return f"`{parent / names.normalize_name(name)}` already exists: pick another name."
    return ""


class _NameDialog(QDialog):
    def __init__(self, title: str, accept_text: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(460)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("e.g. pdf-tools")
        self.message = QLabel()
        self.message.setObjectName("fieldMessage")
        self.message.setProperty("severity", "error")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.MarkdownText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(accept_text)
        self.form = QFormLayout()
        self.form.addRow("&Name", self.name_edit)
        self.form.addRow("", self.message)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        self.name_edit.textChanged.connect(self._on_name_edit_text_changed)

    @property
    def name(self) -> str:
        return names.normalize_name(self.name_edit.text())

    def parent_folder(self) -> Path | None:
        raise NotImplementedError

    def problem(self) -> str:
        return name_check(self.name_edit.text(), self.parent_folder())

    def refresh(self) -> None:
        problem = self.problem()
        self.message.setText(problem)
        self.message.setVisible(bool(problem))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    def _on_name_edit_text_changed(self, _text: str) -> None:
        self.refresh()

    def _on_buttons_accepted(self) -> None:
        if not self.problem():
            self.accept()


class NewSkillDialog(_NameDialog):
    """Asks for a new skill's name and the root (folder) to create it in."""

    def __init__(self, roots: list[Path], preferred: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__("New skill", "Create", parent)
        self.root_combo = QComboBox()
        for root in roots:
            self.root_combo.addItem(str(root), root)
        if preferred is not None and preferred in roots:
            self.root_combo.setCurrentIndex(roots.index(preferred))
        self.form.addRow("&In folder", self.root_combo)
        hint = QLabel("Creates <i>name</i>/SKILL.md from the template and opens it.")
        hint.setObjectName("hint")
        self.form.addRow("", hint)
        self.root_combo.currentIndexChanged.connect(self._on_root_combo_current_index_changed)
        self.refresh()

    def parent_folder(self) -> Path | None:
        root = self.root_combo.currentData()
        return root if isinstance(root, Path) else None

    def _on_root_combo_current_index_changed(self, _index: int) -> None:
        self.refresh()


class RenameSkillDialog(_NameDialog):
    """Asks for a skill's new name; its folder and its `name:` change together."""

    def __init__(self, directory: Path, parent: QWidget | None = None) -> None:
        super().__init__("Rename skill", "Rename", parent)
        self.directory = directory
        self.name_edit.setText(directory.name)
        self.name_edit.selectAll()
        hint = QLabel(f"Renames the folder <b>{directory.name}</b> and sets <tt>name:</tt> "
                      "in its SKILL.md.")
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        self.form.addRow("", hint)
        self.refresh()

    def parent_folder(self) -> Path | None:
        return self.directory.parent

    def problem(self) -> str:
        if names.normalize_name(self.name_edit.text()) == self.directory.name:
            return "Type the new name."
        return super().problem()
