"""Scanning skills: every file read (`files.py`), each by the rules for its kind
(`registry.RULES`), code quoted in Markdown by the code rules, findings ranked and deduplicated.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from studio.skills import open_regular
from studio.skills.scan import SkillRoot

# The rule modules: importing one registers its rules.
from studio.threatscan import jsrules, legacy, manifests, prose, pyrules, shellrules  # noqa: F401
from studio.threatscan.cache import ThreatCache
from studio.threatscan.files import NOT_READ, aged_stamp, read_one
from studio.threatscan.findings import Finding, rank
from studio.threatscan.prose import fenced_sources
from studio.threatscan.registry import rules_for
from studio.threatscan.source import Source, kind_of
from studio.threatscan.verdict import JudgeOutcome
from studio.threatscan.zipped import read_skill, stamp_of, zipped_place, zipped_skills

SKILL_FILE = "SKILL.md"
_NOT_SKILLS = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})


@dataclass
class SkillScan:
    """A skill's findings, worst first, what was read, and what a model judge said of it
    (None when no judge was asked, or it did not get to this skill)."""

    path: Path
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    judge: JudgeOutcome | None = None

    def at_least(self, level: str) -> bool:
        return any(finding.at_least(level) for finding in self.findings)

    def add_judgement(self, outcome: JudgeOutcome) -> None:
        """Keep the judge's `outcome` and add its finding: the rules' findings stay as they are."""
        self.judge = outcome
        if outcome.finding is not None:
            self.findings = ranked([*self.findings, outcome.finding])

    def to_json(self) -> dict[str, object]:
        shown: dict[str, object] = {"path": str(self.path), "files": self.files,
                                    "findings": [finding.to_json() for finding in self.findings]}
        if self.judge is not None:
            shown["judge"] = self.judge.to_json()
        return shown


def _checked(source: Source) -> Iterator[Finding]:
    for entry in rules_for(source.kind):
        if source.quoted and entry.name == "first-rules":
            continue  # they read the whole file the code is quoted in already
        try:
            yield from entry.check(source)
        except (RecursionError, ValueError, MemoryError) as exc:
            line, column = source.position(0)
            yield Finding(NOT_READ, "low", 0.3, source.file, line, column,
                          f"the {entry.name} rule could not read this file ({type(exc).__name__})", "")


def scan_text(relative: str, text: str) -> list[Finding]:
    """The findings of one file's text (`relative` to its skill's folder)."""
    source = Source(relative, text, kind_of(relative, text[:200]))
    found = list(_checked(source))
    if source.kind in ("skill", "markdown"):
        for quoted in fenced_sources(source):
            found.extend(f for f in _checked(quoted))
    return found


def scan_file(directory: Path, relative: str, minimum: str = "low") -> list[Finding]:
    """The findings, at `minimum` or above, of one file of a skill that a command runs, read as
    `files.read_one` reads it; a text of no known kind is read as shell."""
    text, found = read_one(directory, relative)
    if text is not None:
        kind = kind_of(relative, text[:200])
        source = Source(relative, text, "shell" if kind == "text" else kind)
        found.extend(_checked(source))
    return [f for f in ranked(found) if rank(f.severity) >= rank(minimum)]


def scan_skill(directory: Path, cache: ThreatCache | None = None) -> SkillScan:
    """Scan the skill at `directory`: a folder, or a folder inside a zip archive. With `cache`,
    the findings kept for the same stamp of its files, or else found and kept."""
    stamped = _aged_stamp(directory) if cache is not None else None
    if cache is None or stamped is None:
        return _scanned(directory)
    stamp, newest = stamped  # taken before the reading: a change meanwhile shows
    kept = cache.get(directory, stamp)
    if kept is not None:
        return SkillScan(directory, kept[0], kept[1])
    scan = _scanned(directory)
    cache.put(directory, stamp, newest, scan.findings, scan.files)
    return scan


def _aged_stamp(directory: Path) -> tuple[str, int] | None:
    """`files.aged_stamp` of a folder; for a skill in a zip archive, `zipped.stamp_of` and the
    archive's own times; None when it is neither."""
    if directory.is_dir():
        return aged_stamp(directory)
    place = zipped_place(directory)
    stamp = stamp_of(directory) if place is not None else None
    if place is None or stamp is None:
        return None
    try:
        info = os.stat(place[0])
    except OSError:
        return None
    return stamp, max(info.st_mtime_ns, info.st_ctime_ns)


