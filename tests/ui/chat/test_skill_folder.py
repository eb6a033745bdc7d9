"""The studio asks once per chat where the model's new skills go, shows it, and remembers it."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from pytestqt.qtbot import QtBot

from studio.ui.chat.approval_dialog import ApprovalDialog
from studio.ui.chat.skill_folder_dialog import SkillFolderDialog
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import open_dialog, write_skill

BODY = "# Greet\n\n1. Say hello.\n"


def _create(name: str) -> Call:
    return Call("create_skill", {"name": name, "description": f"Does {name}. Use when asked to.",
                                 "body": BODY})


def test_the_first_create_asks_for_the_folder_and_the_chat_remembers_it(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path, tmp_path: Path) -> None:
    second_root = tmp_path / "second"
    write_skill(second_root, "other")
    fake_ollama.script(calls(_create("greeter")), reply("Saved."),
                       calls(_create("waver")), reply("Saved too."))
    window = chat_window()
    window.roots.add_root(second_root)
    pane = window.chat.pane
    assert not pane.chat_actions.skill_folder_label.isVisibleTo(pane)

    first = pane.send("make a greeting skill")
    assert first is not None
    dialog = open_dialog(qtbot, SkillFolderDialog)
    offered = [dialog.folder_combo.itemData(i) for i in range(dialog.folder_combo.count())]
    assert offered == [str(chat_skills), str(second_root)]
    assert dialog.folder() == chat_skills
    dialog.folder_combo.setCurrentIndex(1)
    dialog.accept()
    open_dialog(qtbot, ApprovalDialog).once_button.click()
    qtbot.waitUntil(first.done, timeout=10000)

    made = yaml.safe_load((second_root / "greeter" / "SKILL.md").read_text().split("---\n")[1])
    assert made["name"] == "greeter"
    assert not (chat_skills / "greeter").exists()
    assert pane.chat_actions.skill_folder_label.isVisibleTo(pane)
    assert "second" in pane.chat_actions.skill_folder_label.text()
    assert pane.chat_actions.skill_folder() == second_root

    again = pane.send("and a waving one")
    assert again is not None
    open_dialog(qtbot, ApprovalDialog).once_button.click()
    qtbot.waitUntil(again.done, timeout=10000)
    assert (second_root / "waver" / "SKILL.md").is_file()

    chat = pane.session.chat
    assert chat is not None
    pane.chat_actions.new_chat()
    assert pane.chat_actions.skill_folder() is None
    assert not pane.chat_actions.skill_folder_label.isVisibleTo(pane)

    # Saved with the chat: reopening it, even in another window, still knows where skills go.
    pane.chat_actions.open_chat(chat.id)
    qtbot.waitUntil(lambda: pane.chat_actions.skill_folder() == second_root)
    assert "second" in pane.chat_actions.skill_folder_label.text()
    reopened = chat_window().chat.pane
    reopened.chat_actions.open_chat(chat.id)
    qtbot.waitUntil(lambda: reopened.chat_actions.skill_folder() == second_root)
    # A folder that went since is asked for again, not written into.
    shutil.rmtree(second_root)
    assert reopened.chat_actions.skill_folder() is None


def test_declining_writes_nothing_and_tells_the_model(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    fake_ollama.script(calls(_create("greeter")), reply("Not saved."))
    pane = chat_window().chat.pane

    task = pane.send("make a greeting skill")
    assert task is not None
    open_dialog(qtbot, SkillFolderDialog).reject()
    qtbot.waitUntil(task.done, timeout=10000)

    assert not (chat_skills / "greeter").exists()
    result = fake_ollama.chats[-1]["messages"][-1]["content"]
    assert "picked no folder" in result
    assert pane.chat_actions.skill_folder() is None
