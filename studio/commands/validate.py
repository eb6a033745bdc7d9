"""`studio validate PATH... [--format text|json]`: check skills against the spec and our advice."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.paths import cache_dir
from studio.skills.cache import ScanCache
from studio.skills.model import Severity
from studio.skills.summary import SkillSummary
from studio.skills.targets import collect

CACHE_FILE = "validate-cache.marshal"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check skills against the Agent Skills spec",
        description="Check skills: a skill folder, a SKILL.md, a folder of skills (searched "
        "recursively) or a .zip. Exit 0 when all are valid, 1 when any has an error, 2 when a "
        "path cannot be read.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--no-cache", action="store_true", help="ignore and keep no scan cache")
    parser.set_defaults(handler=run)


def summary_counts(skills: list[SkillSummary]) -> dict[str, int]:
    def count(severity: Severity) -> int:
        return sum(1 for s in skills for d in s.diagnostics if d.severity is severity)

    return {
        "skills": len(skills),
        "valid": sum(1 for s in skills if s.valid),
        "invalid": sum(1 for s in skills if not s.valid),
        "loadable": sum(1 for s in skills if s.loadable),
        "errors": count(Severity.ERROR),
        "warnings": count(Severity.WARNING),
        "infos": count(Severity.INFO),
    }


def _location(summary: SkillSummary, file: str) -> Path:
    if file == summary.skill_file.name:
        return summary.skill_file
    return summary.directory / file


def run(args: argparse.Namespace) -> int:
    cache = None if args.no_cache else ScanCache(cache_dir() / CACHE_FILE)
    collected = collect(list(args.paths), cache)
    for problem in collected.problems:
        print(f"studio validate: {problem}", file=sys.stderr)
    skills = collected.skills
    counts = summary_counts(skills)
    if args.format == "json":
        payload = {"skills": [s.to_json() for s in skills], "summary": counts}
        if collected.problems:
            payload["problems"] = collected.problems
        # json.dumps runs the C encoder; json.dump to a stream would encode chunk by chunk in Python.
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    else:
        for summary in skills:
            for d in summary.diagnostics:
                where = _location(summary, d.file)
                print(f"{where}:{d.line}:{d.column}: {d.severity} {d.code}: {d.message}")
        print(
            f"{counts['skills']} skill{'s' if counts['skills'] != 1 else ''} checked: "
            f"{counts['valid']} valid, {counts['invalid']} invalid "
            f"({counts['errors']} errors, {counts['warnings']} warnings)"
        )
    if collected.problems:
        return 2
    return 0 if counts["invalid"] == 0 else 1
