"""The analysis of a run's figures: expectations that never tell the skill apart, flaky evals,
and the costliest."""

from __future__ import annotations

from studio.evals.analysis import analyse
from studio.evals.checks import Verdict
from studio.evals.report import EvalResult


def run(case: str, number: int, verdicts: dict[str, bool], seconds: float = 1.0,
        tokens: int = 100) -> EvalResult:
    return EvalResult(case, number, tuple(Verdict(text, ok, "contains", "") for text, ok in verdicts.items()),
                      1, seconds, "answered", {}, tokens, 0)


def test_expectations_that_never_discriminate_flaky_evals_and_the_costliest() -> None:
    with_skill = [run("1", 1, {"greets": True, "uses the script": True}, 4.0, 900),
                  run("1", 2, {"greets": True, "uses the script": True}, 6.0, 1100),
                  run("2", 1, {"answers": True, "cites": False}),
                  run("2", 2, {"answers": False, "cites": False}),
               run("3", 1, {"sums": True}), run("3", 2, {"sums": False})]
    without = [run("1", 1, {"greets": True, "uses the script": False}),
               run("2", 1, {"answers": False, "cites": False})]
    analysis = analyse(with_skill, without)
    assert analysis.always_pass == [("1", "greets")]
    assert analysis.always_fail == [("2", "cites")]
    assert analysis.flaky == ["3"]
    assert analysis.costliest[0] == ("1", 5.0, 1000.0)
    notes = analysis.notes()
    assert any("'greets' passes with and without the skill" in n for n in notes)
    assert any("eval 3: passes in some runs and fails in others" in n for n in notes)


def test_without_a_baseline_nothing_is_called_non_discriminating() -> None:
    analysis = analyse([run("1", 1, {"greets": True})])
    assert (analysis.always_pass, analysis.always_fail, analysis.costliest) == ([], [], [])