def _scanned(directory: Path) -> SkillScan:
    texts, found = read_skill(directory)
    for text_file in texts:
        found.extend(scan_text(text_file.relative, text_file.text))
    return SkillScan(directory, ranked(found), len(texts))


class ScannedSkill(NamedTuple):
    """A skill of a batch: its folder, the stamp of its files (`zipped.stamp_of`; None when it
    is no longer a folder or in an archive), and its findings (None when the stamp is the one
    it was given: the findings known for it stand)."""

    directory: Path
    stamp: str | None
    findings: list[Finding] | None


def scan_skills(directories: Iterable[Path],
                stamps: Mapping[Path, str] | None = None) -> list[ScannedSkill]:
    """Scan a batch of a library's skills (in one call to a worker thread or process), each
    only if its files changed since the stamp `stamps` gives for it. The stamp is taken before
    the scan: a file changed meanwhile makes the next stamp differ."""
    known = stamps or {}
    done: list[ScannedSkill] = []
    for directory in directories:
        stamp = stamp_of(directory)
        if stamp is None:
            done.append(ScannedSkill(directory, None, None))
            continue
        unchanged = known.get(directory) == stamp
        done.append(ScannedSkill(directory, stamp,
                                 None if unchanged else scan_skill(directory).findings))
    return done


def ranked(found: Iterable[Finding]) -> list[Finding]:
    """One finding per code and line (the worst), worst first, then by file and line."""
    best: dict[tuple[str, str, int], Finding] = {}
    for finding in found:
        key = (finding.code, finding.file, finding.line)
        kept = best.get(key)
        if kept is None or (rank(finding.severity), finding.confidence) > (
                rank(kept.severity), kept.confidence):
            best[key] = finding
    return sorted(best.values(), key=lambda f: (-rank(f.severity), f.file, f.line, f.column, f.code))


def skill_folders(paths: Iterable[Path]) -> tuple[list[Path], list[str]]:
    """The skill folders under `paths` (a skill folder, a file inside one, a folder searched for
    them, or a zip archive holding them), each once, and a message for each path that is
    missing or holds no skill. A file inside no skill is passed over: a pre-commit hook hands
    over every file a commit changes."""
    found: list[Path] = []
    problems: list[str] = []
    for path in paths:
        if SkillRoot(path).is_zip and path.is_file():
            inside, problem = zipped_skills(path)
            found.extend(folder for folder in inside if folder not in found)
            problems.extend([problem] if problem else [])
        elif path.is_file() and path.name.lower().endswith((".tar.gz", ".tgz")):
            problems.append(f"{path}: an archive of this kind is not scanned; unpack it and scan "
                            "the folder")
        elif path.is_file():
            owner = _owning_skill(path)
            if owner is not None and owner not in found:
                found.append(owner)
        elif path.is_dir():
            before = len(found)
            for folder, names, files in os.walk(path):
                names[:] = sorted(n for n in names if n not in _NOT_SKILLS)
                if SKILL_FILE in files:
                    found.append(Path(folder))
            if len(found) == before:
                problems.append(f"{path}: no SKILL.md in this folder or below it")
        elif not path.exists():
            problems.append(f"{path}: no such file or folder")
        else:  # a FIFO, a socket or a device: `open_regular` says which, without waiting on it
            try:
                os.close(open_regular(path))
            except OSError as exc:
                problems.append(f"{path}: {exc}; give a skill folder, a file of one or an archive")
    return found, problems


def _owning_skill(path: Path) -> Path | None:
    """The nearest folder above `path` holding a SKILL.md, within a few levels."""
    for folder in list(path.parents)[:8]:
        if (folder / SKILL_FILE).is_file():
            return folder
    return None
