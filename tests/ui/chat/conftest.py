"""Chat tests: the window's chat pane against the scripted Ollama server, on the qasync loop of
tests/ui/conftest.py, with one demo skill whose scripts print, sleep and report their process
group."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.ui.chat.asyncgens import AsyncGenHooks
from studio.ui.mainwindow import MainWindow
from tests.fakes.fixtures import TOOL_MODEL, fake_ollama
from tests.fakes.ollama import FakeOllama
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import WindowFactory, write_skill

__all__ = ["fake_ollama"]

SLEEPER = """#!/bin/sh
# Report the process group, then sleep in a child so that a kill must reach the whole group.
echo $$ > "$(dirname "$0")/../pgid.txt"
sleep 60 &
sleep 60
"""


@pytest.fixture(autouse=True)
def asyncgen_hooks(qloop: asyncio.AbstractEventLoop, qtbot: QtBot) -> Iterator[None]:
    """The app's async-generator hooks (see studio.ui.chat.asyncgens), so that HTTP streams
    dropped during a test are closed on the test's loop as they are in the app."""
    before = sys.get_asyncgen_hooks()
    hooks = AsyncGenHooks(qloop)
    hooks.install()
    yield
    gc.collect()
    closing = asyncio.ensure_future(hooks.shutdown())
    try:
        qtbot.waitUntil(closing.done, timeout=5000)
    finally:
        # Restored even when a stream never closes: the next tests' generators must not get
        # hooks on this test's loop.
        sys.set_asyncgen_hooks(*before)


@pytest.fixture
def parent(qtbot: QtBot) -> QWidget:
    """A shown window for a dialog to open over."""
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    return widget


@pytest.fixture
def chat_http(qloop: asyncio.AbstractEventLoop, qtbot: QtBot) -> Iterator[httpx.AsyncClient]:
    """The one HTTP client of the app, made and closed on the test's qasync loop."""
    client = httpx.AsyncClient()
    yield client
    closing = asyncio.ensure_future(client.aclose())
    qtbot.waitUntil(closing.done, timeout=5000)


@pytest.fixture
def chat_skills(tmp_path: Path) -> Path:
    root = tmp_path / "chat-skills"
    demo = write_skill(root, "demo", description="Says hello. Use when the user wants a greeting.",
                       body="# Demo\n\nRun `python3 scripts/hello.py`.\n",
                       files={"scripts/hello.py": "print('hello from the skill')\n",
                              "scripts/other.py": "print('other script')\n",
                              "tools/third.py": "print('third')\n",
                              "scripts/sleeper.sh": SLEEPER,
                              "references/notes.md": "# Notes\n"})
    os.chmod(demo / "scripts" / "sleeper.sh", 0o755)
    return root


@pytest.fixture
def chat_window(chat_http: httpx.AsyncClient, make_window: WindowFactory, fake_ollama: FakeOllama,
                chat_skills: Path, tmp_path: Path, qtbot: QtBot) -> ChatWindowFactory:
    """Windows whose chat talks to the scripted Ollama server with its tool model picked. Every
    window of one test shares the settings file (and, through the scratch home, the chats). A
    window given a `cache_path` keeps its scan cache and search index there, as the app does."""
    settings = tmp_path / "chat-settings.yaml"
    if not settings.exists():
        settings.write_text(yaml.safe_dump({"backend": {"kind": "ollama", "url": fake_ollama.url,
                                                        "model": TOOL_MODEL}}), encoding="utf-8")

    def make(cache_path: Path | None = None) -> MainWindow:
        window = make_window(chat_skills, settings=settings, cache_path=cache_path)
        window.chat.dock.show()
        pane = window.chat.pane
        pane.model_bar.attach(chat_http)
        qtbot.waitUntil(lambda: pane.model_bar.backend.state == "ready", timeout=5000)
        return window

    return make
