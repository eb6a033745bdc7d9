"""Guided replies for small models are a setting of both front ends: `studio chat --guided`, and
the Settings dialog's check box, kept in settings.yaml and handed to the core session."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.cli import build_parser
from studio.commands.chat import session_settings
from studio.settings import BackendSettings, Settings, load_settings, save_settings
from studio.ui.chat.backend import turn_settings
from studio.ui.dialogs.settings_dialog import SettingsDialog


def test_the_command_line_guides_only_when_asked() -> None:
    plain = build_parser().parse_args(["chat", "go", "--model", "m"])
    guided = build_parser().parse_args(["chat", "go", "--model", "m", "--guided"])
    assert session_settings(plain, None).guided is False
    assert session_settings(guided, None).guided is True


def test_the_studio_hands_the_setting_to_each_turn() -> None:
    assert turn_settings(BackendSettings(), "m", False).guided is False
    assert turn_settings(BackendSettings(guided=True), "m", False).guided is True


def test_the_setting_is_saved_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    settings = Settings()
    settings.backend.guided = True
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded.problems == [] and loaded.settings.backend.guided is True
    path.write_text("backend:\n  guided: sometimes\n", encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.settings.backend.guided is False
    assert any("backend.guided" in problem for problem in loaded.problems)


def test_the_settings_dialog_shows_and_saves_it(qtbot: QtBot) -> None:
    settings = Settings()
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert not dialog.guided_check.isChecked()
    dialog.guided_check.setChecked(True)
    assert dialog.result_settings().backend.guided is True
    assert settings.backend.guided is False
