"""The eval files as the window edits them: unknown keys and shapes survive, expectations go to
lines and back, a file that cannot be read is never written, and the history of runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.evals.editing import (
    EvalsFile,
    TriggersFile,
    expectations_text,
    parse_expectations_text,
)
from studio.evals.history import EvalHistory, HistoryEntry
from studio.skills.checks.evalrules import evals_problems, triggers_problems


def test_expectations_go_to_lines_and_back() -> None:
    expectations = ["The answer greets the user", {"contains": "hello"}, {"exit_code": 0},
                    {"regex": "a: b"}]
    text = expectations_text(expectations)
    assert text == "The answer greets the user\ncontains: hello\nexit_code: 0\nregex: a: b"
    assert parse_expectations_text(text + "\n\n") == expectations
    # A check with the wrong kind of value stays as typed, for validation to point at.
    assert parse_expectations_text("exit_code: zero") == [{"exit_code": "zero"}]


def test_an_edit_keeps_unknown_keys_and_the_files_shape(tmp_path: Path) -> None:
    folder = tmp_path / "evals"
    folder.mkdir()
    (folder / "evals.json").write_text(json.dumps([{"id": 7, "prompt": "a", "mine": [1, 2]}]))
    (folder / "triggers.json").write_text(json.dumps(
        {"evals": [{"prompt": "hi", "should_trigger": True, "note": "x"}], "extra": 1}))
    evals, triggers = EvalsFile(tmp_path, "demo"), TriggersFile(tmp_path)
    evals.load()
    triggers.load()
    assert evals.set_cell(0, "prompt", "b") and not evals.set_cell(0, "prompt", "b")
    assert evals.set_cell(0, "expectations", "contains: x")
    assert triggers.set_query(0, "hello") and triggers.set_should_trigger(0, False)
    evals.add_row("new one")
    evals.save()
    triggers.save()
    assert json.loads((folder / "evals.json").read_text()) == [
        {"id": 7, "prompt": "b", "mine": [1, 2], "expectations": [{"contains": "x"}]},
        {"id": 8, "prompt": "new one", "expected_output": "", "files": [], "expectations": []}]
    assert json.loads((folder / "triggers.json").read_text()) == {
        "evals": [{"prompt": "hello", "should_trigger": False, "note": "x"}], "extra": 1}
    assert not evals.changed_on_disk()
    (folder / "evals.json").write_text("[]")
    assert evals.changed_on_disk()


@pytest.mark.parametrize("text", ["{not json", '{"evals": 3}', '"a string"', "\xff"])
def test_a_file_that_cannot_be_shown_is_never_written(tmp_path: Path, text: str) -> None:
    path = tmp_path / "evals" / "evals.json"
    path.parent.mkdir()
    path.write_bytes(text.encode("latin-1"))
    evals = EvalsFile(tmp_path)
    evals.load()
    assert evals.problem and evals.rows() == []
    with pytest.raises(OSError):
        evals.save()
    assert path.read_bytes() == text.encode("latin-1")


def test_a_missing_file_starts_empty_and_is_made_on_save(tmp_path: Path) -> None:
    evals = EvalsFile(tmp_path, "demo")
    evals.load()
    assert not evals.problem and evals.rows() == []
    evals.add_row("p")
    evals.save()
    assert json.loads((tmp_path / "evals" / "evals.json").read_text())["skill_name"] == "demo"


def test_the_tables_data_is_validated_with_the_ev_codes(tmp_path: Path) -> None:
    assert [d.code for d in evals_problems({"evals": [{"prompt": ""}]}, "demo", tmp_path)] == ["EV001"]
    assert [d.code for d in evals_problems({"skill_name": "x", "evals": []}, "demo", tmp_path)] == ["EV003"]
    assert [d.code for d in triggers_problems([{"query": "q"}])] == ["EV002"]
    assert [d.code for d in triggers_problems([{"query": "q", "should_trigger": True}])] == ["EV005"]


def test_the_history_has_one_point_per_version_with_its_latest_figures(tmp_path: Path) -> None:
    history = EvalHistory(tmp_path / "data" / "history.json")
    skill = tmp_path / "demo"
    history.add(HistoryEntry(str(skill), "aaa", "m", 1.0, pass_rate=0.5, precision=1.0))
    history.add(HistoryEntry(str(skill), "bbb", "m", 2.0, pass_rate=0.25))
    history.add(HistoryEntry(str(skill), "aaa", "m", 3.0, precision=0.5))
    history.add(HistoryEntry(str(tmp_path / "other"), "ccc", "m", 4.0, pass_rate=1.0))
    versions = history.versions(skill)
    assert [(v.skill_hash, v.pass_rate, v.precision) for v in versions] == [
        ("aaa", 0.5, 0.5), ("bbb", 0.25, None)]
    assert history.versions(skill, "other model") == []


def test_a_damaged_history_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_text('[{"skill": "x", "skill_hash": "a", "when": 1, "pass_rate": 7}, 3, "no"]')
    history = EvalHistory(path)
    assert history.entries() == []
    path.write_text("{nope")
    history.add(HistoryEntry("x", "a", "m", 1.0, pass_rate=1.0))
    assert len(history.entries()) == 1


def test_an_eval_written_with_assertions_is_shown_and_edited_there(tmp_path: Path) -> None:
    folder = tmp_path / "evals"
    folder.mkdir()
    (folder / "evals.json").write_text(json.dumps(
        {"evals": [{"id": 1, "prompt": "a", "assertions": ["It answers"]}]}))
    evals = EvalsFile(tmp_path, "demo")
    evals.load()
    assert evals.cell(0, "expectations") == "It answers"
    assert evals.set_cell(0, "expectations", "It answers\ncontains: x")
    evals.save()
    assert json.loads((folder / "evals.json").read_text())["evals"] == [
        {"id": 1, "prompt": "a", "assertions": ["It answers", {"contains": "x"}]}]
