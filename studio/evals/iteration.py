"""A run's results in the workspace layout of the agentskills.io guide and skill-creator, so the
studio's runs open in skill-creator's viewer and its runs open here:

    <skill>-workspace/iteration-N/
        eval-<id>/eval_metadata.json
        eval-<id>/<configuration>/run-<n>/grading.json   (expectations with evidence, summary,
                                                           timing, execution metrics)
        eval-<id>/<configuration>/run-<n>/timing.json    (tokens and duration)
        eval-<id>/<configuration>/run-<n>/outputs/answer.md
        benchmark.json                                    (runs, run_summary with the delta)
        comparisons.json                                  (blind comparisons, when there were)

Configurations are `with_skill`, `without_skill`, or `old_skill` for a previous version, the
names the viewer groups by. An iteration is written whole in a staging folder and renamed into
place, so a reader never sees half of one; reading accepts both the run-<n> layout and the flat
one (grading.json right in the configuration's folder) that the guide shows.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.errors import StudioError
from studio.evals.checks import Verdict
from studio.evals.report import EvalResult

CONFIGURATIONS = ("with_skill", "without_skill", "old_skill")
_ITERATION = re.compile(r"^iteration-(\d+)$")
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


class IterationError(StudioError):
    """An iteration folder that cannot be read; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class Iteration:
    """What an iteration folder holds: each configuration's results, the blind comparisons'
    verdicts (`Comparison.to_json`'s objects; none when it has no comparisons.json), and its
    folder."""

    folder: Path
    results: dict[str, list[EvalResult]]
    comparisons: list[dict[str, Any]] = field(default_factory=list)


def workspace_for(skill_dir: Path) -> Path:
    """The guide's place for a skill's workspace: beside the skill, `<name>-workspace`."""
    return skill_dir.parent / f"{skill_dir.name}-workspace"


def next_iteration(workspace: Path) -> int:
    numbers = [int(match.group(1)) for entry in (workspace.iterdir() if workspace.is_dir() else ())
               if (match := _ITERATION.match(entry.name))]
    return max(numbers, default=0) + 1


def write_iteration(workspace: Path, skill_name: str, skill_path: Path, model: str,
                    results: Mapping[str, Sequence[EvalResult]],
                    prompts: Mapping[str, str] | None = None, notes: Sequence[str] = (),
                    comparisons: Sequence[Mapping[str, Any]] = ()) -> Path:
    """Write `results` (by configuration) as the workspace's next `iteration-N/`; returns it."""
    workspace.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".iteration-", dir=workspace))
    try:
        for configuration, runs in results.items():
            for result in runs:
                _write_run(staging, configuration, result, (prompts or {}).get(result.id, ""))
        benchmark = benchmark_of(skill_name, skill_path, model, results)
        benchmark["notes"] = list(notes)
        if comparisons:
            (staging / "comparisons.json").write_text(json.dumps(list(comparisons), indent=2) + "\n")
        (staging / "benchmark.json").write_text(json.dumps(benchmark, indent=2) + "\n")
        while True:
            target = workspace / f"iteration-{next_iteration(workspace)}"
            try:
                os.rename(staging, target)   # fails if another run took the number meanwhile
                return target
            except OSError:
                if not target.exists():
                    raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write_run(root: Path, configuration: str, result: EvalResult, prompt: str) -> None:
    eval_dir = root / f"eval-{_SAFE.sub('-', result.id)}"
    eval_dir.mkdir(exist_ok=True)
    metadata = eval_dir / "eval_metadata.json"
    if not metadata.exists():
        metadata.write_text(json.dumps({
            "eval_id": int(result.id) if result.id.isdigit() else result.id,
            "eval_name": f"eval {result.id}", "prompt": prompt,
            "assertions": [v.text for v in result.expectations]}, indent=2) + "\n")
    run_dir = eval_dir / configuration / f"run-{result.run}"
    (run_dir / "outputs").mkdir(parents=True)
    (run_dir / "grading.json").write_text(json.dumps(grading_of(result), indent=2) + "\n")
    (run_dir / "timing.json").write_text(json.dumps({
        "total_tokens": result.tokens, "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "duration_ms": round(result.seconds * 1000), "total_duration_seconds": round(result.seconds, 3),
    }, indent=2) + "\n")
    (run_dir / "outputs" / "answer.md").write_text(str(result.trace.get("answer", "")))
    (run_dir / "transcript.json").write_text(json.dumps(result.trace, indent=2) + "\n")


