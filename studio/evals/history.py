"""The figures of each run of a skill's evals, kept so the window can show the pass rate per
version of the skill over time (a version is the skill's content hash, `cache.skill_hash`).

One JSON file in the app's data folder (its path is handed in), rewritten whole on each run; a
file that cannot be read starts the history afresh rather than stopping a run. Beside it, the last
whole run of each skill (every result, for the window to show again after a restart: the chart of
figures and the table of results then show the same run).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from studio.evals.report import SkillReport, pass_rate
from studio.fsutil import atomic_write_bytes

# Runs, over every skill; the oldest go first.
MAX_ENTRIES = 5000
_FIGURES = ("pass_rate", "without_pass_rate", "precision", "recall")
_COSTS = ("seconds", "tokens")


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    skill: str
    skill_hash: str
    model: str
    when: float
    pass_rate: float | None = None
    without_pass_rate: float | None = None
    precision: float | None = None
    recall: float | None = None
    # Seconds and tokens an eval run, on average: the previous version's cost beside this one's.
    seconds: float | None = None
    tokens: float | None = None

    @classmethod
    def of(cls, directory: Path, report: SkillReport, when: float | None = None) -> HistoryEntry:
        trigger = report.trigger
        runs = report.evals
        return cls(str(directory), report.skill_hash, report.model,
                   time.time() if when is None else when, pass_rate(report.evals),
                   pass_rate(report.without_skill) if report.without_skill is not None else None,
                   trigger.precision if trigger is not None else None,
                   trigger.recall if trigger is not None else None,
                   sum(r.seconds for r in runs) / len(runs) if runs else None,
                   sum(r.tokens for r in runs) / len(runs) if runs else None)

    @classmethod
    def from_json(cls, data: Any) -> HistoryEntry | None:
        if not isinstance(data, dict):
            return None
        try:
            figures = {key: _figure(data.get(key)) for key in _FIGURES}
            costs = {key: _cost(data.get(key)) for key in _COSTS}
            return cls(str(data["skill"]), str(data["skill_hash"]), str(data.get("model", "")),
                       float(data["when"]), **figures, **costs)
        except (KeyError, TypeError, ValueError):
            return None


def _figure(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(value)
    return float(value)


def _cost(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(value)
    return float(value)


class EvalHistory:
    """The runs of every skill's evals, oldest first."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def entries(self) -> list[HistoryEntry]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        if not isinstance(data, list):
            return []
        return [entry for item in data if (entry := HistoryEntry.from_json(item)) is not None]

    def add(self, entry: HistoryEntry) -> None:
        """Keep a run's figures; OSError when the file cannot be written."""
        entries = [*self.entries(), entry][-MAX_ENTRIES:]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps([asdict(e) for e in entries], ensure_ascii=False)
        atomic_write_bytes(self.path, text.encode("utf-8"), durable=False)

    def versions(self, directory: Path, model: str | None = None) -> list[HistoryEntry]:
        """One entry per version of the skill in `directory` (on `model`, when given), in the
        order the versions were first run, each with the latest figure of each kind (a run of
        the triggers alone keeps the pass rate of an earlier run of the evals)."""
        latest: dict[str, HistoryEntry] = {}
        first: dict[str, float] = {}
        for entry in self.entries():
            if entry.skill != str(directory) or (model is not None and entry.model != model):
                continue
            first.setdefault(entry.skill_hash, entry.when)
            before = latest.get(entry.skill_hash)
            if before is not None:
                entry = replace(entry, **{key: getattr(before, key) for key in _FIGURES + _COSTS
                                          if getattr(entry, key) is None})
            latest[entry.skill_hash] = entry
        return sorted(latest.values(), key=lambda e: first[e.skill_hash])

    def _last_run_file(self, directory: Path) -> Path:
        name = hashlib.sha256(str(directory).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.path.with_name(self.path.stem + "-last-runs") / f"{name}.json"

    def keep_last_run(self, directory: Path, report: SkillReport) -> None:
        """Keep `report` as the skill's last run; OSError when it cannot be written."""
        data = {"skill_dir": str(directory), "report": report.to_json()}
        path = self._last_run_file(directory)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, json.dumps(data, ensure_ascii=False).encode("utf-8"),
                           durable=False)

    def last_run(self, directory: Path) -> SkillReport | None:
        """The skill's last run kept, or None (none kept, or a file that does not read as one)."""
        try:
            data = json.loads(self._last_run_file(directory).read_text(encoding="utf-8"))
            if data["skill_dir"] != str(directory):
                return None
            return SkillReport.from_json(data["report"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def previous(self, directory: Path, skill_hash: str) -> HistoryEntry | None:
        """The version of the skill run before the one with `skill_hash` (the latest other
        version when that one was never run): the baseline the history gives."""
        versions = self.versions(directory)
        hashes = [v.skill_hash for v in versions]
        if skill_hash in hashes:
            index = hashes.index(skill_hash)
            return versions[index - 1] if index > 0 else None
        return versions[-1] if versions else None
