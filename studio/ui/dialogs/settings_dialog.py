"""The Settings dialog: skill roots, the editor font, and the model backend for the chat."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFontComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.settings import (
    BACKEND_KINDS,
    CONNECT_TIMEOUT_RANGE,
    DEFAULT_URLS,
    IDLE_TIMEOUT_RANGE,
    Settings,
)

BACKEND_LABELS = {
    "ollama": "Ollama",
    "openai": "OpenAI-compatible server (llama.cpp, LM Studio, vLLM…)",
    "embedded": "Embedded llama.cpp (a GGUF file)",
}


def _seconds_spin(limits: tuple[int, int], value: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(*limits)
    spin.setValue(value)
    spin.setSuffix(" s")
    return spin


class SettingsDialog(QDialog):
    """Edits a copy of the settings; `result_settings()` gives the edited copy after OK."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(560)
        self._settings = copy.deepcopy(settings)

        self.roots_list = QListWidget()
        self.roots_list.addItems(self._settings.roots)
        self.roots_list.setMinimumHeight(110)
        add_folder = QPushButton("Add folder…")
        add_zip = QPushButton("Add zip…")
        remove = QPushButton("Remove")
        self.hidden_check = QCheckBox("Look inside hidden folders (names starting with a dot)")
        self.hidden_check.setChecked(self._settings.include_hidden)
        root_buttons = QHBoxLayout()
        for button in (add_folder, add_zip, remove):
            root_buttons.addWidget(button)
        root_buttons.addStretch(1)
        roots_box = QGroupBox("Skill roots")
        roots_layout = QVBoxLayout(roots_box)
        roots_layout.addWidget(self.roots_list)
        roots_layout.addLayout(root_buttons)
        roots_layout.addWidget(self.hidden_check)

        self.font_combo = QFontComboBox()
        self.font_combo.setFontFilters(QFontComboBox.FontFilter.MonospacedFonts)
        family = (self._settings.editor_font.family
                  or QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family())
        self.font_combo.setCurrentText(family)
        self.size_spin = QSpinBox()
        self.size_spin.setRange(5, 72)
        self.size_spin.setValue(self._settings.editor_font.size)
        self.size_spin.setSuffix(" pt")
        font_row = QHBoxLayout()
        font_row.addWidget(self.font_combo, 1)
        font_row.addWidget(self.size_spin)
        editor_box = QGroupBox("Editor")
        editor_form = QFormLayout(editor_box)
        editor_form.addRow("Font", font_row)

        backend = self._settings.backend
        self.kind_combo = QComboBox()
        for kind in BACKEND_KINDS:
            self.kind_combo.addItem(BACKEND_LABELS[kind], kind)
        self.kind_combo.setCurrentIndex(BACKEND_KINDS.index(backend.kind))
        self.url_edit = QLineEdit(backend.url)
        self.model_edit = QLineEdit(backend.model)
        self.model_edit.setPlaceholderText("e.g. qwen3:4b")
        self.gguf_edit = QLineEdit(backend.gguf_path)
        self.gguf_edit.setPlaceholderText("path to a .gguf model file")
        browse = QPushButton("Browse…")
        gguf_row = QHBoxLayout()
        gguf_row.addWidget(self.gguf_edit, 1)
        gguf_row.addWidget(browse)
        self.think_check = QCheckBox("Show the model's thinking, when it can think")
        self.think_check.setChecked(backend.think)
        self.connect_spin = _seconds_spin(CONNECT_TIMEOUT_RANGE, backend.connect_timeout)
        self.connect_spin.setToolTip("How long to wait for the server to accept the connection.")
        self.idle_spin = _seconds_spin(IDLE_TIMEOUT_RANGE, backend.idle_timeout)
        self.idle_spin.setToolTip(
            "How long the server may go without sending any of the answer before the chat gives "
            "up. A model that is still loading sends nothing, so allow minutes on a slow machine."
        )
        backend_box = QGroupBox("Model backend (for the chat)")
        backend_form = QFormLayout(backend_box)
        backend_form.addRow("Kind", self.kind_combo)
        backend_form.addRow("Server URL", self.url_edit)
        backend_form.addRow("Model", self.model_edit)
        backend_form.addRow("GGUF file", gguf_row)
        backend_form.addRow("", self.think_check)
        backend_form.addRow("Connect timeout", self.connect_spin)
        backend_form.addRow("Idle timeout", self.idle_spin)

        self.remember_window = QCheckBox("Restore the window's size and layout")
        self.remember_window.setChecked(self._settings.remember_window)
        self.remember_tabs = QCheckBox("Reopen the skills that were open")
        self.remember_tabs.setChecked(self._settings.remember_open_tabs)
        session_box = QGroupBox("At start")
        session_layout = QVBoxLayout(session_box)
        session_layout.addWidget(self.remember_window)
        session_layout.addWidget(self.remember_tabs)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        for box in (roots_box, editor_box, backend_box, session_box):
            layout.addWidget(box)
        layout.addWidget(buttons)

        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        add_folder.clicked.connect(self._on_add_folder_clicked)
        add_zip.clicked.connect(self._on_add_zip_clicked)
        remove.clicked.connect(self._on_remove_clicked)
        browse.clicked.connect(self._on_browse_clicked)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_combo_current_index_changed)
        self._update_backend_fields()

    def result_settings(self) -> Settings:
        settings = self._settings
        settings.roots = [self.roots_list.item(row).text()
                          for row in range(self.roots_list.count())]
        settings.include_hidden = self.hidden_check.isChecked()
        system_family = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
        family = self.font_combo.currentFont().family()
        settings.editor_font.family = "" if family == system_family else family
        settings.editor_font.size = self.size_spin.value()
        settings.backend.kind = BACKEND_KINDS[self.kind_combo.currentIndex()]  # type: ignore[assignment]
        settings.backend.url = self.url_edit.text().strip()
        settings.backend.model = self.model_edit.text().strip()
        settings.backend.gguf_path = self.gguf_edit.text().strip()
        settings.backend.think = self.think_check.isChecked()
        settings.backend.connect_timeout = self.connect_spin.value()
        settings.backend.idle_timeout = self.idle_spin.value()
        settings.remember_window = self.remember_window.isChecked()
        settings.remember_open_tabs = self.remember_tabs.isChecked()
        return settings

    def add_root(self, path: Path) -> None:
        text = str(path)
        if not self.roots_list.findItems(text, Qt.MatchFlag.MatchExactly):
            self.roots_list.addItem(text)

    def _update_backend_fields(self) -> None:
        embedded = self.kind_combo.currentData() == "embedded"
        self.url_edit.setEnabled(not embedded)
        self.gguf_edit.setEnabled(embedded)

    def _on_kind_combo_current_index_changed(self, _index: int) -> None:
        kind = str(self.kind_combo.currentData())
        if self.url_edit.text().strip() in DEFAULT_URLS.values():
            self.url_edit.setText(DEFAULT_URLS[kind])
        self._update_backend_fields()

    def _pick(self, dialog: QFileDialog, on_chosen: object) -> None:
        dialog.fileSelected.connect(on_chosen)
        dialog.open()

    def _on_add_folder_clicked(self) -> None:
        dialog = QFileDialog(self, "Add a folder of skills")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        self._pick(dialog, lambda chosen: self.add_root(Path(chosen)))

    def _on_add_zip_clicked(self) -> None:
        dialog = QFileDialog(self, "Add a zip archive of skills", "", "Zip archives (*.zip)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        self._pick(dialog, lambda chosen: self.add_root(Path(chosen)))

    def _on_remove_clicked(self) -> None:
        for item in self.roots_list.selectedItems():
            self.roots_list.takeItem(self.roots_list.row(item))

    def _on_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Pick a GGUF model file", "", "GGUF models (*.gguf)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        self._pick(dialog, self.gguf_edit.setText)
