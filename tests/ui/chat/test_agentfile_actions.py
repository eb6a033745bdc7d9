"""File ▸ Import Agentfile… and Export as Agentfile…, and Tools ▸ Custom Prompts…, in the window
against the scripted Ollama server: an import is saved and picked and its directives reach the
request; a bad line stops it with its number and saves nothing; unused directives are shown and
the user chooses; an export reads back as the same agent and asks before replacing a file; custom
prompts reach the request, and the preview shows what the model is sent."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from studio.agent.agentfile import read_agentfile
from studio.agent.agents import AgentSpec, AgentStore
from studio.agent.prompt import INSTRUCTIONS
from studio.agent.tools import default_tool_descriptions
from studio.settings import PromptSettings, load_settings
from studio.ui.chat.agent_dialog import AgentDialog
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import click, open_dialog, start

AGENTFILE = f'''# a helper
FROM {TOOL_MODEL}
SKILL ./demo
SYSTEM """
You are the helper.
Answer briefly.
"""
PARAMETER temperature 0.3
PARAMETER stop <end>
'''


def accept_name(qtbot: QtBot, name: str | None = None) -> AgentDialog:
    dialog: AgentDialog = open_dialog(qtbot, AgentDialog)
    if name is not None:
        dialog.name_edit.setText(name)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    return dialog


def test_importing_a_good_agentfile_saves_and_picks_it_and_it_reaches_the_request(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    path = chat_skills / "helper.agentfile"
    path.write_text(AGENTFILE, encoding="utf-8")
    window = chat_window()
    files = window.chat.agent_files
    actions = window.menus.file.actions()
    assert (actions.index(files.import_action) < actions.index(files.export_action)
            < actions.index(window.settings_action))
    task = start(files.import_from(path))
    dialog = accept_name(qtbot)
    assert dialog.name == "helper" and dialog.system_edit.toPlainText() == (
        "You are the helper.\nAnswer briefly.")
    qtbot.waitUntil(task.done)
    expected = AgentSpec("helper", TOOL_MODEL, (str(chat_skills / "demo"),),
                         "You are the helper.\nAnswer briefly.",
                         {"temperature": 0.3, "stop": ["<end>"]})
    assert task.result() == expected and AgentStore().get("helper") == expected
    pane = window.chat.pane
    assert pane.agent_picker.combo.currentText() == f"helper · {TOOL_MODEL}"

    fake_ollama.script(reply("ok"))
    run_turn(qtbot, pane, "hi")
    request = fake_ollama.chats[-1]
    assert request["options"]["temperature"] == 0.3 and request["options"]["stop"] == ["<end>"]
    assert request["messages"][0]["content"].startswith("You are the helper.\nAnswer briefly.\n\n")


def test_a_bad_line_stops_the_import_with_its_number_and_saves_nothing(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        tmp_path: Path) -> None:
    path = tmp_path / "Agentfile"
    path.write_text(f"FROM {TOOL_MODEL}\nPARAMETER temperature\n", encoding="utf-8")
    window = chat_window()
    task = start(window.chat.agent_files.import_from(path))
    box = open_dialog(qtbot, QMessageBox)
    assert "line 2: PARAMETER needs a name and a value" in box.text()
    assert "Nothing was saved" in box.text()
    click(box, QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(task.done)
    assert task.result() is None and AgentStore().names() == []
    assert window.chat.pane.agent_picker.active is None


def test_unused_directives_are_shown_and_the_user_chooses(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        tmp_path: Path) -> None:
    path = tmp_path / "tuned.agentfile"
    path.write_text(f"FROM {TOOL_MODEL}\nADAPTER ./lora.gguf\nTEMPLATE x\n", encoding="utf-8")
    window = chat_window()
    task = start(window.chat.agent_files.import_from(path))
    box = open_dialog(qtbot, QMessageBox)
    shown = box.informativeText()
    assert "line 2: ADAPTER is not a directive the studio uses" in shown and "line 3: TEMPLATE" in shown
    click(box, QMessageBox.StandardButton.Cancel)
    qtbot.waitUntil(task.done)
    assert task.result() is None and AgentStore().names() == []

    task = start(window.chat.agent_files.import_from(path))
    click(open_dialog(qtbot, QMessageBox), QMessageBox.StandardButton.Yes)
    accept_name(qtbot, "tuned-helper")
    qtbot.waitUntil(task.done)
    assert AgentStore().get("tuned-helper") == AgentSpec("tuned-helper", TOOL_MODEL)


def test_export_reads_back_as_the_same_agent_and_asks_before_replacing(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        tmp_path: Path, chat_skills: Path) -> None:
    spec = AgentSpec("exported", TOOL_MODEL, (str(chat_skills / "demo"),), "Line one.\nLine two.",
                     {"temperature": 0.5, "num_ctx": 4096})
    AgentStore().save(spec)
    window = chat_window()
    pane = window.chat.pane
    files = window.chat.agent_files
    task = start(pane.agent_picker.choose("exported"))
    qtbot.waitUntil(task.done)

    task = start(files.export_agentfile())
    dialog = open_dialog(qtbot, QFileDialog)
    target = tmp_path / "exported.agentfile"
    dialog.selectFile(str(target))
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert task.result() == target
    assert read_agentfile(target).spec == spec

    target.write_text("OLD", encoding="utf-8")
    for answer, content in ((QMessageBox.StandardButton.Cancel, "OLD"),
                            (QMessageBox.StandardButton.Yes, None)):
        task = start(files.export_to(target))
        box = open_dialog(qtbot, QMessageBox)
        assert "already exists" in box.text()
        click(box, answer)
        qtbot.waitUntil(task.done)
        if content is not None:
            assert target.read_text(encoding="utf-8") == content and task.result() is None
    assert read_agentfile(target).spec == spec
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("exported")] == [target.name]


def test_an_agent_the_format_cannot_hold_is_not_exported(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        tmp_path: Path) -> None:
    AgentStore().save(AgentSpec("quoting", TOOL_MODEL, system='Quote with """\nThen stop.'))
    window = chat_window()
    choose = start(window.chat.pane.agent_picker.choose("quoting"))
    qtbot.waitUntil(choose.done)
    task = start(window.chat.agent_files.export_to(tmp_path / "x.agentfile"))
    box = open_dialog(qtbot, QMessageBox)
    assert "reads back the same" in box.text()
    click(box, QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(task.done)
    assert task.result() is None and not (tmp_path / "x.agentfile").exists()


def test_without_an_agent_the_chats_setup_is_exported(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        tmp_path: Path, chat_skills: Path) -> None:
    window = chat_window()
    window.chat.pane.skill_chooser.set_chosen(("demo",))
    target = tmp_path / "setup.agentfile"
    task = start(window.chat.agent_files.export_to(target))
    qtbot.waitUntil(task.done)
    assert read_agentfile(target).spec == AgentSpec("setup", TOOL_MODEL,
                                                    (str(chat_skills / "demo"),))


def test_custom_prompts_reach_the_request_and_the_preview_shows_them(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    window = chat_window()
    pane = window.chat.pane
    dialog = window.chat.agent_files.show_prompts()
    preview = dialog.preview.toPlainText()
    assert INSTRUCTIONS.strip() in preview and "<name>demo</name>" in preview
    assert f"activate_skill: {default_tool_descriptions()['activate_skill']}" in preview
    dialog.instructions_edit.setPlainText("GUI-INSTRUCTIONS")
    dialog.tool_edits["run_skill_script"].setPlainText("GUI-RUN")
    qtbot.waitUntil(lambda: "GUI-INSTRUCTIONS" in dialog.preview.toPlainText())
    assert "run_skill_script: GUI-RUN" in dialog.preview.toPlainText()
    assert INSTRUCTIONS.strip() not in dialog.preview.toPlainText()
    assert dialog.save()
    assert not dialog.isVisible()
    saved = load_settings(window.store.path).settings.prompts
    assert saved == PromptSettings("GUI-INSTRUCTIONS", {"run_skill_script": "GUI-RUN"})

    fake_ollama.script(reply("ok"))
    run_turn(qtbot, pane, "hi")
    request = fake_ollama.chats[-1]
    assert request["messages"][0]["content"].startswith("GUI-INSTRUCTIONS\n")
    tools = {t["function"]["name"]: t["function"]["description"] for t in request["tools"]}
    assert tools["run_skill_script"] == "GUI-RUN"
    assert tools["activate_skill"] == default_tool_descriptions()["activate_skill"]
