"""The Evals view's counterparts of `studio eval`'s options, against the scripted Ollama server
(answers and token counts known in advance): written queries reviewed before they are saved,
per-query rates with a threshold and early stopping, the benchmark beside a baseline (a git ref,
the previous version in the history, no skill) with its deltas on the chart, the blind comparison
and the analysis, review notes kept in evals/feedback.json, iterations saved and opened, and runs
spread over a second server that dies."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.evals import read_feedback
from studio.ui.evals.models import EvalResultsModel
from tests.fakes.fixtures import OLLAMA_MODELS, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import error, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.evals.test_evals_tab import (
    ACTIVATE,
    RUN_HELLO,
    TRIGGERS,
    open_panel,
    wait_run,
    write_evals,
)

PASSING = (ACTIVATE, RUN_HELLO, reply("It says hello from the skill"))   # 3 turns: 51 tokens


def test_written_queries_are_reviewed_then_only_the_kept_ones_saved(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    folder = write_evals(chat_skills)
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(reply("- greet my team\n- say hello to me\n- wave at Bob"),
                       reply("- tidy my notes\n- sort my files"))
    qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
    wait_run(qtbot, panel)
    model = panel.generated.model
    assert panel.result_tabs.currentWidget() is panel.generated
    # "say hello to me" and "tidy my notes" are in the file already: they are not offered again.
    assert [(p.query, p.should_trigger) for p in model.proposals] == [
        ("greet my team", True), ("wave at Bob", True), ("sort my files", False)]
    assert json.loads((folder / "triggers.json").read_text()) == TRIGGERS, "nothing saved yet"
    model.setData(model.index(1, 0), Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    model.setData(model.index(0, 1), "greet my whole team")
    model.setData(model.index(2, 2), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    qtbot.mouseClick(panel.generated.add_button, Qt.MouseButton.LeftButton)
    assert json.loads((folder / "triggers.json").read_text()) == [
        *TRIGGERS, {"query": "greet my whole team", "should_trigger": True},
        {"query": "sort my files", "should_trigger": True}]
    assert panel.files.triggers_model.rowCount() == 4 and "2 queries added" in panel.status.text()
    assert model.rowCount() == 0


def test_each_query_shows_its_rate_at_the_threshold_with_early_stopping(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, evals={"evals": []})
    panel = open_panel(chat_window(), chat_skills)
    panel.options.runs_box.setValue(3)
    panel.options.threshold_box.setValue(0.5)
    panel.options.early_stop.setChecked(True)
    # Two picks of three settle the first query, two misses the second: 4 replies, not 6.
    fake_ollama.script(ACTIVATE, ACTIVATE, reply("no"), reply("no"))
    panel.run()
    wait_run(qtbot, panel)
    assert len(fake_ollama.chats) == 4
    rates = panel.results.rates_model
    assert [[rates.index(row, column).data() for column in range(5)] for row in range(2)] == [
        ["say hello to me", "yes", "2 of 2", "100%", "PASS"],
        ["tidy my notes", "no", "0 of 2", "0%", "PASS"]]
    assert "per query at a rate of 50%: 2 of 2 right" in panel.results.summary.text()


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t",
                    "-c", "commit.gpgsign=false", *args], check=True, capture_output=True)


def test_the_benchmark_sets_this_version_beside_a_git_ref_and_no_skill_and_compares_blind(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, triggers=[])
    git(chat_skills, "init", "-q")
    git(chat_skills, "add", ".")
    git(chat_skills, "commit", "-qm", "first")
    panel = open_panel(chat_window(), chat_skills)
    options = panel.options
    options.baseline_combo.setCurrentIndex(options.baseline_combo.findData("git"))
    options.ref_edit.setText("HEAD")
    options.compare_box.setChecked(True)
    fake_ollama.script(*PASSING,                 # this version
                       reply("Hello!"),          # without the skill: 17 tokens
                       reply("no idea"),         # at HEAD: fails, 17 tokens
                       reply("TIE\nBoth fine."))  # the blind comparison
    qtbot.mouseClick(panel.without_button, Qt.MouseButton.LeftButton)
    wait_run(qtbot, panel)
    report = panel.report
    assert report is not None and not report.problems, panel.status.text()
    assert report.old_ref == "HEAD" and [c["winner"] for c in report.comparisons] == ["tie"]
    bench = panel.results.benchmark_model
    rows = [bench.row(number) for number in range(bench.rowCount())]
    assert [(r[0], r[1], r[2], r[4]) for r in rows] == [
        ("this version", "1", "100%", "51 ± 0"), ("at HEAD", "1", "0%", "17 ± 0"),
        ("without the skill", "1", "0%", "17 ± 0")]
    assert rows[1][5].startswith("+100 pts, ") and rows[1][5].endswith("+34 tokens")
    results = panel.results.evals_model
    assert not panel.results.evals_view.isColumnHidden(EvalResultsModel.OLD)
    assert results.headerData(EvalResultsModel.OLD, Qt.Orientation.Horizontal) == "At HEAD"
    assert results.index(0, EvalResultsModel.OLD).data().startswith("FAIL")
    assert "Blind comparison against HEAD: this version preferred in 0 of 1" in (
        panel.results.summary.text())
    assert "Both fine." in panel.results.analysis.text()
    assert panel.chart.baseline == ("at HEAD: 0%", 0.0)
    assert panel.chart.caption.startswith("this version: +100 pts")

    # Saved and opened again, the iteration shows the verdicts as the run did.
    folder = panel.save_iteration()
    assert folder is not None and panel.open_iteration(folder)
    assert panel.report is not report and panel.report is not None
    assert panel.report.comparisons == report.comparisons
    assert ("Blind comparison against the old skill: this version preferred in 0 of 1, the "
            "baseline in 0, tied 1") in panel.results.summary.text()
    assert "eval 1 run 1: a tie: Both fine." in panel.results.analysis.text()


def test_the_previous_version_in_the_history_is_a_baseline(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, triggers=[])
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(reply("no idea"))
    panel.run()
    wait_run(qtbot, panel)
    (chat_skills / "demo" / "scripts" / "other.py").write_text("print('changed')\n")
    panel.options.baseline_combo.setCurrentIndex(panel.options.baseline_combo.findData("history"))
    fake_ollama.script(*PASSING)
    panel.run()
    wait_run(qtbot, panel)
    bench = panel.results.benchmark_model
    assert bench.rowCount() == 2
    label, _runs, rate, _seconds, tokens, change = bench.row(1)
    assert label.startswith("previous version ") and (rate, tokens) == ("0%", "17")
    assert change.startswith("+100 pts") and change.endswith("+34 tokens")
    assert panel.chart.baseline == ("previous version: 0%", 0.0)


def test_a_note_on_an_eval_is_kept_in_feedback_json_and_shown_at_the_next_run(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, triggers=[])
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(*PASSING)
    panel.run()
    wait_run(qtbot, panel)
    results = panel.results
    assert results.evals_view.isColumnHidden(EvalResultsModel.NOTE), "no note yet"
    results.evals_view.setCurrentIndex(results.evals_model.index(0, EvalResultsModel.WITH))
    review = results.review
    assert review.output.toPlainText() == "It says hello from the skill"
    assert "✓ contains: hello from the skill" in review.verdicts.text()
    review.note.setPlainText("Say which script printed it")
    qtbot.mouseClick(review.save_note, Qt.MouseButton.LeftButton)
    assert read_feedback(chat_skills / "demo") == {"1": "Say which script printed it"}
    assert json.loads((chat_skills / "demo" / "evals" / "feedback.json").read_text()) == {
        "eval-1": "Say which script printed it"}
    assert not results.evals_view.isColumnHidden(EvalResultsModel.NOTE)
    panel.run()          # from the cache: the note comes back with the results
    wait_run(qtbot, panel)
    assert results.evals_model.index(0, EvalResultsModel.NOTE).data() == "Say which script printed it"
    results.evals_view.setCurrentIndex(results.evals_model.index(0, EvalResultsModel.WITH))
    assert review.note.toPlainText() == "Say which script printed it"


def test_a_run_is_saved_as_an_iteration_and_opened_again_unchanged(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, triggers=[])
    panel = open_panel(chat_window(), chat_skills)
    assert panel.save_iteration() is None and "Run the evals first" in panel.status.text()
    fake_ollama.script(*PASSING, reply("Hello!"))
    panel.run(without=True)
    wait_run(qtbot, panel)
    folder = panel.save_iteration()
    assert folder == chat_skills / "demo-workspace" / "iteration-1"
    benchmark = json.loads((folder / "benchmark.json").read_text())
    assert set(benchmark["run_summary"]) == {"with_skill", "without_skill", "delta"}
    grading = json.loads((folder / "eval-1" / "with_skill" / "run-1" / "grading.json").read_text())
    assert grading["summary"]["passed"] == 1
    ran = panel.report
    assert panel.open_iteration(folder)
    opened = panel.report
    assert opened is not ran and opened is not None
    assert [(r.id, r.passed, r.tokens) for r in opened.evals] == [("1", True, 51)]
    assert opened.without_skill is not None and not opened.without_skill[0].passed
    assert panel.results.evals_model.rowCount() == 1
    assert not panel.open_iteration(chat_skills / "demo")
    assert "not an iteration" in panel.status.text()


def test_runs_spread_over_the_eval_servers_of_settings_give_the_same_report_when_one_dies(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot,
    tmp_path: Path
) -> None:
    write_evals(chat_skills, evals={"evals": []}, triggers=[
        {"query": f"say hello {n}", "should_trigger": True} for n in range(4)])
    second = FakeOllama(OLLAMA_MODELS)
    second.start()
    try:
        (tmp_path / "chat-settings.yaml").write_text(yaml.safe_dump({
            "backend": {"kind": "ollama", "url": fake_ollama.url, "model": TOOL_MODEL},
            "evals": {"servers": [fake_ollama.url, second.url], "concurrency": 1}}))
        panel = open_panel(chat_window(), chat_skills)
        fake_ollama.script(ACTIVATE, ACTIVATE, ACTIVATE, ACTIVATE)
        second.script(error(500, {"error": "out of memory"}))   # dies at its first run
        panel.run()
        wait_run(qtbot, panel)
        report = panel.report
        assert report is not None and report.trigger is not None and not report.problems
        assert [q.query for q in report.trigger.queries] == [f"say hello {n}" for n in range(4)]
        assert report.trigger.recall == 1.0 and report.model.endswith("@2 servers")
        assert len(second.chats) == 1 and len(fake_ollama.chats) == 4
    finally:
        second.stop()


def test_written_queries_leave_the_results_shown_alone(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills, triggers=[])
    panel = open_panel(chat_window(), chat_skills)
    fake_ollama.script(*PASSING)
    panel.run()
    wait_run(qtbot, panel)
    ran = panel.report
    fake_ollama.script(reply("I cannot help with that."), reply("Nor that."))
    panel.generate()
    wait_run(qtbot, panel)
    assert "the model wrote no query that could be read" in panel.status.text()
    assert panel.report is ran and panel.results.evals_model.rowCount() == 1
