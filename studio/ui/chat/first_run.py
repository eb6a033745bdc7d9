"""What the chat offers when no model answers: a model already on this computer, a download, or
a server to connect to, as buttons rather than advice."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.ui.chat.backend import ModelChoice

# (label, backend kind, URL): the servers people run, at the addresses they listen on by default.
SERVERS: tuple[tuple[str, str, str], ...] = (
    ("Ollama", "ollama", "http://127.0.0.1:11434"),
    ("LM Studio", "openai", "http://127.0.0.1:1234/v1"),
    ("llama.cpp server", "openai", "http://127.0.0.1:8080/v1"),
    ("vLLM", "openai", "http://127.0.0.1:8000/v1"),
)


class FirstRunPanel(QWidget):
    """The three ways forward, shown in the chat pane while no backend answers.

    Attributes:
        local_list: the models found on this computer, once asked for.

    Signals:
        local_models_requested: the user wants to see the models on this computer.
        local_model_chosen: (path) a found model file was picked.
        open_file_requested: the user wants to open a model file of their own.
        download_requested: the user wants to download a model.
        server_chosen: (kind, url) a server to connect to was picked.
    """

    local_models_requested = Signal()
    local_model_chosen = Signal(str)
    open_file_requested = Signal()
    download_requested = Signal()
    server_chosen = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunPanel")
        heading = QLabel("<b>To chat, pick a model:</b>")
        heading.setWordWrap(True)
        self.local_button = QPushButton("Use a model on this computer")
        self.local_button.setToolTip("Run a GGUF model found on this computer in the studio itself")
        self.open_file_button = QPushButton("Open a model file…")
        self.open_file_button.setToolTip("Chat with a GGUF file you have (from LM Studio, Jan, "
                                         "Hugging Face…); dropping it on the window works too")
        self.download_button = QPushButton("Download a model…")
        self.download_button.setToolTip("Download a small model that can use skills")
        self.connect_button = QPushButton("Connect to a server")
        self.connect_button.setToolTip("Chat with a model server you run: Ollama, LM Studio, "
                                       "llama.cpp, vLLM")
        self.connect_menu = QMenu(self.connect_button)
        for label, kind, url in SERVERS:
            action = self.connect_menu.addAction(f"{label}  ({url})")
            action.triggered.connect(lambda _=False, k=kind, u=url: self.server_chosen.emit(k, u))
        self.connect_menu.addSeparator()
        self.custom_action = self.connect_menu.addAction("Another URL (OpenAI-compatible)…")
        self.connect_button.setMenu(self.connect_menu)

        self.local_note = QLabel()
        self.local_note.setWordWrap(True)
        self.local_note.hide()
        self.local_list = QListWidget()
        self.local_list.setObjectName("localModels")
        self.local_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.local_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.local_list.hide()
        self.use_button = QPushButton("Use This Model")
        self.use_button.setEnabled(False)
        self.use_button.hide()
        use_row = QHBoxLayout()
        use_row.addStretch(1)
        use_row.addWidget(self.use_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.addWidget(heading)
        for button in (self.local_button, self.open_file_button, self.download_button,
                       self.connect_button):
            layout.addWidget(button)
        layout.addWidget(self.local_note)
        layout.addWidget(self.local_list)
        layout.addLayout(use_row)

        self.local_button.clicked.connect(self._on_local_button_clicked)
        self.open_file_button.clicked.connect(self.open_file_requested)
        self.download_button.clicked.connect(self.download_requested)
        self.custom_action.triggered.connect(self._on_custom_action_triggered)
        self.local_list.currentRowChanged.connect(self._on_local_list_current_row_changed)
        self.local_list.itemActivated.connect(self._on_local_list_item_activated)
        self.use_button.clicked.connect(self._on_use_button_clicked)

    def show_searching(self) -> None:
        self.local_note.setText("Looking for models on this computer…")
        self.local_note.show()
        self.local_list.hide()
        self.use_button.hide()

    def show_local_models(self, choices: list[ModelChoice]) -> None:
        """List the models found (each with its size, quantization, context and tools badge)."""
        self.local_list.clear()
        for choice in choices:
            item = QListWidgetItem(f"{choice.label}\n    {choice.details}")
            item.setData(Qt.ItemDataRole.UserRole, choice.name)
            item.setToolTip(choice.name)
            self.local_list.addItem(item)
        if choices:
            self.local_note.setText("Found on this computer; the studio runs the one you pick "
                                    "(it loads when you send a message):")
            self.local_list.setCurrentRow(0)
        else:
            self.local_note.setText("No model file was found on this computer (Ollama, LM Studio, "
                                    "Jan, GPT4All, the Hugging Face cache or your model folders "
                                    "in Settings). Download one instead.")
        self.local_note.show()
        rows = min(max(len(choices), 1), 5)
        self.local_list.setFixedHeight(rows * self.local_list.sizeHintForRow(0) + 6
                                       if choices else 0)
        self.local_list.setVisible(bool(choices))
        self.use_button.setVisible(bool(choices))

    def show_engine_problem(self, problem: str) -> None:
        """Say why no model on this computer can run (the engine cannot load), and offer none."""
        self.local_note.setText(f"{problem} Meanwhile, a model server you run works: Connect to "
                                "a server.")
        self.local_note.show()
        self.local_list.clear()
        self.local_list.hide()
        self.use_button.hide()

    def _on_local_button_clicked(self) -> None:
        self.show_searching()
        self.local_models_requested.emit()

    def _on_local_list_current_row_changed(self, row: int) -> None:
        self.use_button.setEnabled(row >= 0)

    def _on_local_list_item_activated(self, item: QListWidgetItem) -> None:
        self.local_model_chosen.emit(str(item.data(Qt.ItemDataRole.UserRole)))

    def _on_use_button_clicked(self) -> None:
        item = self.local_list.currentItem()
        if item is not None:
            self._on_local_list_item_activated(item)

    def _on_custom_action_triggered(self) -> None:
        dialog = QInputDialog(self)
        dialog.setWindowTitle("Connect to a server")
        dialog.setLabelText("The server's OpenAI-compatible URL (ending in /v1):")
        dialog.setTextValue("http://127.0.0.1:8080/v1")
        dialog.textValueSelected.connect(self._on_custom_url_selected)
        dialog.open()

    def _on_custom_url_selected(self, url: str) -> None:
        url = url.strip()
        if url.startswith(("http://", "https://")):
            self.server_chosen.emit("openai", url)
        else:
            self.local_note.setText(f"{url!r} is not a web address; write it as "
                                    "http://HOST:PORT/v1.")
            self.local_note.show()
