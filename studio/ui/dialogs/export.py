"""Skill ▸ Export…: which form the skill takes (a .skill archive, a Claude Code plugin, a site's
`.well-known/agent-skills/`) and where it goes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

# (kind, label, what the destination is)
FORMS = (
    ("skill", "Skill archive (.skill)", "The folder the NAME.skill archive is written in."),
    ("plugin", "Claude Code plugin", "The plugin's folder (its name is the plugin's: kebab-case)."),
    ("index", "Site index (.well-known/agent-skills)",
     "The site's folder; .well-known/agent-skills/ is written in it, the rest is untouched."),
)


class ExportDialog(QDialog):
    """The form and the destination of an export; the skill as saved on disk is exported."""

    def __init__(self, skill_name: str, folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Export {skill_name}")
        self.setMinimumWidth(520)
        self._skill_name = skill_name
        self.form_combo = QComboBox()
        for kind, label, _ in FORMS:
            self.form_combo.addItem(label, kind)
        self.destination_edit = QLineEdit(str(folder))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._on_browse_clicked)
        row = QHBoxLayout()
        row.addWidget(self.destination_edit, 1)
        row.addWidget(browse)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.force_box = QCheckBox("Replace what is already there")
        note = QLabel("The skill is validated first, its evals/ folder stays out, and the result "
                      "is checked before it is put in place. What is exported is the skill as "
                      "saved on disk.")
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow("&Form", self.form_combo)
        form.addRow("&Destination", row)
        form.addRow("", self.hint)
        form.addRow("", self.force_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.form_combo.currentIndexChanged.connect(self._on_form_combo_current_index_changed)
        self._on_form_combo_current_index_changed(0)

    @property
    def kind(self) -> str:
        return str(self.form_combo.currentData())

    @property
    def destination(self) -> Path:
        return Path(self.destination_edit.text().strip()).expanduser()

    def _on_form_combo_current_index_changed(self, index: int) -> None:
        self.hint.setText(FORMS[max(index, 0)][2].replace("NAME", self._skill_name))

    def _on_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Export to", self.destination_edit.text())
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.fileSelected.connect(self.destination_edit.setText)
        dialog.open()
