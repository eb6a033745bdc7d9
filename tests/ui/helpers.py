"""Helpers for UI tests: running coroutines, finding and answering dialogs, writing skills."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from studio.ui.mainwindow import MainWindow

T = TypeVar("T")
WindowFactory = Callable[..., MainWindow]


def run(qtbot: QtBot, coroutine: Coroutine[Any, Any, T], timeout: int = 5000) -> T:
    """Run a coroutine on the test's qasync loop until it is done."""
    task = asyncio.ensure_future(coroutine)
    qtbot.waitUntil(task.done, timeout=timeout)
    return task.result()


def start(coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    return asyncio.ensure_future(coroutine)


def open_dialog(qtbot: QtBot, kind: type[QWidget] = QDialog, timeout: int = 3000) -> Any:
    """Wait for a visible dialog of `kind` and return it."""
    found: list[QWidget] = []

    def visible() -> bool:
        found[:] = [w for w in QApplication.topLevelWidgets()
                    if isinstance(w, kind) and w.isVisible()]
        return bool(found)

    qtbot.waitUntil(visible, timeout=timeout)
    return found[-1]


def click(box: QMessageBox, button: QMessageBox.StandardButton) -> None:
    found = box.button(button)
    assert found is not None, f"the message box has no {button} button"
    found.click()


def write_skill(parent: Path, name: str, *, description: str = "", body: str = "",
                files: dict[str, str] | None = None) -> Path:
    directory = parent / name
    directory.mkdir(parents=True)
    description = description or f"Handles {name} tasks. Use when the user asks about {name}."
    body = body or f"# {name}\n\nSteps.\n"
    text = f"---\nname: {name}\ndescription: {description}\n---\n{body}"
    (directory / "SKILL.md").write_text(text, encoding="utf-8")
    for relative, content in (files or {}).items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    return directory
