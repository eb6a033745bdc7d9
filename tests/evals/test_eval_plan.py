"""The figures the window's Evals view and `studio eval` share (`studio.evals.plan`): the
benchmark of each configuration, the change over a baseline, a saved iteration read back as a
report, and the history's previous version with its seconds and tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.evals.checks import Verdict
from studio.evals.history import EvalHistory, HistoryEntry
from studio.evals.iteration import read_iteration, write_iteration
from studio.evals.plan import benchmark, deltas, report_of
from studio.evals.report import EvalResult, SkillReport


def result(run: int, passed: bool, seconds: float, tokens: int) -> EvalResult:
    return EvalResult("1", run, (Verdict("says hi", passed, "contains", "checked"),), 2, seconds,
                      "answered", {"answer": "hi"}, tokens, 0)


def test_the_benchmark_gives_each_configuration_its_mean_and_spread() -> None:
    report = SkillReport("demo", "abc", "model")
    report.evals = [result(1, True, 2.0, 100), result(2, True, 4.0, 300)]
    report.old_skill, report.old_ref = [result(1, False, 1.0, 50), result(2, True, 1.0, 50)], "HEAD"
    report.without_skill = [result(1, False, 0.5, 20), result(2, False, 0.5, 20)]
    mine, old, without = benchmark(report)
    assert (mine.label, mine.pass_rate, mine.seconds.mean, mine.seconds.stdev) == (
        "this version", 1.0, 3.0, 1.0)
    assert (mine.tokens.mean, mine.tokens.stdev) == (200.0, 100.0)
    assert (old.label, old.pass_rate, without.label, without.pass_rate) == (
        "at HEAD", 0.5, "without the skill", 0.0)
    assert deltas(report.evals, report.old_skill) == (
        "pass rate +50% (50% -> 100%), time +2.0 s a run (3.0 ± 1.0 s), tokens +150 a run (200)")


def test_an_iteration_comes_back_as_the_report_it_was(tmp_path: Path) -> None:
    results = {"with_skill": [result(1, True, 2.0, 100)],
               "without_skill": [result(1, False, 1.0, 20)]}
    folder = write_iteration(tmp_path / "demo-workspace", "demo", tmp_path / "demo", "model",
                             results)
    report = report_of(read_iteration(folder), "demo")
    assert report.evals == results["with_skill"]
    assert report.without_skill == results["without_skill"] and report.old_skill is None
    assert report.notes == [f"read from {folder}"]


def test_the_history_gives_the_version_before_with_its_costs(tmp_path: Path) -> None:
    history = EvalHistory(tmp_path / "history.json")
    skill = tmp_path / "demo"
    for when, (version, runs) in enumerate((("v1", [result(1, False, 1.0, 10)]),
                                            ("v2", [result(1, True, 3.0, 30)]))):
        report = SkillReport("demo", version, "model")
        report.evals = runs
        history.add(HistoryEntry.of(skill, report, when=float(when)))
    assert history.previous(skill, "v1") is None
    before = history.previous(skill, "v2")
    assert before is not None and (before.skill_hash, before.seconds, before.tokens) == (
        "v1", 1.0, 10.0)
    latest = history.previous(skill, "v3-never-run")
    assert latest is not None and latest.skill_hash == "v2"


@pytest.mark.parametrize("cost", [-1, "fast", True])
def test_a_hand_edited_cost_that_is_not_a_count_drops_that_entry(tmp_path: Path,
                                                                 cost: object) -> None:
    path = tmp_path / "history.json"
    entry = {"skill": "demo", "skill_hash": "v1", "model": "m", "when": 1.0, "seconds": cost}
    path.write_text(json.dumps([entry, {**entry, "skill_hash": "v2", "seconds": 2.5}]))
    assert [(e.skill_hash, e.seconds) for e in EvalHistory(path).entries()] == [("v2", 2.5)]
