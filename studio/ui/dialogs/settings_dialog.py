"""The Settings dialog: skill roots, the editor font, the model backend for the chat (each
backend with its own URL and model), the embedded engine's context and threads, the workspace the
tool policy allows, and extra folders to look for models in."""

from __future__ import annotations

import copy
from collections.abc import Sequence
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
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.agent.answer_bound import ANSWER_SECONDS_RANGE, ANSWER_TOKENS_RANGE
from studio.agent.guided_mode import SETTING_LABEL as GUIDED_ROW
from studio.settings import (
    BACKEND_KINDS,
    CONNECT_TIMEOUT_RANGE,
    CONTEXT_SIZE_RANGE,
    IDLE_TIMEOUT_RANGE,
    THREADS_RANGE,
    BackendKind,
    Settings,
)
from studio.ui.dialogs.fit import fit_to_screen

PATH_ROLE = Qt.ItemDataRole.UserRole
SESSION_ROLE = Qt.ItemDataRole.UserRole + 1

WORKSPACE_LABELS = {
    "skill": "Each skill's own folder",
    "project": "A project folder",
}

GUIDED_LABELS = {
    "auto": "Automatically, for small models",
    "on": "Always",
    "off": "Never",
}

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

    def __init__(self, settings: Settings, parent: QWidget | None = None,
                 session_roots: Sequence[Path] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(560)
        self._settings = copy.deepcopy(settings)

        self.roots_list = QListWidget()
        for text in self._settings.roots:
            self.add_root(Path(text))
        saved = {Path(text).expanduser() for text in self._settings.roots}
        for path in session_roots:
            if path not in saved:
                self._add_root_item(path, session=True)
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
        self.embed_edit = QLineEdit(backend.embed_model)
        self.embed_edit.setPlaceholderText("empty: all-MiniLM-L6-v2 in the studio, when installed")
        self.embed_edit.setToolTip(
            "An embedding model on this server (e.g. nomic-embed-text) that the library's search "
            "ranks skills by meaning with, besides their words")
        self.gguf_edit = QLineEdit(backend.gguf_path)
        self.gguf_edit.setPlaceholderText("path to a .gguf model file")
        browse = QPushButton("Browse…")
        gguf_row = QHBoxLayout()
        gguf_row.addWidget(self.gguf_edit, 1)
        gguf_row.addWidget(browse)
        self.think_check = QCheckBox("Show the model's thinking, when it can think")
        self.think_check.setChecked(backend.think)
        self.guided_combo = QComboBox()
        for mode, text in GUIDED_LABELS.items():
            self.guided_combo.addItem(text, mode)
        self.guided_combo.setCurrentIndex(max(0, self.guided_combo.findData(backend.guided)))
        self.guided_combo.setToolTip(
            "Guided, each reply is held to the next step: pick a skill (or none), run one of its "
            "scripts with words from your message, answer from its output. For models too small "
            "to call tools on their own, such as SmolLM2-135M; automatic guides models of fewer "
            "than 2B parameters, when the server tells the model's size.")
        self.connect_spin = _seconds_spin(CONNECT_TIMEOUT_RANGE, backend.connect_timeout)
        self.connect_spin.setToolTip("How long to wait for the server to accept the connection.")
        self.idle_spin = _seconds_spin(IDLE_TIMEOUT_RANGE, backend.idle_timeout)
        self.idle_spin.setToolTip(
            "How long the server may go without sending any of the answer before the chat gives "
            "up. A model that is still loading sends nothing, so allow minutes on a slow machine."
        )
        self.answer_tokens_spin = QSpinBox()
        self.answer_tokens_spin.setRange(*ANSWER_TOKENS_RANGE)
        self.answer_tokens_spin.setSingleStep(1024)
        self.answer_tokens_spin.setValue(backend.answer_tokens)
        self.answer_tokens_spin.setSuffix(" tokens")
        self.answer_tokens_spin.setToolTip(
            "The most one answer may stream (its thinking included) before the chat stops it: "
            "a model caught in a loop never ends on its own.")
        self.answer_seconds_spin = _seconds_spin(ANSWER_SECONDS_RANGE, backend.answer_seconds)
        self.answer_seconds_spin.setToolTip(
            "The most one answer may take, from the question to the end, tool runs and "
            "approvals included, before the chat stops it.")
        self.context_spin = QSpinBox()
        self.context_spin.setRange(*CONTEXT_SIZE_RANGE)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setValue(backend.context_size)
        self.context_spin.setSuffix(" tokens")
        self.context_spin.setToolTip("The most context the chat asks for (never more than the "
                                     "model's own). More holds more skills and chat, and needs "
                                     "more memory.")
        self.threads_spin = QSpinBox()
        self.threads_spin.setRange(*THREADS_RANGE)
        self.threads_spin.setValue(backend.threads)
        self.threads_spin.setSpecialValueText("Chosen for this machine")
        self.threads_spin.setToolTip("The CPU threads of the embedded engine.")
        self.workspace_combo = QComboBox()
        for mode, label in WORKSPACE_LABELS.items():
            self.workspace_combo.addItem(label, mode)
        self.workspace_combo.setCurrentIndex(
            max(0, self.workspace_combo.findData(backend.workspace_mode)))
        self.workspace_combo.setToolTip("Where a skill's commands may write without asking")
        self.workspace_edit = QLineEdit(backend.workspace)
        self.workspace_edit.setPlaceholderText("the folder the studio started in")
        workspace_browse = QPushButton("Browse…")
        workspace_row = QHBoxLayout()
        workspace_row.addWidget(self.workspace_edit, 1)
        workspace_row.addWidget(workspace_browse)
        self.model_folders_list = QListWidget()
        self.model_folders_list.addItems(self._settings.model_folders)
        self.model_folders_list.setMaximumHeight(70)
        add_model_folder = QPushButton("Add folder…")
        remove_model_folder = QPushButton("Remove")
        model_folder_buttons = QHBoxLayout()
        model_folder_buttons.addWidget(add_model_folder)
        model_folder_buttons.addWidget(remove_model_folder)
        model_folder_buttons.addStretch(1)
        model_folders = QVBoxLayout()
        model_folders.addWidget(self.model_folders_list)
        model_folders.addLayout(model_folder_buttons)
        backend_box = QGroupBox("Model backend (for the chat)")
        backend_form = QFormLayout(backend_box)
        backend_form.addRow("Kind", self.kind_combo)
        backend_form.addRow("Server URL", self.url_edit)
        backend_form.addRow("Model", self.model_edit)
        backend_form.addRow("Search embedding model", self.embed_edit)
        backend_form.addRow("GGUF file", gguf_row)
        backend_form.addRow("", self.think_check)
        backend_form.addRow(GUIDED_ROW, self.guided_combo)
        backend_form.addRow("Connect timeout", self.connect_spin)
        backend_form.addRow("Idle timeout", self.idle_spin)
        backend_form.addRow("Most tokens in an answer", self.answer_tokens_spin)
        backend_form.addRow("Most seconds an answer may take", self.answer_seconds_spin)
        backend_form.addRow("Context size", self.context_spin)
        backend_form.addRow("Engine threads", self.threads_spin)
        backend_form.addRow("Workspace", self.workspace_combo)
        backend_form.addRow("Project folder", workspace_row)
        backend_form.addRow("Model folders", model_folders)

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
        # The settings scroll, the buttons stay: on a 720 px screen the boxes are taller than it,
        # and Save was off-screen.
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        for box in (roots_box, editor_box, backend_box, session_box):
            content_layout.addWidget(box)
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, scroll)

        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        add_folder.clicked.connect(self._on_add_folder_clicked)
        add_zip.clicked.connect(self._on_add_zip_clicked)
        remove.clicked.connect(self._on_remove_clicked)
        browse.clicked.connect(self._on_browse_clicked)
        workspace_browse.clicked.connect(self._on_workspace_browse_clicked)
        add_model_folder.clicked.connect(self._on_add_model_folder_clicked)
        remove_model_folder.clicked.connect(self._on_remove_model_folder_clicked)
        self.workspace_combo.currentIndexChanged.connect(self._update_backend_fields)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_combo_current_index_changed)
        self._update_backend_fields()

    def result_settings(self) -> Settings:
        settings = self._settings
        settings.roots = [str(self._root_item_path(row)) for row in range(self.roots_list.count())
                          if not self.roots_list.item(row).data(SESSION_ROLE)]
        settings.include_hidden = self.hidden_check.isChecked()
        system_family = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
        family = self.font_combo.currentFont().family()
        settings.editor_font.family = "" if family == system_family else family
        settings.editor_font.size = self.size_spin.value()
        self._keep_server_fields()
        backend = settings.backend
        backend.gguf_path = self.gguf_edit.text().strip()
        backend.embed_model = self.embed_edit.text().strip()
        backend.think = self.think_check.isChecked()
        backend.guided = self.guided_combo.currentData()
        backend.connect_timeout = self.connect_spin.value()
        backend.idle_timeout = self.idle_spin.value()
        backend.answer_tokens = self.answer_tokens_spin.value()
        backend.answer_seconds = self.answer_seconds_spin.value()
        backend.context_size = self.context_spin.value()
        backend.threads = self.threads_spin.value()
        backend.workspace_mode = self.workspace_combo.currentData()
        backend.workspace = self.workspace_edit.text().strip()
        settings.model_folders = [self.model_folders_list.item(row).text()
                                  for row in range(self.model_folders_list.count())]
        settings.remember_window = self.remember_window.isChecked()
        settings.remember_open_tabs = self.remember_tabs.isChecked()
        return settings

    def session_roots(self) -> list[Path]:
        """The roots given on the command line that are still listed (open for this session,
        not saved)."""
        return [self._root_item_path(row) for row in range(self.roots_list.count())
                if self.roots_list.item(row).data(SESSION_ROLE)]

    def add_root(self, path: Path) -> None:
        self._add_root_item(path, session=False)

    def _root_item_path(self, row: int) -> Path:
        return Path(self.roots_list.item(row).data(PATH_ROLE))

    def _add_root_item(self, path: Path, *, session: bool) -> None:
        for row in range(self.roots_list.count()):
            if self._root_item_path(row) == path:
                # Added here, a root of this session only becomes a saved one.
                item = self.roots_list.item(row)
                if item.data(SESSION_ROLE) and not session:
                    item.setData(SESSION_ROLE, False)
                    item.setText(str(path))
                    item.setToolTip("")
                return
        item = QListWidgetItem(f"{path}    (this session only)" if session else str(path))
        item.setData(PATH_ROLE, str(path))
        item.setData(SESSION_ROLE, session)
        if session:
            item.setToolTip("Given on the command line: open for this session, not saved. "
                            "Add it with Add folder… to keep it; Remove closes it.")
        self.roots_list.addItem(item)

    def _update_backend_fields(self) -> None:
        embedded = self.kind_combo.currentData() == "embedded"
        self.url_edit.setEnabled(not embedded)
        self.model_edit.setEnabled(not embedded)
        self.gguf_edit.setEnabled(embedded)
        self.workspace_edit.setEnabled(self.workspace_combo.currentData() == "project")

    def _keep_server_fields(self) -> None:
        """Put the URL and model fields into the settings of the backend they were shown for."""
        backend = self._settings.backend
        backend.url = self.url_edit.text().strip()
        backend.model = self.model_edit.text().strip()

    def _on_kind_combo_current_index_changed(self, _index: int) -> None:
        # Each backend keeps its own URL and model: store the shown ones, show the new kind's.
        self._keep_server_fields()
        kind: BackendKind = self.kind_combo.currentData()
        self._settings.backend.switch_to(kind)
        self.url_edit.setText(self._settings.backend.url)
        self.model_edit.setText(self._settings.backend.model)
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

    def _on_workspace_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Pick the project folder")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        self._pick(dialog, self.workspace_edit.setText)

    def _on_add_model_folder_clicked(self) -> None:
        dialog = QFileDialog(self, "Add a folder of GGUF models")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        self._pick(dialog, self.add_model_folder)

    def add_model_folder(self, folder: str) -> None:
        if not self.model_folders_list.findItems(folder, Qt.MatchFlag.MatchExactly):
            self.model_folders_list.addItem(folder)

    def _on_remove_model_folder_clicked(self) -> None:
        for item in self.model_folders_list.selectedItems():
            self.model_folders_list.takeItem(self.model_folders_list.row(item))

    def _on_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Pick a GGUF model file", "", "GGUF models (*.gguf)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        self._pick(dialog, self.gguf_edit.setText)
