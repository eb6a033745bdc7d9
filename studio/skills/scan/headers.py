"""What an agent's catalog needs of each skill (its name, its description, where its SKILL.md is),
read without validating the whole skill: `studio prompt` on a large library.

Whether a client would load a skill depends on its SKILL.md alone (`is_loadable`: it can be read
and parsed, and it names and describes the skill), so only SKILL.md is read and parsed, by the
same parser as everything else, and a cache keyed by SKILL.md's stamp spares even that. A skill a
client would not load, and every skill whose name another skill also uses, is validated in full,
so that the reason it is left out is the first problem `studio validate` reports for it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.skills.checks.validate import is_loadable, validate_skill
from studio.skills.clients import SPEC
from studio.skills.files import load_skill_file, missing_skill_file, read_skill_bytes
from studio.skills.model import Diagnostic, RootNotice, Severity
from studio.skills.parse import parse_skill
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.entries import decode
from studio.skills.scan.roots import (
    RootScan,
    SkillRoot,
    _is_crash,
    _validate_folder,
    _Validation,
    mark_duplicates,
    scan_root,
)
from studio.skills.scan.targets import root_for
from studio.skills.scan.walk import Found, WalkMemo, walk_skills
from studio.skills.summary import SkillSummary

# The kind of scan cache this module keeps (a `ScanCache` target of its own).


@dataclass(frozen=True, slots=True)
class SkillHeader:
    """One skill as an agent's catalog lists it.

    Attributes:
        directory, skill_file: as in `SkillSummary`, as text (a catalog of 100,000 skills would
            spend a second building their paths).
        name, description, loadable: as in `SkillSummary`.
        first_problem: for a skill a client would not load, or one whose name another skill also
            uses, the first problem validation reports (`SkillSummary.first_problem`); None for
            the others, which are not validated.
    """

    directory: str
    skill_file: str
    name: str | None
    description: str | None
    loadable: bool
    first_problem: Diagnostic | None = None

    @classmethod
    def of(cls, summary: SkillSummary) -> SkillHeader:
        return cls(str(summary.directory), str(summary.skill_file), summary.name,
                   summary.description, summary.loadable, summary.first_problem)


@dataclass(slots=True)
class Headers:
    """The skills the paths name, what was wrong with the paths, and what the walk found about
    the roots (links it did not follow), as `studio.skills.scan.targets.collect` gives them."""

    skills: list[SkillHeader] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notices: list[RootNotice] = field(default_factory=list)


def _header_entries(found: list[Found], target: str) -> list[tuple[Any, ...]]:
    """Read the SKILL.md of each skill the walk found, in a worker process."""
    return [_header_entry(item, target) for item in found]


def _header_entry(found: Found, target: str) -> tuple[Any, ...]:
    """(None, folder, SKILL.md, name, description, loadable, first problem or None), the first
    problem only for a skill a client would not load, which is validated in full to find it; the
    leading None tells it from a summary's cache tuple, which a crash gives instead."""
    folder = Path(found.folder)
    path = folder / found.skill_name
    directory = str(folder)  # as a summary spells it: `./x` is `x`
    try:
        skill = parse_skill(read_skill_bytes(path), path, directory=folder)
    except Exception:  # unreadable, or a bug met on it: validating it in full reports which
        skill = None
    if skill is not None and is_loadable(skill, skill.problems):
        return (None, directory, str(path), skill.name, skill.description, True, None)
    validated = _validate_folder(found, target)
    if _is_crash(validated):
        return validated
    summary = decode(folder, validated)
    first = summary.first_problem
    kept = (
        (first.code, first.severity.value, first.message, first.line, first.column, first.file,
         first.field) if first is not None else None
    )
    return (None, directory, str(path), summary.name, summary.description, summary.loadable, kept)