def grading_of(result: EvalResult) -> dict[str, Any]:
    passed = sum(v.passed for v in result.expectations)
    total = len(result.expectations)
    trace = result.trace
    return {
        "expectations": [{"text": v.text, "passed": v.passed, "evidence": v.reason, "how": v.how}
                         for v in result.expectations],
        "summary": {"passed": passed, "failed": total - passed, "total": total,
                    "pass_rate": round(passed / total, 4) if total else 0.0},
        "outcome": result.outcome,
        "rounds": result.rounds,
        "execution_metrics": {
            "total_tool_calls": len(trace.get("activated", [])) + len(trace.get("read", []))
            + len(trace.get("ran", [])),
            "errors_encountered": len(trace.get("errors", [])),
            "output_chars": len(str(trace.get("answer", ""))),
        },
        "timing": {"total_duration_seconds": round(result.seconds, 3)},
    }


def benchmark_of(skill_name: str, skill_path: Path, model: str,
                 results: Mapping[str, Sequence[EvalResult]]) -> dict[str, Any]:
    """benchmark.json: every run, each configuration's mean, spread and range, and the delta of
    the first configuration over the second (the skill over its baseline)."""
    runs = [{"eval_id": int(r.id) if r.id.isdigit() else r.id, "eval_name": f"eval {r.id}",
             "configuration": configuration, "run_number": r.run,
             "result": {"pass_rate": grading_of(r)["summary"]["pass_rate"],
                        "passed": sum(v.passed for v in r.expectations),
                        "failed": sum(not v.passed for v in r.expectations),
                        "total": len(r.expectations), "time_seconds": round(r.seconds, 3),
                        "tokens": r.tokens, "tool_calls": grading_of(r)["execution_metrics"][
                            "total_tool_calls"], "errors": int(r.outcome == "error")},
             "expectations": grading_of(r)["expectations"], "notes": []}
            for configuration, configured in results.items() for r in configured]
    summary: dict[str, Any] = {}
    for configuration, configured in results.items():
        summary[configuration] = {
            "pass_rate": _stats([grading_of(r)["summary"]["pass_rate"] for r in configured]),
            "time_seconds": _stats([r.seconds for r in configured]),
            "tokens": _stats([float(r.tokens) for r in configured]),
        }
    names = list(summary)
    if len(names) >= 2:
        first, second = summary[names[0]], summary[names[1]]
        summary["delta"] = {
            "pass_rate": f"{first['pass_rate']['mean'] - second['pass_rate']['mean']:+.2f}",
            "time_seconds": f"{first['time_seconds']['mean'] - second['time_seconds']['mean']:+.1f}",
            "tokens": f"{first['tokens']['mean'] - second['tokens']['mean']:+.0f}",
        }
    ids = sorted({run["eval_id"] for run in runs}, key=str)
    per_configuration = max((len({r.run for r in c}) for c in results.values()), default=0)
    return {
        "metadata": {"skill_name": skill_name, "skill_path": str(skill_path),
                     "executor_model": model, "analyzer_model": model,
                     "timestamp": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "evals_run": ids, "runs_per_configuration": per_configuration},
        "runs": runs, "run_summary": summary, "notes": [],
    }


def _stats(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "stddev": 0.0, "min": 0.0, "max": 0.0}
    mean = sum(values) / len(values)
    stddev = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    return {"mean": round(mean, 4), "stddev": round(stddev, 4), "min": round(min(values), 4),
            "max": round(max(values), 4)}


