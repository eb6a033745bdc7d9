"""What the chat pane asks the server about its model: once per chat, not once per turn."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn


def _shows(server: FakeOllama) -> int:
    """The /api/show requests about the chat's model (its capabilities, its context length)."""
    return sum(1 for request in server.requests_to("/api/show")
               if (request.json or {}).get("model") == TOOL_MODEL)


def test_one_chat_asks_about_its_model_once_until_its_settings_change(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("one"), reply("two"), reply("three"), reply("four"))
    pane = chat_window().chat.pane
    before = _shows(fake_ollama)
    run_turn(qtbot, pane, "first")
    asked = _shows(fake_ollama)
    assert asked > before
    run_turn(qtbot, pane, "second")
    assert _shows(fake_ollama) == asked
    # The session kept is handed the chat as saved: the whole conversation goes with the turn.
    sent = [(m["role"], m["content"]) for m in fake_ollama.chats[1]["messages"][1:]]
    assert sent == [("user", "first"), ("assistant", "one"), ("user", "second")]

    # Regenerating drops the last answer from what the kept session sends.
    task = pane.regenerate()
    assert task is not None
    qtbot.waitUntil(task.done)
    sent = [(m["role"], m["content"]) for m in fake_ollama.chats[2]["messages"][1:]]
    assert sent == [("user", "first"), ("assistant", "one"), ("user", "second")]
    assert _shows(fake_ollama) == asked

    # Changed settings make a new session, which asks again.
    pane.model_bar.think_check.setChecked(True)
    run_turn(qtbot, pane, "third")
    assert _shows(fake_ollama) > asked
    assert fake_ollama.chats[3]["think"] is True
