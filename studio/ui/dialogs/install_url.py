"""File ▸ Install from URL: the URL and the folder to install into, then what the archive holds
before anything is written."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.skills.install import InstallPlan
from studio.skills.threats import threat_report


class InstallUrlDialog(QDialog):
    """Asks for the URL of a zip or tar.gz of skills and the skill folder it goes into.

    Attributes:
        url_edit: the URL. folder_combo: the writable skill folders (editable: any folder).
    """

    def __init__(self, folders: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Install Skills from a URL")
        self.setMinimumWidth(520)
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://github.com/owner/repo/archive/refs/heads/main.zip")
        self.folder_combo = QComboBox()
        self.folder_combo.setEditable(True)
        for folder in folders:
            self.folder_combo.addItem(str(folder))
        note = QLabel("The archive is downloaded and checked, and what it holds is shown before "
                      "anything is written.")
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Download and Check")
        form = QFormLayout()
        form.addRow("&URL", self.url_edit)
        form.addRow("&Into", self.folder_combo)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.url_edit.textChanged.connect(self._on_inputs_changed)
        self.folder_combo.currentTextChanged.connect(self._on_inputs_changed)
        self._on_inputs_changed()

    def _on_inputs_changed(self, _text: str = "") -> None:
        self.ok_button.setEnabled(bool(self.url().strip()) and bool(self.folder_combo.currentText().strip()))

    def url(self) -> str:
        return self.url_edit.text().strip()

    def folder(self) -> Path:
        return Path(self.folder_combo.currentText().strip()).expanduser()


class InstallPlanDialog(QDialog):
    """What an archive holds, and Install (or Replace and Install); nothing is written unless the
    user accepts. Skills with errors cannot be installed: the button is off and says why."""

    def __init__(self, plan: InstallPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Install Skills from a URL")
        self.setMinimumSize(560, 360)
        threats = threat_report((skill.folder, skill.staged, skill.diagnostics)
                                for skill in plan.skills)
        self.details = QPlainTextEdit("\n".join([*threats, *plan.describe()]))
        self.details.setReadOnly(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.install_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setDefault(True)
        if plan.invalid:
            names = ", ".join(skill.folder for skill in plan.invalid)
            self.message.setText(f"{names} has errors, so nothing can be installed. Ask the "
                                 "pack's author to fix them.")
            self.install_button.setText("Install")
            self.install_button.setEnabled(False)
        elif plan.replaced:
            names = ", ".join(skill.folder for skill in plan.replaced)
            self.message.setText(f"Installing replaces {names} in {plan.into}; the folders as "
                                 "they are now are removed.")
            self.install_button.setText("Replace and Install")
        else:
            count = len(plan.skills)
            self.message.setText(f"{count} new skill{'s' * (count != 1)} for {plan.into}.")
            self.install_button.setText("Install")
        layout = QVBoxLayout(self)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
