"""Turning command-line paths (a skill folder, a SKILL.md, a folder of skills, a zip) into scans."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.skills.checks.validate import validate_skill
from studio.skills.clients import SPEC
from studio.skills.files import kind_of_mode, missing_skill_file
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE, RootNotice
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.entries import ScannedSkill, checked, checked_entry, decode, encode
from studio.skills.scan.roots import (
    RootScan,
    SkillRoot,
    mark_duplicates,
    scan_entries,
)
from studio.skills.scan.stamps import Stamp, stamp_of
from studio.skills.scan.units import Piece, PieceSink, Render, scan_split
from studio.skills.scan.walk import Found
from studio.skills.scan.zippath import is_zip_file
from studio.skills.summary import SkillSummary


@dataclass(slots=True)
class Collected:
    """The skills the paths name, what was wrong with the paths, what the walk found about the
    roots (links it did not follow), and the stamps of every file and folder the findings
    depend on (`studio.skills.scan.stamps`)."""

    skills: list[SkillSummary] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notices: list[RootNotice] = field(default_factory=list)
    stamps: list[Stamp] = field(default_factory=list)


def root_for(path: Path) -> SkillRoot | str:
    """The root to scan for a command-line path, or what is wrong with the path."""
    if not path.exists():
        return f"{path}: no such file or folder"
    if path.name in (SKILL_FILE, LOWERCASE_SKILL_FILE) and not path.is_dir():
        return SkillRoot(path.parent)  # a FIFO or device too: reading it then reports SK006
    if path.is_file() and not is_zip_file(path):
        return f"{path}: not a skill folder, a SKILL.md or a .zip or .skill archive of skills"
    if not path.is_dir() and not path.is_file():
        # Opening a FIFO named like an archive would wait for a writer for ever.
        return f"{path}: {kind_of_mode(path.stat().st_mode)}, not a skill folder or an archive"
    return SkillRoot(path)


def scan(
    paths: list[Path],
    cache: ScanCache | None = None,
    target: str = SPEC,
    *,
    each: Callable[[Path, ScannedSkill], None] | None = None,
    stamps: Callable[[list[Stamp]], None] | None = None,
) -> Collected:
    """Validate every skill the paths name, as `target` judges them, and mark the names more
    than one of them uses. Paths that cannot be read become `problems`.

    With `each`, for a caller that streams: each skill goes to it with its root, in order, as
    soon as it is validated, and the result keeps no skills (see `scan_entries`); duplicate
    names are then the caller's to mark (`duplicate_warning`). With `stamps`, the stamps go to
    it as the walk reads them (400,000 of them on 100,000 skills), not into the result."""
    if each is not None:
        make = ScannedSkill._make
        return _scan(paths, lambda root, entry: each(root, make(entry)), cache, target, stamps)
    skills: list[SkillSummary] = []
    collected = _scan(paths, lambda root, entry: skills.append(decode(root, entry)), cache, target,
                      stamps)
    found = RootScan(SkillRoot(Path()), skills)
    mark_duplicates([found])
    collected.skills = found.skills
    return collected


def scan_pieces(
    paths: list[Path], render: Render[Piece], sink: PieceSink[Piece], target: str = SPEC
) -> Collected:
    """`scan` without a cache for a caller that only writes a report: the skills go to `sink`
    as pieces `render` made of them, in order, rendered in the worker processes that validated
    them (`studio.skills.scan.units`). Duplicate names are the caller's to mark."""
    collected = Collected()
    for path in paths:
        collected.stamps.append(stamp_of(str(path)))
        root = root_for(path)
        if isinstance(root, str):
            collected.problems.append(root)
            continue
        if root.is_zip or not path.is_dir():
            sink.mark()
            scan = scan_entries(root, lambda entry: sink.add_piece(render([checked_entry(entry)])), None,
                                target=target)
            count = -1
        else:
            scan, count = scan_split(root, render, sink, target)
        collected.stamps.extend(scan.folders)
        collected.notices.extend(scan.notices)
        if scan.error is not None:
            collected.problems.append(scan.error)
            continue
        if not count:
            missing = validate_skill(missing_skill_file(path), target)
            sink.add_piece(render([checked(missing)]))
    return collected


def _scan(
    paths: list[Path],
    on_entry: Callable[[Path, tuple[Any, ...]], None],
    cache: ScanCache | None,
    target: str,
    stamps: Callable[[list[Stamp]], None] | None = None,
) -> Collected:
    """`scan`, each skill going to `on_entry` as its root and cache tuple."""
    collected = Collected()
    keep = collected.stamps.extend if stamps is None else stamps

    def walked(found: Found) -> None:
        # A folder that could not be fingerprinted gets a stamp no folder has: never unchanged.
        keep(list(found.fingerprint) or [(found.folder, -2, -2, -2)])

    for path in paths:
        keep([stamp_of(str(path))])
        root = root_for(path)
        if isinstance(root, str):
            collected.problems.append(root)
            continue
        count = 0

        def counted(entry: tuple[Any, ...], root_path: Path = root.path) -> None:
            nonlocal count
            count += 1
            on_entry(root_path, entry)

        scan = scan_entries(root, counted, cache, target=target,
                            on_walked=walked if cache is not None else None)
        keep(scan.folders)
        collected.notices.extend(scan.notices)
        if scan.error is not None:
            collected.problems.append(scan.error)
            continue
        if not count and path.is_dir():
            missing = validate_skill(missing_skill_file(path), target)
            on_entry(path, encode(missing.summary(path)))
    if cache is not None:
        cache.save()
    return collected
