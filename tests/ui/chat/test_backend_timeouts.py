"""The chat's backend makes its clients with the timeouts from Settings, and with the ones given
at the start of a turn when Settings changed them since."""

from __future__ import annotations

import httpx
import pytest
from pytestqt.qtbot import QtBot

from studio.llm.errors import Timeout
from studio.llm.types import Message
from studio.ui.chat.backend import Backend
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import hang
from tests.fakes.streams import collect
from tests.ui.helpers import start


@pytest.mark.parametrize(
    ("configured", "at_turn", "expected"),
    [((5, 0.3), None, "0.3 s"), ((5, 600), (5, 0.4), "0.4 s")],
    ids=["from-configure", "from-the-turn"],
)
def test_a_stalled_answer_ends_after_the_idle_timeout_from_settings(
    qtbot: QtBot, fake_ollama: FakeOllama, configured: tuple[float, float],
    at_turn: tuple[float, float] | None, expected: str,
) -> None:
    fake_ollama.script(hang())
    backend = Backend()
    backend.configure("ollama", fake_ollama.url, configured)

    async def turn() -> Timeout:
        async with httpx.AsyncClient() as http:
            backend.attach(http)
            client, model = await backend.open_client(TOOL_MODEL, at_turn)
            with pytest.raises(Timeout) as info:
                await collect(client.chat(model, [Message("user", "hi")]))
        return info.value

    task = start(turn())
    qtbot.waitUntil(task.done, timeout=30000)
    assert f"sent no answer for {expected}" in task.result().user_message
