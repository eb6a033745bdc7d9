"""The chat's agent picker and Save as Agent, against the scripted Ollama server: a picked agent's
model, skills, system text and parameters reach the request; the chat's own setup is saved by a
checked name, asking before it replaces an agent; renaming and deleting; the Done line names the
model that answered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from studio.agent.agents import AgentSpec, AgentStore
from studio.ui.chat.agent_dialog import AgentDialog
from studio.ui.chat.agent_picker import NO_AGENT
from studio.ui.chat.pane import ChatPane
from studio.ui.chat.transcript import NoticeItem
from tests.fakes.fixtures import OLLAMA_MODELS, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import click, open_dialog, start, write_skill

OTHER_MODEL = "other:1b"


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """The scripted server, with a second model that can use tools."""
    server = FakeOllama({**OLLAMA_MODELS, OTHER_MODEL: ["completion", "tools"]})
    server.start()
    yield server
    server.stop()


@pytest.fixture
def extra_skills(chat_skills: Path) -> Path:
    write_skill(chat_skills, "other-skill")
    write_skill(chat_skills, "switcher", description="Switches. Use when asked to switch.")
    text = (chat_skills / "switcher" / "SKILL.md").read_text(encoding="utf-8")
    (chat_skills / "switcher" / "SKILL.md").write_text(
        text.replace("---\n#", f"model: {OTHER_MODEL}\n---\n#", 1), encoding="utf-8")
    return chat_skills


def system_of(server: FakeOllama, index: int = -1) -> str:
    text: str = server.chats[index]["messages"][0]["content"]
    return text


def pick(qtbot: QtBot, pane: ChatPane, name: str | None) -> None:
    picker = pane.agent_picker
    index = picker.combo.findData(name) if name is not None else 0
    assert index >= 0, f"{name} is not listed"
    picker.combo.setCurrentIndex(index)
    picker.combo.activated.emit(index)
    qtbot.waitUntil(lambda: (picker.active.name if picker.active else None) == name)


def test_picking_an_agent_runs_the_next_turns_as_it_and_no_agent_goes_back(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        extra_skills: Path) -> None:
    AgentStore().save(AgentSpec("helper", OTHER_MODEL, (str(extra_skills / "demo"),),
                                "HELPER-SYSTEM-TEXT", {"temperature": 0.2}))
    pane = chat_window().chat.pane
    picker = pane.agent_picker
    assert [picker.combo.itemText(i) for i in range(picker.combo.count())] == [NO_AGENT, "helper"]

    pick(qtbot, pane, "helper")
    assert picker.combo.currentText() == f"helper · {OTHER_MODEL}"
    button = pane.skill_chooser.skills_button
    assert not button.isEnabled() and button.text() == "demo"
    assert "HELPER-SYSTEM-TEXT" in picker.combo.toolTip()
    fake_ollama.script(reply("as the helper"), reply("as myself"))
    run_turn(qtbot, pane, "hello")
    request = fake_ollama.chats[-1]
    assert request["model"] == OTHER_MODEL and request["options"]["temperature"] == 0.2
    system = system_of(fake_ollama)
    assert system.startswith("HELPER-SYSTEM-TEXT\n\n")
    assert "<name>demo</name>" in system and "<name>other-skill</name>" not in system

    pick(qtbot, pane, None)
    assert picker.combo.itemText(1) == "helper" and pane.skill_chooser.skills_button.isEnabled()
    run_turn(qtbot, pane, "and now?")
    request = fake_ollama.chats[-1]
    assert request["model"] == TOOL_MODEL and "temperature" not in request.get("options", {})
    assert "HELPER-SYSTEM-TEXT" not in system_of(fake_ollama)
    assert "<name>other-skill</name>" in system_of(fake_ollama)


def test_an_agent_without_skills_keeps_the_chats_choice_and_a_broken_one_is_named(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        extra_skills: Path) -> None:
    store = AgentStore()
    store.save(AgentSpec("plain", system="PLAIN-SYSTEM"))
    store.save(AgentSpec("gone", skills=(str(extra_skills / "no-such-skill"),)))
    pane = chat_window().chat.pane
    pane.skill_chooser.set_chosen(("other-skill",))
    pick(qtbot, pane, "plain")
    fake_ollama.script(reply("ok"))
    run_turn(qtbot, pane, "hi")
    assert fake_ollama.chats[-1]["model"] == TOOL_MODEL
    system = system_of(fake_ollama)
    assert system.startswith("PLAIN-SYSTEM") and "<name>other-skill</name>" in system
    assert "<name>demo</name>" not in system

    pick(qtbot, pane, "gone")
    notices = [item.text() for item in pane.transcript.items if isinstance(item, NoticeItem)]
    assert any("could not be read" in text and "no-such-skill" in text for text in notices)

    (store.folder / "plain.yaml").write_text("name: [broken\n", encoding="utf-8")
    picker = pane.agent_picker
    picker.combo.activated.emit(picker.combo.findData("plain"))
    qtbot.waitUntil(lambda: picker.active is None)
    assert picker.combo.currentIndex() == 0
    notices = [item.text() for item in pane.transcript.items if isinstance(item, NoticeItem)]
    assert any("The agent plain could not be loaded" in text for text in notices)


def save_dialog(qtbot: QtBot) -> AgentDialog:
    dialog: AgentDialog = open_dialog(qtbot, AgentDialog)
    return dialog


def save_button(dialog: AgentDialog) -> QDialogButtonBox:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Save)


def test_save_as_agent_checks_the_name_and_stores_the_current_setup(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        extra_skills: Path) -> None:
    pane = chat_window().chat.pane
    pane.skill_chooser.set_chosen(("demo",))
    task = start(pane.agent_picker.save_as())
    dialog = save_dialog(qtbot)
    assert not save_button(dialog).isEnabled() and "Type a name" in dialog.message.text()
    dialog.name_edit.setText("../escape")
    assert not save_button(dialog).isEnabled() and "letters, digits" in dialog.message.text()
    dialog.name_edit.setText("tester")
    dialog.system_edit.setPlainText("  You test.  ")
    assert save_button(dialog).isEnabled() and not dialog.message.isVisible()
    save_button(dialog).click()
    qtbot.waitUntil(task.done)
    expected = AgentSpec("tester", TOOL_MODEL, (str(extra_skills / "demo"),), "You test.")
    assert task.result() == expected
    assert AgentStore().get("tester") == expected
    assert pane.agent_picker.active == expected
    assert pane.agent_picker.combo.currentText() == f"tester · {TOOL_MODEL}"

    # Saving the whole library's setup under a taken name asks before replacing.
    pick(qtbot, pane, None)
    pane.skill_chooser.set_chosen(None)
    for answer, kept in ((QMessageBox.StandardButton.Cancel, expected),
                         (QMessageBox.StandardButton.Yes, AgentSpec("tester", TOOL_MODEL))):
        task = start(pane.agent_picker.save_as())
        dialog = save_dialog(qtbot)
        dialog.name_edit.setText("tester")
        assert "exists" in dialog.message.text() and save_button(dialog).isEnabled()
        save_button(dialog).click()
        box = open_dialog(qtbot, QMessageBox)
        assert "already saved" in box.text()
        click(box, answer)
        qtbot.waitUntil(task.done)
        assert AgentStore().get("tester") == kept
    assert AgentStore().names() == ["tester"]


def test_rename_and_delete_from_the_pickers_menu(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    store = AgentStore()
    store.save(AgentSpec("first", TOOL_MODEL, system="S"))
    pane = chat_window().chat.pane
    picker = pane.agent_picker
    assert not picker.rename_action.isEnabled() and not picker.delete_action.isEnabled()
    pick(qtbot, pane, "first")
    assert picker.rename_action.isEnabled()

    task = start(picker.rename_active())
    dialog = save_dialog(qtbot)
    dialog.name_edit.setText("second")
    save_button(dialog).click()
    qtbot.waitUntil(task.done)
    assert store.names() == ["second"] and store.get("second").system == "S"
    assert picker.active is not None and picker.active.name == "second"

    task = start(picker.delete_active())
    click(open_dialog(qtbot, QMessageBox), QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(task.done)
    assert task.result() is True and store.names() == [] and picker.active is None
    assert [picker.combo.itemText(i) for i in range(picker.combo.count())] == [NO_AGENT]


def done_lines(pane: ChatPane) -> list[str]:
    return [item.text() for item in pane.transcript.items
            if isinstance(item, NoticeItem) and item.objectName() == "doneNotice"]


def test_the_done_line_names_the_model_that_answered_after_a_switch(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        extra_skills: Path) -> None:
    pane = chat_window().chat.pane
    fake_ollama.script(reply("plain answer"))
    run_turn(qtbot, pane, "hi")
    assert done_lines(pane) == [f"Done · {TOOL_MODEL} · 1 round"]
    fake_ollama.script(calls(Call("activate_skill", {"name": "switcher"})), reply("switched"))
    run_turn(qtbot, pane, "switch please")
    assert [chat["model"] for chat in fake_ollama.chats[-2:]] == [TOOL_MODEL, OTHER_MODEL]
    assert done_lines(pane)[-1] == f"Done · {OTHER_MODEL} · 2 rounds"
    # Shown, not saved: the saved chat holds only what was said.
    assert all("Done ·" not in message.content for message in pane.session.messages)
