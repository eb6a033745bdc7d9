"""The chat pane against the scripted Ollama server: streaming, models, saving, reopening."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
import yaml
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QInputDialog
from pytestqt.qtbot import QtBot

from studio.chats import ChatStore
from studio.ui.chat import pane as pane_module
from tests.fakes.fixtures import PLAIN_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, Hang, Text, Turn, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import WindowFactory, open_dialog, start


def test_a_streamed_answer_shows_before_it_ends_and_stop_keeps_it(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Turn([Text("Hello "), Text("**world**"), Hang()]))
    pane = chat_window().chat.pane
    task = pane.send("greet me")
    assert task is not None
    qtbot.waitUntil(lambda: bool(pane.transcript.answers())
                    and pane.transcript.answers()[-1].body.plain_text().strip() == "Hello world")
    answer = pane.transcript.answers()[-1]
    assert "font-weight:700" in answer.body.html().replace(" ", "")
    assert pane.session.busy and pane.stop_button.isVisibleTo(pane)
    pane.stop()
    qtbot.waitUntil(task.done)
    assert fake_ollama.wait_disconnected(5)
    roles = [(m.role, m.content) for m in pane.session.messages]
    assert roles == [("user", "greet me"), ("assistant", "Hello **world**"), ("notice", "Stopped.")]
    # The session says it is idle from the task's done callback, a loop turn after the task ends.
    qtbot.waitUntil(lambda: pane.send_button.isVisibleTo(pane))


def test_a_finished_answer_is_saved_and_listed(qtbot: QtBot, chat_window: ChatWindowFactory,
                                               fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Hel", "lo ", "`there`"))
    pane = chat_window().chat.pane
    run_turn(qtbot, pane, "Say hello\nplease")
    assert pane.transcript.answers()[-1].text == "Hello `there`"
    chats = ChatStore().chats()
    assert [(c.title, c.backend, c.model) for c in chats] == [("Say hello", "ollama", TOOL_MODEL)]
    assert pane.chat_actions.chat_combo.currentText().startswith("Say hello")
    sent = fake_ollama.chats[0]
    assert sent["model"] == TOOL_MODEL
    assert "<available_skills>" in sent["messages"][0]["content"]
    assert "<name>demo</name>" in sent["messages"][0]["content"]


def test_a_chat_survives_closing_and_reopening_the_app(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})), reply("Loaded it."))
    first = chat_window()
    run_turn(qtbot, first.chat.pane, "load the demo skill")
    first.close_without_asking()
    qtbot.waitUntil(lambda: not first.isVisible())

    second = chat_window()
    pane = second.chat.pane
    assert pane.chat_actions.chat_list.rowCount() == 2
    pane.chat_actions.chat_combo.setCurrentIndex(1)
    pane.chat_actions.chat_combo.activated.emit(1)
    items = pane.transcript.items
    assert [type(item).__name__ for item in items] == ["UserItem", "ToolCard", "AssistantItem"]
    assert pane.transcript.cards()[0].record.status == "ok"
    assert pane.transcript.answers()[0].text == "Loaded it."

    fake_ollama.script(reply("Still here."))
    run_turn(qtbot, pane, "are you there?")
    sent = fake_ollama.chats[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert sent[3]["content"].startswith('<skill_content name="demo"')
    assert len(ChatStore().chats()) == 1


def test_the_model_picker_marks_models_without_tools(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    pane = chat_window().chat.pane
    labels = [pane.model_bar.model_combo.itemText(i) for i in range(pane.model_bar.model_combo.count())]
    assert labels == [f"{PLAIN_MODEL} — no tools", TOOL_MODEL]
    assert pane.model_bar.model_combo.currentText() == TOOL_MODEL
    assert pane.model_bar.think_check.isEnabled()
    pane.model_bar.model_combo.setCurrentIndex(0)
    assert not pane.model_bar.think_check.isEnabled()
    assert pane.settings_store.settings.backend.model == PLAIN_MODEL
    assert pane.model_bar.status_light.toolTip().endswith("is answering.")
    pane.model_bar.model_combo.setCurrentIndex(1)
    pane.model_bar.think_check.setChecked(True)
    assert pane.settings_store.settings.backend.think
    fake_ollama.script(reply("thought about it", thinking=("let me see",)))
    run_turn(qtbot, pane, "think first")
    assert fake_ollama.chats[0]["think"] is True
    answer = pane.transcript.answers()[-1]
    assert answer.thinking == "let me see" and not answer.thinking_view.isVisible()
    assert answer.thinking_button.text() == "Thought (3 words)"
    answer.thinking_button.click()
    assert answer.thinking_view.isVisible()


def test_the_embedded_backend_offers_its_model_file(
        qtbot: QtBot, chat_http: object, make_window: WindowFactory, tmp_path: Path) -> None:
    settings = tmp_path / "embedded.yaml"
    model = tmp_path / "models" / "tiny.gguf"
    settings.write_text(yaml.safe_dump({"backend": {"kind": "embedded", "gguf_path": str(model)}}))
    window = make_window(settings=settings)
    pane = window.chat.pane
    pane.model_bar.attach(chat_http)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: pane.model_bar.backend.state != "unknown")
    assert pane.model_bar.backend_combo.currentText() == "Embedded"
    assert pane.model_bar.model_combo.currentText() == "tiny.gguf"
    assert pane.model_bar.backend.state == "idle"
    assert pane.model_bar.backend.message == "The embedded engine starts when you send a message."
    task = pane.send("hello?")
    assert task is not None
    qtbot.waitUntil(task.done, timeout=10000)
    [error] = [m for m in pane.session.messages if m.role == "error"]
    assert str(model) in error.content and "does not exist" in error.content


def test_a_server_that_is_not_there_is_explained(
        qtbot: QtBot, chat_http: object, make_window: WindowFactory, tmp_path: Path) -> None:
    settings = tmp_path / "down.yaml"
    url = "http://127.0.0.1:9"
    settings.write_text(yaml.safe_dump({"backend": {"kind": "ollama", "url": url}}))
    window = make_window(settings=settings)
    pane = window.chat.pane
    pane.model_bar.attach(chat_http)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "down", timeout=5000)
    message = pane.model_bar.server_message.text()
    assert url in message and "ollama serve" in message
    assert pane.model_bar.server_message.isVisibleTo(pane)
    task = pane.send("hello?")
    assert task is not None
    qtbot.waitUntil(task.done)
    assert pane.session.messages[-1].role == "error"


def test_regenerate_copy_and_export(qtbot: QtBot, chat_window: ChatWindowFactory,
                                    fake_ollama: FakeOllama, tmp_path: Path) -> None:
    fake_ollama.script(reply("First answer."), reply("Second *answer*."))
    pane = chat_window().chat.pane
    run_turn(qtbot, pane, "answer me")
    task = pane.regenerate()
    assert task is not None
    qtbot.waitUntil(task.done)
    assert [a.text for a in pane.transcript.answers()] == ["Second *answer*."]
    assert [m.role for m in ChatStore().messages(pane.session.chat.id)] == ["user", "assistant"]  # type: ignore[union-attr]
    assert len(fake_ollama.chats[1]["messages"]) == 2
    pane.chat_actions.copy_last_answer()
    assert QGuiApplication.clipboard().text() == "Second *answer*."
    target = pane.chat_actions.export_to(tmp_path / "chat.md")
    assert target is not None
    text = target.read_text(encoding="utf-8")
    assert "## You\n\nanswer me" in text and "Second *answer*." in text
    assert "First answer." not in text


def test_new_chat_and_delete(qtbot: QtBot, chat_window: ChatWindowFactory,
                             fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("one"), reply("two"))
    pane = chat_window().chat.pane
    run_turn(qtbot, pane, "first chat")
    pane.chat_actions.new_chat()
    assert pane.transcript.items == [] and pane.chat_actions.chat_combo.currentIndex() == 0
    run_turn(qtbot, pane, "second chat")
    assert [c.title for c in pane.chat_actions.chat_list.chats()] == ["second chat", "first chat"]
    pane.chat_actions.delete_chat()
    assert [c.title for c in ChatStore().chats()] == ["first chat"]
    assert pane.session.chat is None


def test_a_chat_can_be_renamed(qtbot: QtBot, chat_window: ChatWindowFactory,
                              fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("one"))
    pane = chat_window().chat.pane
    assert not pane.chat_actions.rename_action.isEnabled()
    run_turn(qtbot, pane, "first chat")
    assert pane.chat_actions.rename_action.isEnabled()

    task = start(pane.chat_actions.rename_chat())
    dialog = open_dialog(qtbot, QInputDialog)
    assert dialog.textValue() == "first chat"
    dialog.setTextValue("  Orders   profile ")
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert task.result() is True
    assert [c.title for c in ChatStore().chats()] == ["Orders profile"]
    assert pane.chat_actions.chat_combo.currentText().startswith("Orders profile")

    task = start(pane.chat_actions.rename_chat())
    open_dialog(qtbot, QInputDialog).reject()
    qtbot.waitUntil(task.done)
    assert task.result() is False
    task = start(pane.chat_actions.rename_chat())
    dialog = open_dialog(qtbot, QInputDialog)
    dialog.setTextValue("   ")
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert task.result() is False
    assert [c.title for c in ChatStore().chats()] == ["Orders profile"]


def test_a_new_chat_while_answering_stops_the_answer_first(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Turn([Text("partial"), Hang()]))
    pane = chat_window().chat.pane
    task = pane.send("go on")
    assert task is not None
    qtbot.waitUntil(lambda: bool(pane.transcript.answers()))
    pane.chat_actions.new_chat()
    qtbot.waitUntil(lambda: task.done() and pane.session.chat is None)
    assert pane.transcript.items == []
    [chat] = ChatStore().chats()
    assert [m.role for m in ChatStore().messages(chat.id)] == ["user", "assistant", "notice"]


def test_the_window_keeps_running_while_an_answer_streams(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    pieces = [f"word{n} " for n in range(40)]
    fake_ollama.script(reply(*pieces, pause=0.01))
    pane = chat_window().chat.pane
    seen: list[str] = []

    async def look() -> None:
        while True:
            answers = pane.transcript.answers()
            seen.append(answers[-1].text if answers else "")
            await asyncio.sleep(0)

    # Another coroutine that saw the answer half written ran between its pieces: the stream did not
    # hold the loop from the first piece to the last.
    looker = asyncio.ensure_future(look())
    run_turn(qtbot, pane, "stream")
    looker.cancel()
    whole = "".join(pieces)
    assert pane.transcript.answers()[-1].text == whole
    assert any(text and text != whole for text in seen)


def test_the_lexers_warm_up_once_the_user_starts_a_chat_not_at_the_start(
        qtbot: QtBot, chat_window: ChatWindowFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Their thread holds the interpreter lock for most of a second: at the start it stalled
    the loading of a large library."""
    warmed = threading.Event()
    calls_made: list[str] = []

    def warm_up() -> None:
        calls_made.append(threading.current_thread().name)
        warmed.set()

    monkeypatch.setattr(pane_module, "warm_up", warm_up)
    pane = chat_window().chat.pane
    assert calls_made == []
    pane.input.setPlainText("h")
    pane.input.setPlainText("he")
    qtbot.waitUntil(warmed.is_set)
    assert calls_made == ["lexer-warm-up"]
