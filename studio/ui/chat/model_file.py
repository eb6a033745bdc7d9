"""Opening a model file already on disk: File ▸ Open Model File…, File ▸ Recent Model Files, the
first-run panel's button, and a `.gguf` file dropped on the window.

The file is checked off the GUI thread (`studio.llm.inspect_model_file`: its header and tensor
table, never the weights); a file the engine cannot chat with gets a message that says what it
is and what to open instead, and nothing changes. An accepted one becomes the embedded engine's
model, as picking it in Settings would, and heads the recent list.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QDialog, QFileDialog, QMainWindow, QMenu, QMessageBox

from studio.llm import ModelFile, ModelFileError, inspect_model_file
from studio.settings import SettingsStore
from studio.ui import asyncqt
from studio.ui.chat.model_bar import ModelBar
from studio.ui.tasks import TaskSet

RECENT = 8


def dropped_model(event: QDragEnterEvent | QDropEvent) -> Path | None:
    """The one local `.gguf` file a drag carries, else None (folders, several files, web links)."""
    urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
    if len(urls) != 1 or not urls[0].isLocalFile():
        return None
    path = Path(urls[0].toLocalFile())
    return path if path.suffix.lower() == ".gguf" else None


class ModelFileOpener(QObject):
    """Opens model files for the chat's embedded engine.

    Attributes:
        open_action: File ▸ Open Model File… (Ctrl+Alt+O).
        recent_menu: File ▸ Recent Model Files, the newest first.
        message: the last refusal's or note's message box, while it is up.
    """

    def __init__(self, window: QMainWindow, store: SettingsStore, model_bar: ModelBar,
                 tasks: TaskSet) -> None:
        super().__init__(window)
        self._window = window
        self._store = store
        self._model_bar = model_bar
        self._tasks = tasks
        self.message: QMessageBox | None = None
        self.open_action = QAction("Open &Model File…", window)
        self.open_action.setShortcut(QKeySequence("Ctrl+Alt+O"))
        self.open_action.setStatusTip("Chat with a GGUF model file on this computer, in the "
                                      "studio's own engine (or drop the file on the window)")
        self.open_action.triggered.connect(self.choose)
        window.addAction(self.open_action)
        self.recent_menu = QMenu("Recent Model &Files", window)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        model_bar.first_run.open_file_requested.connect(self.choose)
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def choose(self) -> asyncio.Task[ModelFile | None]:
        return self._tasks.spawn(self.choose_and_open())

    async def choose_and_open(self) -> ModelFile | None:
        """Ask for a model file (the dialog opens in the folder of the last one) and open it."""
        recent = self._store.settings.backend.recent_models
        start = str(Path(recent[0]).parent) if recent else str(Path.home())
        dialog = QFileDialog(self._window, "Open Model File", start,
                             "GGUF models (*.gguf);;All files (*)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        return await self.open_model(Path(dialog.selectedFiles()[0]))

    def open_path(self, path: str) -> asyncio.Task[ModelFile | None]:
        return self._tasks.spawn(self.open_model(Path(path)))

    async def open_model(self, path: Path) -> ModelFile | None:
        """Check `path` and, when it is a chat model, chat with it from now on."""
        self._window.statusBar().showMessage(f"Reading {path.name}…")
        try:
            # A thread of its own, not the loop's default executor (qasync's QThreads).
            with ThreadPoolExecutor(1, thread_name_prefix="model-file") as pool:
                model = await asyncio.get_running_loop().run_in_executor(pool, inspect_model_file,
                                                                         path)
        except ModelFileError as exc:
            self._window.statusBar().showMessage(f"{path.name} was not opened", 8000)
            await self._tell(QMessageBox.Icon.Warning, "This file cannot be opened",
                             exc.user_message)
            return None
        self._remember(model.path)
        await self._model_bar.use_local_model(str(model.path))
        self._window.statusBar().showMessage(f"Chatting with {model.summary()} (embedded engine)",
                                             8000)
        if model.notes:
            await self._tell(QMessageBox.Icon.Information, f"{model.name} is open",
                             "\n\n".join(model.notes))
        return model

    async def _tell(self, icon: QMessageBox.Icon, title: str, text: str) -> None:
        self.message = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self._window)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        await asyncqt.ask(self.message)
        self.message = None

    def _remember(self, path: Path) -> None:
        backend = self._store.settings.backend
        backend.recent_models = [str(path), *(p for p in backend.recent_models if p != str(path))][:RECENT]
        self._fill_recent()  # use_local_model saves the settings

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for text in self._store.settings.backend.recent_models:
            path = Path(text)
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(text)
            action.setStatusTip(text)
            action.setEnabled(path.is_file())
            action.triggered.connect(lambda _=False, p=text: self.open_path(p))
        if not self.recent_menu.actions():
            self.recent_menu.addAction("No model files opened yet").setEnabled(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if dropped_model(event) is not None:  # type: ignore[arg-type]
                event.acceptProposedAction()  # type: ignore[attr-defined]
                return True
        elif event.type() == QEvent.Type.Drop:
            path = dropped_model(event)  # type: ignore[arg-type]
            if path is not None:
                event.acceptProposedAction()  # type: ignore[attr-defined]
                self.open_path(str(path))
                return True
        return super().eventFilter(watched, event)
