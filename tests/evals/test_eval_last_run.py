"""The last whole run of a skill, kept beside the history so the window shows it again after a
restart (issue 44): every result comes back as it was, and a file that does not read as a run,
or is another skill's, gives none rather than an error."""

from __future__ import annotations

import json
from pathlib import Path

from studio.evals import EvalHistory, EvalResult, QueryResult, SkillReport, TriggerReport, Verdict


def a_report() -> SkillReport:
    report = SkillReport("demo", "0123456789abcdef", "qwen3:0.6b")
    report.trigger = TriggerReport(2, [QueryResult("say hello", True, 1, True, "activate_skill",
                                                   "demo"),
                                       QueryResult("tidy notes", False, 1, False)], 0.6)
    report.evals = [EvalResult("1", 1, (Verdict("contains: hello", True, "contains", "found"),),
                               3, 2.5, "answered", {"messages": []}, 120, 30)]
    report.without_skill = [EvalResult("1", 1, (Verdict("contains: hello", False, "contains",
                                                        "missing"),), 1, 1.0, "answered")]
    report.old_skill = []
    report.old_ref = "HEAD~1"
    report.comparisons = [{"eval_id": "1", "run": 1, "winner": "new", "reasoning": "greets"}]
    report.feedback = {"1": "friendlier"}
    report.notes = ["results written to x"]
    report.cached = 1
    return report


def test_a_run_kept_comes_back_whole(tmp_path: Path) -> None:
    history = EvalHistory(tmp_path / "eval-history.json")
    skill = tmp_path / "skills" / "demo"
    assert history.last_run(skill) is None
    report = a_report()
    history.keep_last_run(skill, report)
    again = history.last_run(skill)
    assert again is not None
    assert again.to_json() == report.to_json()
    assert again.trigger is not None and again.trigger.threshold == 0.6
    assert history.last_run(tmp_path / "skills" / "other") is None


def test_a_file_that_is_not_a_run_gives_none(tmp_path: Path) -> None:
    history = EvalHistory(tmp_path / "eval-history.json")
    skill = tmp_path / "demo"
    history.keep_last_run(skill, a_report())
    (kept,) = (tmp_path / "eval-history-last-runs").iterdir()
    for text in ("not json", "[]", json.dumps({"skill_dir": str(skill), "report": {"evals": 3}}),
                 json.dumps({"skill_dir": str(tmp_path / "elsewhere"),
                             "report": a_report().to_json()})):
        kept.write_text(text, encoding="utf-8")
        assert history.last_run(skill) is None, text
