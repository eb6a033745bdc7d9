"""File ▸ Install: the source (a git repository, a folder or an archive URL), the folder to
install into and the clients to link it for, then what the source holds before anything is
written."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.skills.install import InstallPlan, installed, lockfile, placement
from studio.threatscan import preview_lines


class InstallUrlDialog(QDialog):
    """Asks for the source of skills, the skill folder it goes into and, when that folder is
    a project's (or the user's) `.agents/skills`, the clients that get a link to (or a copy of)
    each skill in their own folder, as the skills CLI does.

    Attributes:
        url_edit: the source. folder_combo: the writable skill folders (editable: any folder).
        client_boxes: one check box per client. copy_box: copies instead of links.
    """

    def __init__(self, folders: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Install Skills")
        self.setMinimumWidth(560)
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("owner/repo, owner/repo/path#ref, a git URL, a folder or "
                                         "a .zip URL")
        self.folder_combo = QComboBox()
        self.folder_combo.setEditable(True)
        for folder in folders:
            self.folder_combo.addItem(str(folder))
        self.client_boxes: dict[str, QCheckBox] = {}
        clients = QGridLayout()
        for at, client in enumerate(sorted(placement.CLIENTS)):
            box = QCheckBox(client)
            box.setToolTip(_client_tip(*placement.CLIENTS[client]))
            self.client_boxes[client] = box
            clients.addWidget(box, at // 4, at % 4)
        self.copy_box = QCheckBox("Copies instead of links")
        self.clients_note = QLabel()
        self.clients_note.setWordWrap(True)
        note = QLabel("The source is fetched and checked, and what it holds is shown before "
                      "anything is written. It is recorded in skills-lock.json, which the skills "
                      "CLI (npx skills) shares.")
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Download and Check")
        form = QFormLayout()
        form.addRow("&Source", self.url_edit)
        form.addRow("&Into", self.folder_combo)
        form.addRow("Clients", clients)
        form.addRow("", self.copy_box)
        form.addRow("", self.clients_note)
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
        linkable = bool(self.folder_combo.currentText().strip()) and self.project() is not None
        for box in [*self.client_boxes.values(), self.copy_box]:
            box.setEnabled(linkable)
        self.clients_note.setText(
            "" if linkable else "Clients get links only when installing into a project's or your "
            ".agents/skills.")

    def project(self) -> tuple[Path, bool] | None:
        """The project (or home, True) whose .agents/skills the folder is."""
        return installed.project_of(self.folder())

    def clients(self) -> list[str]:
        if self.project() is None:
            return []
        return [client for client, box in self.client_boxes.items() if box.isChecked()]

    def copies(self) -> bool:
        return self.copy_box.isChecked() and self.project() is not None

    def url(self) -> str:
        return self.url_edit.text().strip()

    def folder(self) -> Path:
        return Path(self.folder_combo.currentText().strip()).expanduser()


def _client_tip(project: str, user: str) -> str:
    """Where a client's box links the skills from, in a project and for the user; a client that
    reads .agents/skills itself needs no link there."""
    def where(folder: str, home: str) -> str:
        if folder == ".agents/skills":
            return f"it reads {home}.agents/skills itself"
        return f"a link in {home}{folder}"
    return f"In a project: {where(project, '')}. For you: {where(user, '~/')}."


def files_written(plan: InstallPlan) -> list[str]:
    """Every file installing `plan` writes: each skill's files where they will go, and the lock
    file that records where they came from."""
    lines = ["Writes:"]
    for skill in plan.skills:
        for path in sorted(p for p in skill.staged.rglob("*") if p.is_file() or p.is_symlink()):
            lines.append(f"  {skill.destination / path.relative_to(skill.staged)}")
    lock = lockfile.lock_path(plan.into)
    lines.append(f"  {lock} ({'updated' if lock.exists() else 'new'}: records what was "
                 "installed from where, shared with the skills CLI, for `studio update`)")
    return lines


class InstallPlanDialog(QDialog):
    """What an archive holds, and Install (or Replace and Install); nothing is written unless the
    user accepts. Skills with errors cannot be installed: the button is off and says why."""

    def __init__(self, plan: InstallPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Install Skills from a URL")
        self.setMinimumSize(560, 360)
        threats = preview_lines((skill.folder, skill.staged) for skill in plan.skills)
        self.details = QPlainTextEdit("\n".join([*threats, *plan.describe(), "",
                                                 *files_written(plan)]))
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
