"""The folded card of a fork inside the card of the call that started it: its header, its own
text and tool cards, approvals asked from inside it, Stop, forks of forks and the depth limit,
and the card coming back when the chat is opened again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.chats import ChatStore, ForkNote, ForkRecord, ToolRecord
from studio.ui.chat.approval_dialog import ApprovalDialog
from studio.ui.chat.cards import ToolCard
from studio.ui.chat.forkcard import ForkCard
from tests.agent.processes import processes_in
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import open_dialog


def forker(root: Path, name: str = "forker") -> None:
    (root / name).mkdir()
    (root / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Forks. Use when asked to fork.\ncontext: fork\n---\n"
        "Say what you found.\n", encoding="utf-8")


def activate(name: str = "forker", call_id: str = "f1") -> Call:
    return Call("activate_skill", {"name": name, "task": "look"}, id=call_id)


def fork_card(card: ToolCard) -> ForkCard:
    assert card.fork_card is not None, "the card holds no fork"
    return card.fork_card


def unfolded(qtbot: QtBot, fork: ForkCard) -> ForkCard:
    fork.set_folded(False)
    qtbot.waitUntil(lambda: len(fork.items) == len(fork.record.items))
    return fork


def nested_cards(fork: ForkCard) -> list[ToolCard]:
    return [item for item in fork.items if isinstance(item, ToolCard)]


def texts(fork: ForkCard) -> list[str]:
    return [item.toPlainText().strip() for item in fork.items if not isinstance(item, ToolCard)]


def test_a_fork_shows_as_a_folded_card_inside_the_parents_card(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    forker(chat_skills)
    fake_ollama.script(calls(activate()),
                       calls(Call("read_skill_file", {"skill": "demo", "path": "references/notes.md"})),
                       reply("FORK-ANSWER"), reply("Done."))
    window = chat_window()
    pane = window.chat.pane
    run_turn(qtbot, pane, "fork please")
    [card] = pane.transcript.cards()
    fork = fork_card(card)
    assert fork.parent() is card and fork.folded and not fork.body.isVisibleTo(card)
    assert fork.header.text() == f"Fork · forker · {TOOL_MODEL} · 1 tool run"
    assert fork.state.text() == "answered"
    assert card.record.status == "ok" and card.record.result == "FORK-ANSWER"
    # Folded, the card shows what went back to the model: the fork's answer.
    assert card.output.toPlainText() == "FORK-ANSWER" and card.output.isVisibleTo(card)
    assert pane.transcript.answers()[-1].text == "Done."

    qtbot.mouseClick(fork.header, Qt.MouseButton.LeftButton)
    unfolded(qtbot, fork)
    assert fork.body.isVisibleTo(card)
    # Unfolded, the fork's own text ends with the answer: the card does not repeat it.
    assert not card.output.isVisibleTo(card)
    [read] = nested_cards(fork)
    assert read.record.tool == "read_skill_file" and read.record.status == "ok"
    assert read.title.text() == "<b>Read file</b> · demo" and "# Notes" in read.output.toPlainText()
    assert texts(fork) == ["FORK-ANSWER"]

    # The chat opened again shows the same fork, folded.
    pane.session.open(pane.session.chat)
    [again] = pane.transcript.cards()
    reopened = unfolded(qtbot, fork_card(again))
    assert reopened.header.text() == fork.header.text() and texts(reopened) == ["FORK-ANSWER"]
    assert [c.record.tool for c in nested_cards(reopened)] == ["read_skill_file"]
    window.close_without_asking()


def test_an_approval_inside_a_fork_says_so_and_its_run_shows_in_the_fork(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    forker(chat_skills)
    fake_ollama.script(
        calls(activate()),
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("It said hello."), reply("Done."))
    pane = chat_window().chat.pane
    task = pane.send("fork and run")
    assert task is not None
    dialog = open_dialog(qtbot, ApprovalDialog)
    assert dialog.request.forks == ("forker",)
    assert dialog.fork_label.isVisibleTo(dialog) and "forker" in dialog.fork_label.text()
    [card] = pane.transcript.cards()
    fork = unfolded(qtbot, fork_card(card))
    [asking] = nested_cards(fork)
    assert asking.state.text() == "waiting for your approval"
    dialog.once_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    fork.show_items()
    [ran] = nested_cards(fork)
    assert ran.record.status == "ok" and "hello from the skill" in ran.output.toPlainText()
    assert ran.approval.text() == "Approved once by you."
    assert fork.header.text().endswith("· 1 tool run")


def test_stop_stops_the_fork_and_kills_its_command(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    forker(chat_skills)
    fake_ollama.script(
        calls(activate()),
        calls(Call("run_skill_script", {"skill": "demo", "command": "sh scripts/sleeper.sh"})))
    pane = chat_window().chat.pane
    task = pane.send("fork and sleep")
    assert task is not None
    open_dialog(qtbot, ApprovalDialog).once_button.click()
    marker = chat_skills / "demo" / "pgid.txt"
    qtbot.waitUntil(lambda: marker.exists() and marker.read_text().strip() != "", timeout=10000)
    folder = (chat_skills / "demo").resolve()
    qtbot.waitUntil(lambda: len(processes_in(folder)) >= 2, timeout=10000)
    qtbot.keyClick(pane.input, Qt.Key.Key_Escape)
    qtbot.waitUntil(task.done, timeout=15000)
    qtbot.waitUntil(lambda: processes_in(folder) == [], timeout=5000)
    [card] = pane.transcript.cards()
    fork = unfolded(qtbot, fork_card(card))
    [ran] = nested_cards(fork)
    assert card.record.status == "cancelled" and ran.record.status == "cancelled"
    assert fork.state.text() == "stopped" and ran.state.text() == "stopped"
    saved = ChatStore().messages(pane.session.chat.id)  # type: ignore[union-attr]
    [stored] = [m.record for m in saved if m.record is not None]
    assert stored.fork is not None and stored.fork.status == "cancelled"


def test_forks_of_forks_nest_and_the_depth_limit_shows_as_an_error(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    forker(chat_skills)
    fake_ollama.script(calls(activate(call_id="d0")), calls(activate(call_id="d1")),
                       calls(activate(call_id="d2")), calls(activate(call_id="d3")),
                       reply("c3"), reply("c2"), reply("c1"), reply("parent"))
    pane = chat_window().chat.pane
    run_turn(qtbot, pane, "fork deep")
    [card] = pane.transcript.cards()
    fork = unfolded(qtbot, fork_card(card))
    for depth in (2, 3):
        [inner] = nested_cards(fork)
        fork = unfolded(qtbot, fork_card(inner))
        assert fork.header.text().startswith("Fork · forker"), depth
    [refused] = nested_cards(fork)
    assert refused.fork_card is None and refused.record.status == "error"
    assert refused.state.text().startswith("error")
    assert "the limit is 3" in refused.output.toPlainText()


def test_a_streaming_fork_redraws_its_text_in_place(qtbot: QtBot) -> None:
    record = ForkRecord("forker", "fork_with_context", "m:1", "helper")
    parent = ToolCard(ToolRecord("c1", "activate_skill", "forker", "load skill forker"))
    qtbot.addWidget(parent)
    parent.record.fork = record
    parent.show_record()
    fork = fork_card(parent)
    assert fork.header.text() == "Fork · forker · fork_with_context · agent helper · m:1 · 0 tool runs"
    assert fork.state.text() == "running…"
    record.items.append(ForkNote("text", "**bold"))
    fork = unfolded(qtbot, fork)
    [view] = fork.items
    record.items[0] = ForkNote("text", "**bold** and more")
    record.items.append(ForkNote("error", "the server went away"))
    parent.show_record()
    qtbot.waitUntil(lambda: len(fork.items) == 2)
    assert fork.items[0] is view and view.toPlainText().strip() == "bold and more"
    assert fork.items[1].toPlainText() == "Error: the server went away"
