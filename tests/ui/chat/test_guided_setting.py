"""Guided replies are a setting of both front ends: `studio chat` and `studio eval` take
`--guided auto|on|off` (auto by default; `--guided` alone is on) and `--no-guided`, and the
Settings dialog a three-way choice, kept in settings.yaml (where older files hold true or false)
and handed to the core session."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.cli import build_parser
from studio.commands.chat import session_settings
from studio.settings import BackendSettings, Settings, load_settings, save_settings
from studio.ui.chat.backend import turn_settings
from studio.ui.settings.settings_dialog import SettingsDialog


@pytest.mark.parametrize(("flags", "mode"), [
    ([], "auto"), (["--guided"], "on"), (["--guided", "on"], "on"), (["--guided", "off"], "off"),
    (["--guided", "auto"], "auto"), (["--no-guided"], "off"),
])
def test_the_command_line_guides_small_models_unless_told(flags: list[str], mode: str) -> None:
    args = build_parser().parse_args(["chat", "go", "--model", "m", *flags])
    assert session_settings(args, None).guided == mode
    assert build_parser().parse_args(["eval", "skills", *flags]).guided == mode


@pytest.mark.parametrize("flags", [["--guided", "maybe"], ["--guided", "on", "--no-guided"]])
def test_a_wrong_guided_flag_is_refused(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["chat", "go", *flags])
    assert "--guided" in capsys.readouterr().err


def test_the_studio_hands_the_setting_to_each_turn() -> None:
    assert turn_settings(BackendSettings(), "m", False).guided == "auto"
    assert turn_settings(BackendSettings(guided="off"), "m", False).guided == "off"


@pytest.mark.parametrize(("written", "mode", "problem"), [
    ("", "auto", False),
    ("backend:\n  guided: true\n", "on", False),  # a file of an older version
    ("backend:\n  guided: false\n", "off", False),
    ("backend:\n  guided: on\n", "on", False),  # YAML reads a bare on as true
    ("backend:\n  guided: 'off'\n", "off", False),
    ("backend:\n  guided: auto\n", "auto", False),
    ("backend:\n  guided: sometimes\n", "auto", True),
    ("backend:\n  guided: 3\n", "auto", True),
])
def test_the_setting_is_read_from_new_and_old_files(tmp_path: Path, written: str, mode: str,
                                                    problem: bool) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text(written, encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.settings.backend.guided == mode
    assert any("backend.guided" in p for p in loaded.problems) is problem


@pytest.mark.parametrize("mode", ["auto", "on", "off"])
def test_the_setting_is_saved_and_read_back(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "settings.yaml"
    settings = Settings()
    settings.backend.guided = mode  # type: ignore[assignment]
    save_settings(settings, path)
    loaded = load_settings(path)
    assert loaded.problems == [] and loaded.settings.backend.guided == mode


def test_the_settings_dialog_shows_and_saves_it(qtbot: QtBot) -> None:
    settings = Settings()
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    combo = dialog.editor("backend.guided")
    assert combo.currentData() == "auto" and combo.count() == 3
    combo.setCurrentIndex(combo.findData("off"))
    assert dialog.result_settings().backend.guided == "off"
    assert settings.backend.guided == "auto"
    settings.backend.guided = "on"
    again = SettingsDialog(settings)
    qtbot.addWidget(again)
    assert again.editor("backend.guided").currentText() == "Always"
