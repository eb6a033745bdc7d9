"""The workspace layout of the agentskills.io guide and skill-creator: the studio writes its runs
as iteration-N/ and reads them back unchanged, and reads skill-creator's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.evals.checks import Verdict
from studio.evals.iteration import IterationError, read_iteration, workspace_for, write_iteration
from studio.evals.report import EvalResult
from tests.commands.test_eval_command import EVALS, SOURCE_ROOT, finish, skill_with_evals, studio
from tests.fakes.fixtures import TOOL_MODEL, fake_ollama
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply

__all__ = ["fake_ollama"]


def result(case: str, run: int, passed: bool, seconds: float = 1.25,
           tokens: tuple[int, int] = (120, 30)) -> EvalResult:
    verdicts = (Verdict("contains: Hello", passed, "contains", "found" if passed else "not in the answer"),
                Verdict("The answer greets the user", True, "model", "It says hello."))
    return EvalResult(case, run, verdicts, 2, seconds, "answered",
                      {"answer": "Hello!", "ran": ["python3 scripts/hi.py"], "errors": []}, *tokens)


def test_an_iteration_is_read_back_as_it_was_written(tmp_path: Path) -> None:
    written = {"with_skill": [result("1", 1, True), result("1", 2, False), result("2", 1, True)],
               "without_skill": [result("1", 1, False, 0.5, (60, 10)), result("1", 2, False, 0.75),
                                 result("2", 1, False)]}
    folder = write_iteration(tmp_path / "demo-workspace", "demo", tmp_path / "demo", "ollama:m",
                             written, {"1": "Greet me", "2": "Greet Ann"})
    assert folder == tmp_path / "demo-workspace" / "iteration-1"
    assert read_iteration(folder).results == written
    grading = json.loads((folder / "eval-1" / "with_skill" / "run-2" / "grading.json").read_text())
    assert grading["summary"] == {"passed": 1, "failed": 1, "total": 2, "pass_rate": 0.5}
    assert grading["expectations"][0]["evidence"] == "not in the answer"
    timing = json.loads((folder / "eval-1" / "without_skill" / "run-1" / "timing.json").read_text())
    assert (timing["total_tokens"], timing["duration_ms"]) == (70, 500)
    second = write_iteration(tmp_path / "demo-workspace", "demo", tmp_path / "demo", "ollama:m", written)
    assert second.name == "iteration-2"


def test_benchmark_json_has_the_fields_the_viewer_reads(tmp_path: Path) -> None:
    folder = write_iteration(tmp_path / "w", "demo", tmp_path / "demo", "ollama:m", {
        "with_skill": [result("1", 1, True, 2.0, (100, 0)), result("1", 2, True, 4.0, (300, 0))],
        "without_skill": [result("1", 1, False, 1.0, (50, 0)), result("1", 2, False, 1.0, (50, 0))]})
    benchmark = json.loads((folder / "benchmark.json").read_text())
    run = benchmark["runs"][0]
    assert {"eval_id", "eval_name", "configuration", "run_number", "result", "expectations"} <= set(run)
    assert set(run["result"]) >= {"pass_rate", "passed", "failed", "total", "time_seconds", "tokens"}
    summary = benchmark["run_summary"]
    assert summary["with_skill"]["time_seconds"] == {"mean": 3.0, "stddev": 1.4142, "min": 2.0, "max": 4.0}
    assert summary["delta"] == {"pass_rate": "+0.50", "time_seconds": "+2.0", "tokens": "+150"}
    assert benchmark["metadata"]["runs_per_configuration"] == 2


def test_skill_creators_flat_layout_is_read(tmp_path: Path) -> None:
    run = tmp_path / "iteration-1" / "eval-top-months-chart" / "with_skill"
    run.mkdir(parents=True)
    (run / "grading.json").write_text(json.dumps({
        "expectations": [{"text": "Both axes are labeled", "passed": False,
                          "evidence": "X-axis has no label"}],
        "summary": {"passed": 0, "failed": 1, "total": 1, "pass_rate": 0.0}}))
    (run / "timing.json").write_text(json.dumps({"total_tokens": 84852, "duration_ms": 23332,
                                                  "total_duration_seconds": 23.3}))
    [found] = read_iteration(tmp_path / "iteration-1").results["with_skill"]
    assert (found.id, found.run, found.tokens, found.seconds) == ("top-months-chart", 1, 84852, 23.3)
    assert found.expectations[0] == Verdict("Both axes are labeled", False, "model", "X-axis has no label")


@pytest.mark.parametrize("grading", ["{oops", json.dumps({"expectations": [{"text": 3}]}),
                                     json.dumps([1, 2])])
def test_a_damaged_iteration_is_named_with_its_file(tmp_path: Path, grading: str) -> None:
    run = tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1"
    run.mkdir(parents=True)
    (run / "grading.json").write_text(grading)
    with pytest.raises(IterationError, match=r"grading\.json"):
        read_iteration(tmp_path / "iteration-1")


def test_the_blind_comparisons_are_read_back_and_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    written = {"with_skill": [result("1", 1, True)], "without_skill": [result("1", 1, False)]}
    verdicts = [{"eval_id": "1", "run": 1, "winner": "new", "new_shown_as": "B",
                 "reasoning": "B greets by name."}]
    folder = write_iteration(tmp_path / "w", "demo", tmp_path / "demo", "ollama:m", written,
                             comparisons=verdicts)
    assert read_iteration(folder).comparisons == verdicts
    assert main(["eval", "--show-iteration", str(folder)]) == 0
    assert ("blind comparison against no skill: this version preferred in 1 of 1, the baseline "
            "in 0, tied 0") in capsys.readouterr().out
    alone = write_iteration(tmp_path / "w", "demo", tmp_path / "demo", "ollama:m", written)
    assert read_iteration(alone).comparisons == []


@pytest.mark.parametrize("comparisons", ["{oops", json.dumps({"winner": "new"}), json.dumps([1])])
def test_a_damaged_comparisons_file_is_named(tmp_path: Path, comparisons: str) -> None:
    folder = write_iteration(tmp_path / "w", "demo", tmp_path / "demo", "ollama:m",
                             {"with_skill": [result("1", 1, True)]})
    (folder / "comparisons.json").write_text(comparisons)
    with pytest.raises(IterationError, match=r"comparisons\.json"):
        read_iteration(folder)


def test_studio_eval_saves_an_iteration_and_shows_it_again(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    demo = skill_with_evals(tmp_path, EVALS, [])
    fake_ollama.script(reply("Hello there!"))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                   "--only", "evals", "--save-iteration"))
    assert code == 0, err
    folder = workspace_for(demo) / "iteration-1"
    assert f"results written to {folder}" in out
    shown = subprocess.run([sys.executable, "-m", "studio", "eval", "--show-iteration", str(folder)],
                           capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                           env={**os.environ, "PYTHONPATH": str(SOURCE_ROOT)})
    assert shown.returncode == 0, shown.stderr
    assert "with_skill: 100% of 1 runs passed" in shown.stdout
