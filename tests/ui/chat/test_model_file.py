"""A model file already on disk: File ▸ Open Model File…, the first-run panel's button, a `.gguf`
dropped on the window, and File ▸ Recent Model Files (issue 44)."""

from __future__ import annotations

import struct
from pathlib import Path

import yaml
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from studio.ui.mainwindow import MainWindow
from tests.fakes.ggufwriter import write_model
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import open_dialog

TEMPLATE = "{% if tools %}{{ tools | tojson }}{% endif %}{{ messages }}"


def _model(folder: Path, name: str = "tiny-q8.gguf") -> Path:
    return write_model(folder / name, {"general.architecture": "llama", "general.name": "Tiny",
                                       "general.file_type": 7, "general.size_label": "2K",
                                       "tokenizer.chat_template": TEMPLATE}, [(64, 32)])


def _saved_backend(window: MainWindow) -> dict[str, object]:
    saved: dict[str, object] = yaml.safe_load(window.store.path.read_text())["backend"]
    return saved


def _drag_and_drop(window: MainWindow, path: Path) -> tuple[bool, bool]:
    """Drag `path` over the window and drop it, as a file manager does: whether the window
    took the drag, and the drop."""
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(QPoint(5, 5), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    enter.ignore()
    QApplication.sendEvent(window, enter)
    drop = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    drop.ignore()
    if enter.isAccepted():
        QApplication.sendEvent(window, drop)
    return enter.isAccepted(), drop.isAccepted()


def _file_menu_texts(window: MainWindow) -> list[str]:
    return [action.text() for action in window.menus.file.actions()]


def test_the_file_menu_offers_a_model_file_and_the_recent_ones(chat_window: ChatWindowFactory) -> None:
    window = chat_window()
    texts = _file_menu_texts(window)
    assert texts.index("Open &Model File…") < texts.index("Recent Model &Files") < texts.index("&Save")
    assert window.chat.model_files.open_action.shortcut().toString() == "Ctrl+Alt+O"


def test_opening_a_model_file_chats_with_it_in_the_engine_and_remembers_it(
        qtbot: QtBot, chat_window: ChatWindowFactory, tmp_path: Path) -> None:
    window = chat_window()
    path = _model(tmp_path / "Downloads")
    window.chat.model_files.open_action.trigger()
    dialog = open_dialog(qtbot, QFileDialog)
    # As a user types the path and presses Open (the listing fills in the background).
    name_edit = dialog.findChild(QLineEdit, "fileNameEdit")
    name_edit.setText(str(path))
    dialog.accept()
    bar = window.chat.pane.model_bar
    qtbot.waitUntil(lambda: "Chatting with" in window.statusBar().currentMessage(), timeout=10000)
    assert bar.backend.kind == "embedded"
    saved = _saved_backend(window)
    assert saved["gguf_path"] == str(path.resolve()) and saved["recent_models"] == [str(path.resolve())]
    assert "Tiny · 2K · Q8_0" in window.statusBar().currentMessage()
    recent = window.chat.model_files.recent_menu
    recent.aboutToShow.emit()
    assert [action.text() for action in recent.actions()] == ["tiny-q8.gguf"]


def test_a_file_that_is_not_a_chat_model_is_refused_with_the_reason_and_nothing_changes(
        qtbot: QtBot, chat_window: ChatWindowFactory, tmp_path: Path) -> None:
    window = chat_window()
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", 20) + b'{"__metadata__":{}}')
    window.chat.model_files.open_path(str(path))
    box = open_dialog(qtbot, QMessageBox)
    assert "safetensors" in box.text() and "GGUF" in box.text()
    box.accept()
    assert window.chat.pane.model_bar.backend.kind == "ollama"
    assert window.store.settings.backend.recent_models == []


def test_a_gguf_dropped_on_the_window_is_opened(
        qtbot: QtBot, chat_window: ChatWindowFactory, tmp_path: Path) -> None:
    window = chat_window()
    path = _model(tmp_path)
    assert _drag_and_drop(window, path) == (True, True)
    # Until the open is over (the model list asked again), not just until the backend switched.
    qtbot.waitUntil(lambda: "Chatting with" in window.statusBar().currentMessage(), timeout=10000)
    assert window.chat.pane.model_bar.backend.kind == "embedded"
    assert window.store.settings.backend.gguf_path == str(path.resolve())


def test_a_dropped_folder_or_other_file_is_left_to_the_window(chat_window: ChatWindowFactory,
                                                              tmp_path: Path) -> None:
    window = chat_window()
    other = tmp_path / "notes.txt"
    other.write_text("x")
    for path in (tmp_path, other):
        assert _drag_and_drop(window, path) == (False, False)
    assert window.chat.pane.model_bar.backend.kind == "ollama"


def test_the_first_run_panel_opens_a_model_file_too(qtbot: QtBot, chat_window: ChatWindowFactory) -> None:
    window = chat_window()
    window.chat.pane.model_bar.first_run.open_file_button.click()
    dialog = open_dialog(qtbot, QFileDialog)
    assert "*.gguf" in dialog.nameFilters()[0]
    dialog.reject()
