"""Settings in the window: roots, open tabs and geometry restored; the settings dialog; startup."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from studio.settings import SettingsStore, load_settings
from studio.ui import app as studio_app
from studio.ui.settings.settings_dialog import SettingsDialog
from tests.ui.helpers import WindowFactory, open_dialog, start


def test_open_tabs_and_geometry_are_restored(qtbot: QtBot, make_window: WindowFactory,
                                             skills_root: Path, tmp_path: Path) -> None:
    settings = tmp_path / "session.yaml"
    first = make_window(skills_root, settings=settings)
    first.editors.open_skill(skills_root / "web-search")
    first.editors.open_skill(skills_root / "pdf-tools")
    # Above the window's minimum with two skill tabs open (728 px) and within the offscreen
    # screen (800 px), so the size comes back as it was.
    first.resize(760, 500)
    first.close()
    qtbot.waitUntil(lambda: not first.isVisible())
    saved = load_settings(settings).settings
    assert saved.open_tabs == [str(skills_root / "web-search"), str(skills_root / "pdf-tools")]
    assert saved.window.geometry and saved.window.state

    second = make_window(skills_root, settings=settings)
    second.editors.reopen([Path(text) for text in second.settings.open_tabs])
    assert second.tabs.count() == 2
    assert [second.tabs.tabText(i) for i in range(2)] == ["web-search", "pdf-tools"]
    assert (second.width(), second.height()) == (760, 500)


def test_the_settings_dialog_saves_and_applies(qtbot: QtBot, make_window: WindowFactory,
                                               skills_root: Path, tmp_path: Path) -> None:
    settings = tmp_path / "dialog.yaml"
    window = make_window(settings=settings)
    task = start(window.open_settings())
    dialog = open_dialog(qtbot, SettingsDialog)
    dialog.add_root(skills_root)
    dialog.editor("editor_font.size").setValue(15)
    dialog.editor("backend.kind").setCurrentIndex(1)
    assert dialog.editor("backend.url").text() == "http://127.0.0.1:8080/v1"
    dialog.editor("backend.model").setText("qwen3")
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert task.result() is True
    qtbot.waitUntil(lambda: window.library_model.skill_count == 3, timeout=10000)
    saved = load_settings(settings).settings
    assert saved.roots == [str(skills_root)]
    assert saved.editor_font.size == 15
    assert (saved.backend.kind, saved.backend.model) == ("openai", "qwen3")
    assert window.editors.code_font.pointSize() == 15


def test_a_broken_settings_file_is_kept_until_saved(qtbot: QtBot, make_window: WindowFactory,
                                                    skills_root: Path, tmp_path: Path) -> None:
    settings = tmp_path / "broken.yaml"
    settings.write_text("roots: [unclosed\n", encoding="utf-8")
    window = make_window(skills_root, settings=settings)
    assert "not valid YAML" in window.statusBar().currentMessage()
    window.roots.add_root(tmp_path)
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible())
    assert settings.read_text(encoding="utf-8") == "roots: [unclosed\n"

    store = SettingsStore(settings)
    assert store.broken


def test_main_shows_the_window_and_returns_when_it_closes(qtbot: QtBot, qapp: QApplication,
                                                          skills_root: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import qasync

    async def close_soon() -> None:
        window = None
        while window is None:
            await asyncio.sleep(0.05)
            window = next((w for w in qapp.topLevelWidgets()
                           if w.objectName() == "mainWindow" and w.isVisible()), None)
        while window.editors.current_tab() is None:
            await asyncio.sleep(0.05)
        window.close()

    async def scenario() -> int:
        closer = asyncio.ensure_future(close_soon())
        code = await studio_app.main(qapp, [str(skills_root / "pdf-tools" / "SKILL.md")],
                                     tmp_path / "main.yaml")
        await closer
        return code

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
        assert runner.run(scenario()) == 0
    assert load_settings(tmp_path / "main.yaml").settings.open_tabs == [
        str(skills_root / "pdf-tools")]


def test_split_paths_opens_skills_and_adds_roots(skills_root: Path, zip_root: Path) -> None:
    roots, to_open = studio_app.split_paths(
        [str(skills_root), str(zip_root), str(skills_root / "web-search" / "SKILL.md")])
    assert roots == [skills_root, zip_root, skills_root / "web-search"]
    assert to_open == [skills_root / "web-search"]


def test_studio_skills_folders_that_exist_are_added_as_roots(
        skills_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "more-skills"
    other.mkdir()
    listed = [str(other), str(tmp_path / "missing"), str(skills_root), ""]
    monkeypatch.setenv("STUDIO_SKILLS", os.pathsep.join(listed))
    roots, to_open = studio_app.startup_roots([str(skills_root)])
    assert roots == [skills_root, other] and to_open == []


def test_the_excepthook_logs_and_tells(qtbot: QtBot, caplog: pytest.LogCaptureFixture,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    studio_app.install_excepthook()
    try:
        raise ValueError("a bug in a slot")
    except ValueError as error:
        sys.excepthook(ValueError, error, error.__traceback__)
    box = open_dialog(qtbot, QMessageBox)
    assert box.text() == "ValueError: a bug in a slot"
    assert "a bug in a slot" in caplog.text
    box.close()


def test_without_a_display_the_window_says_so(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for variable in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert studio_app.run_app([]) == 1
    assert "there is no display" in capsys.readouterr().err
