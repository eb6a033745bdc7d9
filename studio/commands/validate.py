"""`studio validate PATH... [--format text|json]`: check skills against the spec and our advice."""

from __future__ import annotations

import argparse
import gc
import json
import marshal
import sys
from pathlib import Path
from typing import Any

from studio.fsutil import atomic_write_bytes
from studio.paths import cache_dir
from studio.skills.cache import STAMP, ScanCache
from studio.skills.model import Severity
from studio.skills.summary import SkillSummary
from studio.skills.targets import Walk, collect, signature, walk_paths

CACHE_FILE = "validate-cache.marshal"
MEMO_FILE = "validate-output.marshal"

Rendered = tuple[str, str, int]


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


def _render(
    args: argparse.Namespace, paths: list[Path], walks: dict[Path, Walk] | None
) -> tuple[Rendered, dict[Path, Walk]]:
    cache = None if args.no_cache else ScanCache(cache_dir() / CACHE_FILE)
    rendered = _JsonSkills() if args.format == "json" else None
    collected = collect(paths, cache, walks, rendered)
    errors = "".join(f"studio validate: {problem}\n" for problem in collected.problems)
    skills = collected.skills
    counts = summary_counts(skills)
    if rendered is not None:
        tail: dict[str, Any] = {"summary": counts}
        if collected.problems:
            tail["problems"] = collected.problems
        out = (
            '{"skills": [' + ", ".join(rendered.text_of(s) for s in skills) + "], "
            + _dumps(tail)[1:] + "\n"
        )
    else:
        lines = [
            f"{_location(summary, d.file)}:{d.line}:{d.column}: {d.severity} {d.code}: {d.message}\n"
            for summary in skills
            for d in summary.diagnostics
        ]
        lines.append(
            f"{counts['skills']} skill{'s' if counts['skills'] != 1 else ''} checked: "
            f"{counts['valid']} valid, {counts['invalid']} invalid "
            f"({counts['errors']} errors, {counts['warnings']} warnings)\n"
        )
        out = "".join(lines)
    code = 2 if collected.problems else (0 if counts["invalid"] == 0 else 1)
    return (out, errors, code), collected.walks


def run(args: argparse.Namespace) -> int:
    # A report on thousands of skills is a few hundred thousand objects that live to the end and
    # hold no cycles; the cyclic collector would only walk them again and again. Worker
    # processes forked for the scan inherit this.
    gc.disable()
    try:
        return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    paths = [Path(path) for path in args.paths]
    memo = None if args.no_cache else OutputMemo(cache_dir() / MEMO_FILE)
    key = f"{args.format}\x00" + "\x00".join(str(path.absolute()) for path in paths)
    rendered: Rendered | None = None
    walks: dict[Path, Walk] | None = None
    digest = b""
    if memo is not None and memo.knows(key):
        walks = walk_paths(paths)
        digest = signature(paths, walks)
        rendered = memo.get(key, digest)
    if rendered is None:
        # Without a report to compare with, the scan walks the folders itself, so that worker
        # processes can start validating before the walk is over.
        rendered, walked = _render(args, paths, walks)
        if memo is not None:
            memo.put(key, digest or signature(paths, walked), rendered)
    out, errors, code = rendered
    sys.stderr.write(errors)
    sys.stdout.write(out)
    return code


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class _JsonSkills:
    """Each skill's JSON, rendered as the scan hands it over, while worker processes are still
    validating the rest; what `json.dumps` of the whole report would print, in pieces."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[SkillSummary, str]] = {}

    def __call__(self, summary: SkillSummary) -> None:
        self._texts[id(summary)] = (summary, _dumps(summary.to_json()))

    def text_of(self, summary: SkillSummary) -> str:
        # The summary is kept beside its text, so an id here is never one reused by another.
        entry = self._texts.get(id(summary))
        return entry[1] if entry is not None and entry[0] is summary else _dumps(summary.to_json())


class OutputMemo:
    """The last few outputs of `studio validate`, each with the digest of everything it depended
    on, so that checking an unchanged library again prints the same report without rebuilding it."""

    KEEP = 8

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: dict[str, tuple[bytes, Rendered]] = {}
        try:
            with open(path, "rb") as handle:
                stamp, entries = marshal.load(handle)
            if stamp == STAMP and isinstance(entries, dict):
                self._entries = entries
        except (OSError, EOFError, ValueError, TypeError):
            pass

    def knows(self, key: str) -> bool:
        return key in self._entries

    def get(self, key: str, digest: bytes) -> Rendered | None:
        entry = self._entries.get(key)
        return entry[1] if entry is not None and entry[0] == digest else None

    def put(self, key: str, digest: bytes, rendered: Rendered) -> None:
        self._entries.pop(key, None)
        self._entries[key] = (digest, rendered)
        while len(self._entries) > self.KEEP:
            del self._entries[next(iter(self._entries))]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(
                self.path, marshal.dumps((STAMP, self._entries)), durable=False
            )
        except OSError:
            return
