"""The Evals tab of a skill in the window, against the scripted Ollama server whose choices are
known in advance: editing the tables (saved, undoable, checked), adding the chat's prompt, runs
with exact results, with and without side by side, Cancel, the chart per version, and applying a
description variant."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QToolButton
from pytestqt.qtbot import QtBot

from studio.ui.chat.cards import ToolCard
from studio.ui.evals.panel import EvalsPanel
from studio.ui.evals.results import EvalResultsModel
from studio.ui.mainwindow import MainWindow
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, hang, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import write_skill

EVALS = {"skill_name": "demo", "note": "mine", "evals": [
    {"id": 1, "prompt": "Say hello", "expected_output": "a greeting", "files": [],
     "expectations": [{"contains": "hello from the skill"}], "owner": "me"}]}
TRIGGERS = [{"query": "say hello to me", "should_trigger": True},
            {"query": "tidy my notes", "should_trigger": False}]
ACTIVATE = calls(Call("activate_skill", {"name": "demo"}))
RUN_HELLO = calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"}))


def write_evals(skills: Path, evals: object = EVALS, triggers: object = TRIGGERS) -> Path:
    folder = skills / "demo" / "evals"
    folder.mkdir(exist_ok=True)
    (folder / "evals.json").write_text(json.dumps(evals), encoding="utf-8")
    (folder / "triggers.json").write_text(json.dumps(triggers), encoding="utf-8")
    return folder


def open_panel(window: MainWindow, skills: Path) -> EvalsPanel:
    tab = window.editors.open_skill(skills / "demo")
    assert tab is not None
    panel = window.evals.panel_for(tab)
    assert panel is not None
    tab.views.setCurrentWidget(panel)
    return panel


def button(panel: EvalsPanel, name: str) -> QToolButton:
    found = panel.findChild(QToolButton, name)
    assert found is not None, name
    return found


def wait_run(qtbot: QtBot, panel: EvalsPanel) -> None:
    qtbot.waitUntil(lambda: not panel.busy, timeout=30000)


def test_editing_a_table_saves_valid_json_keeps_unknown_keys_and_undoes(
    chat_window: ChatWindowFactory, chat_skills: Path, qtbot: QtBot
) -> None:
    folder = write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    model = panel.files.evals_model
    assert model.rowCount() == 1 and model.index(0, 3).data() == "contains: hello from the skill"
    model.setData(model.index(0, 1), "Say hello twice")
    model.setData(model.index(0, 3), "contains: hello\nThe answer is friendly\nexit_code: 0")
    saved = json.loads((folder / "evals.json").read_text())
    assert saved["note"] == "mine" and saved["evals"][0]["owner"] == "me"
    assert saved["evals"][0]["prompt"] == "Say hello twice"
    assert saved["evals"][0]["expectations"] == [{"contains": "hello"}, "The answer is friendly",
                                                 {"exit_code": 0}]
    triggers = panel.files.triggers_model
    triggers.setData(triggers.index(1, 1), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert json.loads((folder / "triggers.json").read_text())[1]["should_trigger"] is True
    # Both queries should trigger now: precision cannot be measured, and the tab says so.
    assert "EV005" in panel.files.triggers_problems.text()
    panel.files.undo_stack.undo()
    assert json.loads((folder / "triggers.json").read_text())[1]["should_trigger"] is False
    assert panel.files.triggers_problems.isHidden()
    # Ctrl+Z in a table undoes its edits, not the SKILL.md's.
    panel.files.setCurrentIndex(0)
    panel.files.evals_view.setFocus()
    qtbot.keyClick(panel.files.evals_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(panel.files.evals_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert json.loads((folder / "evals.json").read_text()) == EVALS
    assert not panel.tab.dirty


def test_a_bad_cell_is_pointed_at_with_its_code_as_it_is_typed(
    chat_window: ChatWindowFactory, chat_skills: Path
) -> None:
    write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    panel.files.add_eval()
    model = panel.files.evals_model
    assert model.rowCount() == 2
    problems = panel.files.evals_problems.text()
    assert "EV001" in problems and "evals[1].prompt" in problems
    assert model.index(1, 1).data(Qt.ItemDataRole.BackgroundRole) is not None
    model.setData(model.index(1, 1), "Now with a prompt")
    assert panel.files.evals_problems.isHidden()
    assert model.index(1, 1).data(Qt.ItemDataRole.BackgroundRole) is None


def test_what_is_typed_is_checked_before_it_is_committed(
    chat_window: ChatWindowFactory, chat_skills: Path, qtbot: QtBot
) -> None:
    folder = write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    panel.files.add_eval()
    assert "EV001" in panel.files.evals_problems.text()
    view = panel.files.evals_view
    view.edit(panel.files.evals_model.index(1, 1))
    qtbot.waitUntil(lambda: view.findChild(QPlainTextEdit) is not None)
    editor = view.findChild(QPlainTextEdit)
    assert editor is not None
    editor.setPlainText("Typed, not yet committed")
    assert panel.files.evals_problems.isHidden()
    assert json.loads((folder / "evals.json").read_text())["evals"][1]["prompt"] == ""
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: view.findChild(QPlainTextEdit) is None or not editor.isVisible())
    assert "EV001" in panel.files.evals_problems.text()
    assert panel.files.evals_model.index(1, 1).data() == ""


def test_a_file_that_is_not_json_is_shown_read_only_and_left_alone(
    chat_window: ChatWindowFactory, chat_skills: Path
) -> None:
    folder = write_evals(chat_skills)
    (folder / "evals.json").write_text("{broken", encoding="utf-8")
    panel = open_panel(chat_window(), chat_skills)
    assert "is not valid JSON" in panel.files.evals_problems.text()
    panel.files.add_eval("x")
    assert (folder / "evals.json").read_text() == "{broken"


def test_add_from_chat_adds_the_last_prompt_in_one_click(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    folder = write_evals(chat_skills)
    window = chat_window()
    panel = open_panel(window, chat_skills)
    qtbot.mouseClick(button(panel, "add_eval_from_chat"), Qt.MouseButton.LeftButton)
    assert "no prompt yet" in panel.status.text() and panel.files.evals_model.rowCount() == 1
    fake_ollama.script(reply("Hi there"))
    run_turn(qtbot, window.chat.pane, "please greet my team")
    qtbot.mouseClick(button(panel, "add_eval_from_chat"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button(panel, "add_query_from_chat"), Qt.MouseButton.LeftButton)
    assert json.loads((folder / "evals.json").read_text())["evals"][1]["prompt"] == "please greet my team"
    assert json.loads((folder / "triggers.json").read_text())[2] == {
        "query": "please greet my team", "should_trigger": True}


def test_a_run_shows_exact_results_with_and_without_the_skill_and_their_transcripts(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(
        ACTIVATE, ACTIVATE,                                   # triggers: right, then wrong
        ACTIVATE, RUN_HELLO, reply("It says hello from the skill"),   # eval 1 with the skill
        reply("Hello!"),                                      # eval 1 without it
    )
    qtbot.mouseClick(panel.without_button, Qt.MouseButton.LeftButton)
    wait_run(qtbot, panel)
    report = panel.report
    assert report is not None and report.trigger is not None and not report.problems
    assert (report.trigger.precision, report.trigger.recall) == (0.5, 1.0)
    summary = panel.results.summary.text()
    assert "precision 50%, recall 100%" in summary and "without the skill: 0%" in summary
    results = panel.results.evals_model
    assert results.rowCount() == 1
    assert results.index(0, EvalResultsModel.WITH).data().startswith("PASS")
    assert results.index(0, EvalResultsModel.WITHOUT).data().startswith(
        "FAIL · contains: hello from the skill: the answer does not contain")
    wrong = panel.results.triggers_model.index(1, 4).data()
    assert wrong == "WRONG"
    panel.results.evals_view.setCurrentIndex(results.index(0, EvalResultsModel.WITH))
    cards = [item for item in panel.results.transcript.items if isinstance(item, ToolCard)]
    assert [card.record.tool for card in cards] == ["activate_skill", "run_skill_script"]
    assert "hello from the skill" in cards[1].record.output
    panel.results.evals_view.setCurrentIndex(results.index(0, EvalResultsModel.WITHOUT))
    assert not [item for item in panel.results.transcript.items if isinstance(item, ToolCard)]
    assert "without the skill" in panel.results.verdicts.text()


def test_cancel_stops_the_run_and_keeps_what_finished(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(ACTIVATE, hang())
    panel.run()
    qtbot.waitUntil(lambda: "trigger 2/2" in panel.status.text(), timeout=30000)
    assert panel.cancel_button.isEnabled()
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    wait_run(qtbot, panel)
    report = panel.report
    assert report is not None and report.cancelled and report.trigger is not None
    assert [q.triggered for q in report.trigger.queries] == [True]
    assert panel.status.text().startswith("Stopped")
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert panel.chart.versions == []


def test_the_chart_gets_a_point_per_version_of_the_skill(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, triggers=[])
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(reply("hello from the skill"))
    panel.run()
    wait_run(qtbot, panel)
    assert [v.pass_rate for v in panel.chart.versions] == [1.0]
    panel.run()
    wait_run(qtbot, panel)
    assert len(panel.chart.versions) == 1 and panel.report is not None and panel.report.cached == 1
    (chat_skills / "demo" / "scripts" / "hello.py").write_text("print('changed')\n")
    fake_ollama.script(reply("nothing"))
    panel.run()
    wait_run(qtbot, panel)
    assert [v.pass_rate for v in panel.chart.versions] == [1.0, 0.0]
    assert len(panel.chart.points("pass_rate")) == 2


def test_a_dirty_skill_is_not_run(chat_window: ChatWindowFactory, chat_skills: Path,
                                  fake_ollama: FakeOllama) -> None:
    write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    panel.tab.set_field("description", "Changed. Use when testing.")
    assert panel.run() is None and "Save the skill first" in panel.status.text()
    assert fake_ollama.chats == []
    panel.tab.undo()
    assert not panel.tab.dirty


def test_improve_shows_variants_and_applies_one_undoably(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    # One query of each kind: nothing is held out, so every query trains.
    write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    original = panel.tab.doc.skill.description
    fake_ollama.script(
        reply("no"), ACTIVATE,                                  # now: both wrong
        reply("- Says hello when someone wants a greeting."),
        ACTIVATE, reply("no"),                                  # the variant: both right
    )
    panel.improve()
    wait_run(qtbot, panel)
    assert panel.report is not None and not panel.report.problems, panel.status.text()
    [card] = panel.variants.cards
    assert "precision 100%, recall 100%" in card.figures.text()
    assert "line-through" in card.diff.text()
    qtbot.mouseClick(card.apply_button, Qt.MouseButton.LeftButton)
    assert panel.tab.doc.skill.description == "Says hello when someone wants a greeting."
    assert panel.tab.dirty
    panel.tab.undo()
    assert panel.tab.doc.skill.description == original and not panel.tab.dirty


def test_closing_the_skill_stops_its_run(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills)
    window = chat_window()
    panel = open_panel(window, chat_skills)
    fake_ollama.script(hang())
    task = panel.run()
    assert task is not None
    qtbot.waitUntil(lambda: "trigger 1/2" in panel.status.text(), timeout=30000)
    closing = window.tasks.spawn(window.editors.close_tab(panel.tab))
    qtbot.waitUntil(lambda: closing.done() and task.done(), timeout=30000)
    assert task.cancelled() and window.evals.panels == {}


def test_several_runs_show_each_run_and_the_spread(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, evals={"evals": []})
    panel = open_panel(chat_window(), chat_skills)
    panel.options.runs_box.setValue(2)
    # Query by query, run by run: the greeting is picked once of twice, the notes never.
    fake_ollama.script(ACTIVATE, reply("Hi"), reply("no"), reply("no"))
    panel.run()
    wait_run(qtbot, panel)
    assert panel.results.triggers_model.rowCount() == 4
    assert "(run by run: precision 100% ± 0%, recall 50% ± 50%)" in panel.results.summary.text()


def test_files_changed_by_another_program_are_read_again_when_the_view_is_shown(
    chat_window: ChatWindowFactory, chat_skills: Path
) -> None:
    folder = write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    panel.files.add_eval("mine")
    views = panel.tab.views
    views.setCurrentIndex(0)
    (folder / "triggers.json").write_text(json.dumps([{"query": "q", "should_trigger": False}]))
    views.setCurrentWidget(panel)
    assert panel.files.triggers_model.rowCount() == 1
    assert panel.files.evals_model.rowCount() == 2 and not panel.files.undo_stack.canUndo()


def test_a_trigger_row_names_the_skill_activated_and_shows_its_transcript(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_skill(chat_skills, "notes-tidy", description="Tidies notes. Use for notes.")
    write_evals(chat_skills, evals={"skill_name": "demo", "evals": []})
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(ACTIVATE, calls(Call("activate_skill", {"name": "notes-tidy"})))
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    wait_run(qtbot, panel)
    triggers = panel.results.triggers_model
    assert triggers.rowCount() == 2
    assert triggers.index(0, 5).data() == "activate_skill(demo)"
    assert triggers.index(1, 5).data() == "activate_skill(notes-tidy)"
    view = panel.results.triggers_view
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.visualRect(triggers.index(1, 0)).center())
    cards = [item for item in panel.results.transcript.items if isinstance(item, ToolCard)]
    assert [card.record.tool for card in cards] == ["activate_skill"]
    assert "notes-tidy" in panel.results.verdicts.text()
    assert len(panel.results.transcript.items) == 2, "the query, then the call"
