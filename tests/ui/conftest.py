"""UI test fixtures: a qasync loop over pytest-qt's QApplication, skill folders, and windows.

The window's coroutines (closing a dirty tab, renaming, ...) run on a qasync loop that is marked
as running inside the test, so Qt events and asyncio tasks advance together whenever pytest-qt
processes events (`qtbot.waitUntil`). Dialogs are opened with `open()`, so a test can find them
and click their buttons.
"""

from __future__ import annotations

import asyncio
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
import shiboken6
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.editing.recovery import RecoveryStore
from studio.llm import minilm
from studio.settings import SettingsStore
from studio.ui.mainwindow import MainWindow
from studio.ui.qtcheck import problem
from studio.ui.theme import apply_style
from tests.ui.helpers import WindowFactory, write_skill


@pytest.fixture(scope="session", autouse=True)
def sound_qt_binding(qapp: QApplication) -> None:
    """Every UI test would crash the interpreter on a PySide6 that corrupts refcounts."""
    broken = problem()
    if broken is not None:
        pytest.fail(broken, pytrace=False)
    apply_style(qapp)


@pytest.fixture(autouse=True)
def no_local_embedding_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's search ranks by meaning with all-MiniLM-L6-v2 when it is installed: its tests
    rank by words, or by the fake embeddings a test gives the window, never by real weights."""
    monkeypatch.setattr(minilm, "available", lambda: False)


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    loop = qasync.QEventLoop(qapp, already_running=True)
    try:
        yield loop
    finally:
        for task in asyncio.all_tasks(loop):
            task.cancel()
        qapp.processEvents()
        qapp.aboutToQuit.disconnect(loop._after_run_forever)
        loop._after_run_forever()
        asyncio.events._set_running_loop(None)


@pytest.fixture
def skills_root(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    root.mkdir()
    write_skill(root, "pdf-tools", files={"references/api.md": "# API\n",
                                          "scripts/extract.py": "#!/usr/bin/env python3\n"})
    write_skill(root, "web-search")
    write_skill(root, "csv-profiler", description="Profiles CSV files and their columns.")
    (root / "pdf-tools" / "scripts" / "extract.py").chmod(0o755)
    return root


@pytest.fixture
def zip_root(tmp_path: Path) -> Path:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("zipped-skill/SKILL.md", "---\nname: zipped-skill\ndescription: From a "
                        "zip. Use when testing archives.\n---\n# Zipped\n")
        bundle.writestr("zipped-skill/references/notes.md", "# Notes\n")
    return archive


@pytest.fixture
def make_window(qtbot: QtBot, qloop: asyncio.AbstractEventLoop,
                tmp_path: Path) -> Iterator[WindowFactory]:
    """Build main windows on scratch settings and recovery folders, and close them afterwards."""
    windows: list[MainWindow] = []

    def make(*roots: Path, settings: Path | None = None, wait: bool = True,
             cache_path: Path | None = None) -> MainWindow:
        store = SettingsStore(settings or tmp_path / "config" / "settings.yaml")
        window = MainWindow(store, recovery=RecoveryStore(tmp_path / "recovery"),
                            cache_path=cache_path, session_roots=list(roots))
        qtbot.addWidget(window)
        windows.append(window)
        window.show()
        window.start()
        if wait:
            qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
        return window

    yield make
    for window in windows:
        # pytest-qt closes the widgets a test registered before fixtures end: a window whose
        # close went through (a turn that had ended, nothing unsaved) is gone by now.
        if shiboken6.isValid(window):
            window.close_without_asking()
