"""A guided answer no script's output backs is marked as not verified in the chat (issue 38)."""

from __future__ import annotations

from pathlib import Path

import yaml
from pytestqt.qtbot import QtBot

from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn


def test_an_answer_from_no_tool_output_is_marked_not_verified(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    (tmp_path / "chat-settings.yaml").write_text(yaml.safe_dump({"backend": {
        "kind": "ollama", "url": fake_ollama.url, "model": TOOL_MODEL, "guided": "on"}}), encoding="utf-8")
    fake_ollama.script(reply('{"answer": "The file has 120 rows and 10 columns."}'))
    pane = chat_window().chat.pane
    run_turn(qtbot, pane, "How many rows does data.csv have?")
    answer = pane.transcript.answers()[-1]
    assert answer.text == "The file has 120 rows and 10 columns."
    assert answer.unverified.isVisibleTo(pane)
    assert answer.unverified.text() == ("Not verified: no script ran for it, so it comes from the "
                                        "model alone. Check it before relying on it.")


def test_an_unguided_answer_carries_no_mark(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Hello there."))
    pane = chat_window().chat.pane
    run_turn(qtbot, pane, "Say hello")
    assert not pane.transcript.answers()[-1].unverified.isVisibleTo(pane)
