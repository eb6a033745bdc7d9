"""The Settings dialog's model backend: timeouts, each backend's URL and model, context, threads,
workspace and model folders, shown from the settings and saved as edited."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.settings import (
    CONNECT_TIMEOUT_RANGE,
    CONTEXT_SIZE_RANGE,
    DEFAULT_URLS,
    IDLE_TIMEOUT_RANGE,
    Settings,
)
from studio.ui.settings.settings_dialog import SettingsDialog
from tests.ui.helpers import WindowFactory, open_dialog, start


def test_the_timeouts_are_shown_and_saved(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.connect_timeout, settings.backend.idle_timeout = 7, 240
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert (dialog.connect_spin.value(), dialog.idle_spin.value()) == (7, 240)
    assert (dialog.connect_spin.minimum(), dialog.connect_spin.maximum()) == CONNECT_TIMEOUT_RANGE
    assert (dialog.idle_spin.minimum(), dialog.idle_spin.maximum()) == IDLE_TIMEOUT_RANGE
    dialog.connect_spin.setValue(3)
    dialog.idle_spin.setValue(900)
    edited = dialog.result_settings()
    assert (edited.backend.connect_timeout, edited.backend.idle_timeout) == (3, 900)
    assert (settings.backend.connect_timeout, settings.backend.idle_timeout) == (7, 240)


def test_switching_backends_in_the_dialog_keeps_each_url_and_model(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.url, settings.backend.model = "http://box:11434", "qwen3:0.6b"
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("openai"))
    assert dialog.url_edit.text() == DEFAULT_URLS["openai"] and dialog.model_edit.text() == ""
    dialog.url_edit.setText("http://box:1234/v1")
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("ollama"))
    assert (dialog.url_edit.text(), dialog.model_edit.text()) == ("http://box:11434", "qwen3:0.6b")
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("openai"))
    edited = dialog.result_settings().backend
    assert (edited.kind, edited.url) == ("openai", "http://box:1234/v1")
    assert edited.servers["ollama"].url == "http://box:11434"


def test_context_threads_workspace_and_model_folders_are_shown_and_saved(
        qtbot: QtBot, tmp_path: Path) -> None:
    settings = Settings(model_folders=["/models/a"])
    settings.backend.context_size, settings.backend.threads = 4096, 2
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert (dialog.context_spin.value(), dialog.threads_spin.value()) == (4096, 2)
    assert (dialog.context_spin.minimum(), dialog.context_spin.maximum()) == CONTEXT_SIZE_RANGE
    assert dialog.workspace_combo.currentData() == "skill" and not dialog.workspace_edit.isEnabled()
    dialog.context_spin.setValue(16384)
    dialog.threads_spin.setValue(0)
    dialog.workspace_combo.setCurrentIndex(dialog.workspace_combo.findData("project"))
    assert dialog.workspace_edit.isEnabled()
    dialog.workspace_edit.setText(str(tmp_path))
    dialog.add_model_folder(str(tmp_path / "gguf"))
    dialog.add_model_folder("/models/a")
    edited = dialog.result_settings()
    assert (edited.backend.context_size, edited.backend.threads) == (16384, 0)
    assert (edited.backend.workspace_mode, edited.backend.workspace) == ("project", str(tmp_path))
    assert edited.model_folders == ["/models/a", str(tmp_path / "gguf")]


def test_the_root_given_on_the_command_line_is_listed_and_can_be_closed(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    task = start(window.open_settings())
    dialog = open_dialog(qtbot, SettingsDialog)
    shown = [dialog.roots_list.item(row) for row in range(dialog.roots_list.count())]
    assert [item.data(Qt.ItemDataRole.UserRole) for item in shown] == [str(skills_root)]
    assert "this session only" in shown[0].text()
    assert dialog.result_settings().roots == []
    dialog.roots_list.setCurrentRow(0)
    dialog.roots_list.item(0).setSelected(True)
    dialog._on_remove_clicked()
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert window.roots.session_roots == [] and not window.library.roots()
    assert window.settings.roots == []


def test_a_session_root_added_in_the_dialog_is_saved(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(Settings(roots=["~/skills"]), session_roots=[tmp_path / "more"])
    qtbot.addWidget(dialog)
    dialog.add_root(tmp_path / "more")
    assert dialog.result_settings().roots == ["~/skills", str(tmp_path / "more")]
    assert dialog.session_roots() == []


def test_the_answer_bounds_are_shown_and_saved(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.answer_tokens, settings.backend.answer_seconds = 4096, 120
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert (dialog.answer_tokens_spin.value(), dialog.answer_seconds_spin.value()) == (4096, 120)
    dialog.answer_tokens_spin.setValue(20000)
    dialog.answer_seconds_spin.setValue(1800)
    edited = dialog.result_settings().backend
    assert (edited.answer_tokens, edited.answer_seconds) == (20000, 1800)
    assert (settings.backend.answer_tokens, settings.backend.answer_seconds) == (4096, 120)