def _header(root: Path, entry: tuple[Any, ...]) -> SkillHeader | SkillSummary:
    if entry[0] is not None:  # a skill whose validation crashed
        return decode(root, entry)
    _, folder, skill_file, name, description, loadable, kept = entry
    first = None
    if kept is not None:
        code, severity, message, line, column, file, field_name = kept
        first = Diagnostic(code, Severity(severity), message, line, column, file=file,
                           field=field_name)
    return SkillHeader(folder, skill_file, name, description, loadable, first)


def _scan_headers(root: SkillRoot, cache: ScanCache | None, notices: list[RootNotice]) -> list[
    SkillHeader | SkillSummary
]:
    """The headers of the skills below a folder. The cache keeps the walk's memo too, under a
    key no path has."""
    path = root.path
    memo_key = f"\0walk\0{root.include_hidden}\0{path}"
    memo = WalkMemo(cache.get(memo_key, ()) if cache is not None else None)
    found: list[SkillHeader | SkillSummary] = []
    seen: set[str] = set()
    with _Validation(root, cache, SPEC, _header_entries) as headers:
        for item in walk_skills(path, root.include_hidden, None, notices, "skill-file", memo):
            headers.add(item)
        for key, entry in headers.entries():
            seen.add(key)
            found.append(_header(path, entry))
    if cache is not None:
        cache.forget_missing(seen, str(path) + os.sep)
        if memo.fresh != memo.kept:
            cache.put(memo_key, (), memo.fresh)
    return found


def collect_headers(paths: list[Path], cache: ScanCache | None = None) -> Headers:
    """The header of every skill the paths name, in the order `collect` gives their summaries.
    Paths that cannot be read become `problems`. `cache` is a `ScanCache` of target HEADERS."""
    collected = Headers()
    roots: list[tuple[SkillRoot, list[SkillHeader | SkillSummary]]] = []
    for path in paths:
        root = root_for(path)
        if isinstance(root, str):
            collected.problems.append(root)
            continue
        if not root.path.is_dir():  # an archive, or neither: read and judged in full
            scan = scan_root(root)
            collected.notices.extend(scan.notices)
            if scan.error is not None:
                collected.problems.append(scan.error)
                continue
            found: list[SkillHeader | SkillSummary] = list(scan.skills)
        else:
            found = _scan_headers(root, cache, collected.notices)
            if not found:
                found = [validate_skill(missing_skill_file(path)).summary(path)]
        roots.append((root, found))
    _judge_duplicates(roots)
    for _, found in roots:
        collected.skills.extend(
            item if isinstance(item, SkillHeader) else SkillHeader.of(item) for item in found
        )
    if cache is not None:
        cache.save()
    return collected


def _judge_duplicates(roots: list[tuple[SkillRoot, list[SkillHeader | SkillSummary]]]) -> None:
    """Validate in full every skill whose name another skill also uses, and add the duplicate
    name's warning to each, as `mark_duplicates` does for a validated library."""
    counts: dict[str, int] = {}
    for _, found in roots:
        for item in found:
            if item.name:
                counts[item.name] = counts.get(item.name, 0) + 1
    if all(count == 1 for count in counts.values()):
        return
    scans: list[RootScan] = []
    places: list[list[int]] = []
    for root, found in roots:
        scan, where = RootScan(root), []
        for position, item in enumerate(found):
            if item.name and counts[item.name] > 1:
                scan.skills.append(_validated(root.path, item))
                where.append(position)
        scans.append(scan)
        places.append(where)
    mark_duplicates(scans)
    for (_, found), scan, where in zip(roots, scans, places, strict=True):
        for position, summary in zip(where, scan.skills, strict=True):
            found[position] = summary


def _validated(root: Path, item: SkillHeader | SkillSummary) -> SkillSummary:
    if isinstance(item, SkillSummary):
        return item
    folder = Path(item.directory)
    skill = load_skill_file(folder, os.path.basename(item.skill_file))
    return validate_skill(skill).summary(root)
