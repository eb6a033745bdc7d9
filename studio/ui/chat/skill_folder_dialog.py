"""Asked at a chat's first `create_skill`: which skill folder the model's new skills go in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget


class SkillFolderDialog(QDialog):
    """The writable skill folders, the first picked.

    Attributes:
        folder_combo: the folders, in the library's order.
    """

    def __init__(self, folders: list[Path], skill: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Where Do New Skills Go?")
        self.setMinimumWidth(460)
        note = QLabel(f"The model wants to create the skill “{skill}”. Which folder of skills "
                      "should this chat's new skills go in? You still review each skill before "
                      "it is saved; this chat remembers the folder.")
        note.setWordWrap(True)
        self.folder_combo = QComboBox()
        for folder in folders:
            self.folder_combo.addItem(str(folder), str(folder))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Use This Folder")
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.folder_combo)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

    def folder(self) -> Path:
        return Path(str(self.folder_combo.currentData()))
