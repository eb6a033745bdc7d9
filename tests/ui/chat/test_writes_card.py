"""A run's card says what it wrote and offers Keep and Discard for the files it held back; Keep
lands them, Discard drops them, and a reopened chat no longer offers what was decided."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.agent.sandbox import detect
from studio.chats import ForkRecord, HeldFileRecord, ToolRecord, WritesRecord
from studio.ui.chat.approval_dialog import ApprovalDialog
from studio.ui.chat.cards import ToolCard
from studio.ui.chat.transcript import Transcript
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import open_dialog

needs_sandbox = pytest.mark.skipif(
    not detect().available, reason=f"no sandbox on this machine: {detect().problem}"
)

PLANT = "python3 scripts/plant.py"
# In the window a skill's own folder is its workspace: the script plants there.
PLANTER = """\
from pathlib import Path
top = Path(__file__).parent.parent
(top / ".envrc").write_text("id")
(top / "out.txt").write_text("fine")
"""


@pytest.fixture
def demo(chat_skills: Path) -> Path:
    folder = chat_skills / "demo"
    (folder / "scripts" / "plant.py").write_text(PLANTER)
    return folder


def plant(qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> ToolCard:
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": PLANT})),
                       reply("Planted."))
    pane = chat_window().chat.pane
    task = pane.send("plant")
    assert task is not None
    open_dialog(qtbot, ApprovalDialog).once_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    [card] = pane.transcript.cards()
    return card


@needs_sandbox
def test_the_card_lists_the_writes_and_keep_lands_the_held_file(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        demo: Path) -> None:
    card = plant(qtbot, chat_window, fake_ollama)
    assert not (demo / ".envrc").exists()
    assert (demo / "out.txt").read_text() == "fine"
    text = card.writes.text()
    assert "<b>Created:</b> <code>out.txt</code>" in text
    assert "<code>.envrc</code> (created): direnv runs it" in text
    assert card.held_buttons.isVisible()
    assert card.keep_button.text() == "Keep" and card.discard_button.text() == "Discard"

    card.keep_button.click()
    assert (demo / ".envrc").read_text() == "id"
    assert not card.held_buttons.isVisible()
    assert "You kept them" in card.writes.text()


@needs_sandbox
def test_discard_drops_the_held_file_and_a_reopened_chat_offers_nothing(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        demo: Path) -> None:
    card = plant(qtbot, chat_window, fake_ollama)
    card.discard_button.click()
    assert not (demo / ".envrc").exists()
    assert "Discarded" in card.writes.text()

    window = chat_window()
    session = window.chat.pane.session
    chats = session.store.chats() if session.store is not None else []
    session.open(chats[0])
    [reopened] = session.transcript.cards()
    assert not reopened.held_buttons.isVisible()
    assert "No longer held" in reopened.writes.text()


def test_keep_on_a_forks_card_reaches_the_transcript(qtbot: QtBot) -> None:
    nested = ToolRecord("n1", "run_skill_script", "demo", status="ok", writes=WritesRecord(
        "/w", held=(HeldFileRecord(".envrc", "created", "direnv runs it"),),
        hold_id="20261207-000000-0123abcd"))
    record = ToolRecord("c1", "activate_skill", "forker", status="ok",
                        fork=ForkRecord("forker", "fork", "m", items=[nested]))
    transcript = Transcript()
    qtbot.addWidget(transcript)
    card = transcript.add_card(record)
    assert card.fork_card is not None
    card.fork_card.set_folded(False)
    card.fork_card.show_items()
    [inner] = card.fork_card.items
    assert isinstance(inner, ToolCard)
    with qtbot.waitSignal(transcript.held_decided) as decided:
        inner.keep_button.click()
    assert decided.args == [inner, True]
