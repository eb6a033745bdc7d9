"""The studio's turns reach the model with the timeouts from Settings as they are when the turn
starts, through the backend's model server."""

from __future__ import annotations

import httpx
import pytest
from pytestqt.qtbot import QtBot

from studio.agent.approval import NobodyApprover
from studio.agent.events import Done, Error, Event
from studio.agent.session import SessionFactory
from studio.settings import BackendSettings
from studio.ui.chat.backend import Backend, turn_settings
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import hang
from tests.ui.helpers import start


@pytest.mark.parametrize("idle", [0.3, 0.4])
def test_a_stalled_answer_ends_after_the_idle_timeout_from_settings(
    qtbot: QtBot, fake_ollama: FakeOllama, idle: float
) -> None:
    fake_ollama.script(hang())
    backend = Backend()
    backend.configure("ollama", fake_ollama.url, (5, 600))
    settings = BackendSettings(kind="ollama", url=fake_ollama.url, model=TOOL_MODEL,
                               connect_timeout=5, idle_timeout=idle)  # type: ignore[arg-type]

    async def turn() -> list[Event]:
        async with httpx.AsyncClient() as http:
            backend.attach(http)
            sessions = SessionFactory(NobodyApprover(), server=backend.server)
            session = sessions.session(turn_settings(settings, TOOL_MODEL, False), [])
            return [event async for event in session.turn("hi")]

    task = start(turn())
    qtbot.waitUntil(task.done, timeout=30000)
    events = task.result()
    assert isinstance(events[-1], Done) and events[-1].reason == "error"
    [error] = [e for e in events if isinstance(e, Error)]
    assert f"sent no answer for {idle} s" in error.message

