"""The window's chat offers the model `search_skills`, as `studio chat` does, through the core
session: on the window's search index, ranked by words and meaning with the model the library's
search uses."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.skills.search import INDEX_FILE, SearchIndex
from tests.fakes.embeddings import FakeEmbedder
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn


def test_the_model_searches_the_library_and_the_answer_reaches_the_transcript(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    fake_ollama.script(calls(Call("search_skills", {"query": "a greeting"})),
                       reply("The demo skill greets."))
    window = chat_window(cache_path=tmp_path / "cache" / "scan.sqlite3")
    model = FakeEmbedder()
    window.search.embedder_source = lambda: model
    pane = window.chat.pane
    run_turn(qtbot, pane, "is there a skill that says hello?")

    offered = {tool["function"]["name"] for tool in fake_ollama.chats[0]["tools"]}
    assert "search_skills" in offered
    [card] = pane.transcript.cards()
    assert card.record.status == "ok"
    assert card.record.result.startswith("- demo: Says hello. Use when the user wants a greeting.")
    assert card.record.result.endswith("(Ranked by words + meaning)")
    assert model.embedded > 0
    [sent] = [m["content"] for m in fake_ollama.chats[1]["messages"] if m["role"] == "tool"]
    assert sent == card.record.result
    assert pane.transcript.answers()[-1].text == "The demo skill greets."
    # The window's index file, where the library's search finds the vectors the chat made.
    with SearchIndex(tmp_path / "cache" / INDEX_FILE) as index:
        index.update(window.library.summaries())
        assert index.missing(model) == 0


def test_without_an_index_folder_the_tool_is_not_offered(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Hello."))
    run_turn(qtbot, chat_window().chat.pane, "hello")
    offered = {tool["function"]["name"] for tool in fake_ollama.chats[0]["tools"]}
    assert "search_skills" not in offered and "activate_skill" in offered
