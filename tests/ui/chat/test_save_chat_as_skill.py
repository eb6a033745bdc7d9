""""Save Chat as Skill": the chat's model drafts a skill, which opens in the editor unsaved;
nothing is written until the user saves it and picks the folder."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from studio.ui.editor.editor_tab import SkillEditorTab
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import click, open_dialog, run, start

DRAFT = json.dumps({"name": "Greeter", "description": "Greets people by name. Use when asked "
                    "to say hello.", "body": "# Greet\n\n1. Say hello to the user by name.\n"})


def _folders(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir())


def test_the_draft_opens_unsaved_and_is_written_only_where_the_user_saves_it(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    fake_ollama.script(reply("Hello, Ada!"), reply(DRAFT))
    window = chat_window()
    pane = window.chat.pane
    run_turn(qtbot, pane, "say hello to Ada")
    before = _folders(chat_skills)
    # The pane hears that the turn is over from the task's done callback, a loop turn later.
    qtbot.waitUntil(pane.chat_actions.save_skill_action.isEnabled)

    draft = run(qtbot, pane.chat_actions.save_as_skill())

    assert draft is not None and draft.name == "greeter"
    asked = fake_ollama.chats[-1]
    assert asked["format"]["required"] == ["name", "description", "body"]
    assert "say hello to Ada" in asked["messages"][-1]["content"]
    tab = window.editors.current_skill_tab()
    assert isinstance(tab, SkillEditorTab)
    assert tab.dirty and tab.doc.untitled and tab.title == "greeter"
    assert tab.banner.isVisibleTo(tab)
    assert f"created-by: {TOOL_MODEL}" in tab.text()
    assert not tab.path.exists()
    assert _folders(chat_skills) == before

    saving = start(window.editors.save_untitled(tab))
    dialog = open_dialog(qtbot, QFileDialog)
    dialog.setDirectory(str(chat_skills))
    dialog.done(QDialog.DialogCode.Accepted)
    qtbot.waitUntil(saving.done)

    assert saving.result() is True
    written = chat_skills / "greeter" / "SKILL.md"
    assert written.read_text(encoding="utf-8") == tab.text()
    assert tab.path == written and not tab.dirty and not tab.doc.untitled
    assert not tab.banner.isVisibleTo(tab)
    assert window.library.summary_for(chat_skills / "greeter") is not None


def test_saving_over_an_existing_skill_is_refused(
        qtbot: QtBot, chat_window: ChatWindowFactory, chat_skills: Path) -> None:
    window = chat_window()
    text = "---\nname: demo\ndescription: Another demo. Use when testing.\n---\n# Demo\n"
    tab = window.editors.open_draft("demo", text)
    original = (chat_skills / "demo" / "SKILL.md").read_text(encoding="utf-8")

    saving = start(window.editors.save_untitled(tab))
    dialog = open_dialog(qtbot, QFileDialog)
    dialog.setDirectory(str(chat_skills))
    dialog.done(QDialog.DialogCode.Accepted)
    box = open_dialog(qtbot, QMessageBox)
    assert "already exists" in box.text() + box.informativeText()
    box.done(0)
    qtbot.waitUntil(saving.done)

    assert saving.result() is False
    assert (chat_skills / "demo" / "SKILL.md").read_text(encoding="utf-8") == original
    assert tab.dirty and tab.doc.untitled
    window.editors.remove_tab(tab)


def test_an_unusable_answer_offers_a_retry(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Hi!"), reply("Sorry, I cannot."), reply(DRAFT))
    window = chat_window()
    pane = window.chat.pane
    run_turn(qtbot, pane, "hello")

    drafting = start(pane.chat_actions.save_as_skill())
    box = open_dialog(qtbot, QMessageBox)
    assert "Sorry, I cannot." in box.informativeText()
    assert not pane.chat_actions.save_skill_action.isEnabled()
    click(box, QMessageBox.StandardButton.Retry)
    qtbot.waitUntil(drafting.done)

    assert drafting.result() is not None
    tab = window.editors.current_skill_tab()
    assert tab is not None and tab.doc.untitled and tab.title == "greeter"
    window.editors.remove_tab(tab)


def test_giving_up_says_so_and_opens_nothing(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Hi!"), reply('{"name": "x"}'))
    window = chat_window()
    pane = window.chat.pane
    run_turn(qtbot, pane, "hello")

    drafting = start(pane.chat_actions.save_as_skill())
    box = open_dialog(qtbot, QMessageBox)
    click(box, QMessageBox.StandardButton.Cancel)
    qtbot.waitUntil(drafting.done)

    assert drafting.result() is None
    assert window.editors.current_skill_tab() is None
    qtbot.waitUntil(pane.chat_actions.save_skill_action.isEnabled)


def test_closing_an_untitled_draft_with_save_asks_where_it_goes(
        qtbot: QtBot, chat_window: ChatWindowFactory, chat_skills: Path) -> None:
    window = chat_window()
    text = "---\nname: waver\ndescription: Waves. Use when asked to wave.\n---\n# Wave\n"
    tab = window.editors.open_draft("waver", text)

    closing = start(window.editors.close_tab(tab))
    click(open_dialog(qtbot, QMessageBox), QMessageBox.StandardButton.Save)
    dialog = open_dialog(qtbot, QFileDialog)
    dialog.setDirectory(str(chat_skills))
    dialog.done(QDialog.DialogCode.Accepted)
    qtbot.waitUntil(closing.done)

    assert closing.result() is True
    assert (chat_skills / "waver" / "SKILL.md").read_text(encoding="utf-8") == text
    assert window.editors.skill_tab(chat_skills / "waver") is None