def read_iteration(folder: Path) -> Iteration:
    """The results an iteration folder holds, by configuration, whoever wrote it (the studio, or
    skill-creator: grading.json with evidence, run-<n> folders or one flat run)."""
    if not folder.is_dir():
        raise IterationError(f"{folder} is not a folder")
    results: dict[str, list[EvalResult]] = {}
    for eval_dir in sorted(folder.glob("eval-*"), key=lambda p: _natural(p.name)):
        if not eval_dir.is_dir():
            continue
        eval_id = _eval_id(eval_dir)
        for config_dir in sorted(p for p in eval_dir.iterdir() if p.is_dir()):
            run_dirs = sorted(config_dir.glob("run-*"), key=lambda p: _natural(p.name))
            entries = [(int(p.name.split("-", 1)[1]), p) for p in run_dirs
                       if p.name.split("-", 1)[1].isdigit()]
            if not entries and (config_dir / "grading.json").is_file():
                entries = [(1, config_dir)]
            for run, run_dir in entries:
                if (run_dir / "grading.json").is_file():
                    results.setdefault(config_dir.name, []).append(_read_run(eval_id, run, run_dir))
    if not results:
        raise IterationError(f"{folder} holds no eval-*/<configuration>/grading.json")
    return Iteration(folder, results, _comparisons(folder / "comparisons.json"))


def _comparisons(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IterationError(f"{path} cannot be read as JSON: {exc}") from None
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise IterationError(f"{path} must hold a JSON list of objects (one a comparison)")
    return data


def _read_run(eval_id: str, run: int, run_dir: Path) -> EvalResult:
    grading = _json(run_dir / "grading.json")
    timing = _json(run_dir / "timing.json") if (run_dir / "timing.json").is_file() else {}
    expectations = grading.get("expectations")
    if not isinstance(expectations, list):
        raise IterationError(f"{run_dir / 'grading.json'}: `expectations` must be a list")
    verdicts = []
    for number, item in enumerate(expectations, 1):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or \
                not isinstance(item.get("passed"), bool):
            raise IterationError(f"{run_dir / 'grading.json'}: expectation {number} needs `text` "
                                 "and `passed`")
        verdicts.append(Verdict(item["text"], item["passed"], str(item.get("how", "model")),
                                str(item.get("evidence", ""))))
    seconds = timing.get("total_duration_seconds")
    if not isinstance(seconds, int | float):
        seconds = (grading.get("timing") or {}).get("total_duration_seconds", 0.0)
    answer_file = run_dir / "outputs" / "answer.md"
    trace: dict[str, Any] = {}
    if (run_dir / "transcript.json").is_file():
        trace = _json(run_dir / "transcript.json")
    elif answer_file.is_file():
        trace = {"answer": answer_file.read_text(errors="replace")}
    prompt_tokens = timing.get("prompt_tokens")
    completion_tokens = timing.get("completion_tokens")
    if not isinstance(prompt_tokens, int) or not isinstance(completion_tokens, int):
        total = timing.get("total_tokens")
        prompt_tokens, completion_tokens = (total if isinstance(total, int) else 0), 0
    outcome = grading.get("outcome")
    return EvalResult(eval_id, run, tuple(verdicts), int(grading.get("rounds", 0) or 0),
                      float(seconds or 0.0), outcome if isinstance(outcome, str) else "answered",
                      trace, prompt_tokens, completion_tokens)


def _eval_id(eval_dir: Path) -> str:
    metadata = eval_dir / "eval_metadata.json"
    if metadata.is_file():
        value = _json(metadata).get("eval_id")
        if isinstance(value, int | str):
            return str(value)
    return eval_dir.name.removeprefix("eval-")


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IterationError(f"{path} cannot be read as JSON: {exc}") from None
    if not isinstance(data, dict):
        raise IterationError(f"{path} must hold a JSON object")
    return data


def _natural(name: str) -> tuple[str, int]:
    head, _, tail = name.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (name, 0)
