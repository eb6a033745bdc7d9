"""Turning command-line paths (a skill folder, a SKILL.md, a folder of skills, a zip) into scans."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studio.skills.checks.validate import validate_skill
from studio.skills.files import missing_skill_file
from studio.skills.library.cache import SPEC, ScanCache
from studio.skills.library.roots import (
    RootScan,
    SkillRoot,
    mark_duplicates,
    scan_root,
)
from studio.skills.library.stamps import Stamp, stamp_of
from studio.skills.library.summary import SkillSummary
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE, RootNotice


@dataclass(slots=True)
class Collected:
    """The skills the paths name, what was wrong with the paths, what the walk found about the
    roots (links it did not follow), and the stamps of every file and folder the findings
    depend on (`studio.skills.library.stamps`)."""

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
    if path.is_file() and path.suffix.lower() != ".zip":
        return f"{path}: not a skill folder, a SKILL.md or a .zip archive of skills"
    return SkillRoot(path)


def collect(
    paths: list[Path],
    cache: ScanCache | None = None,
    on_skill: Callable[[SkillSummary], None] | None = None,
    target: str = SPEC,
) -> Collected:
    """Validate every skill the paths name, as `target` judges them. Paths that cannot be read
    become `problems`.

    `on_skill` sees each summary as soon as it is ready; the ones in the result may differ from
    those it saw where a later step added to them (a duplicate name)."""
    collected = Collected()
    scans: list[RootScan] = []
    for path in paths:
        collected.stamps.append(stamp_of(str(path)))
        root = root_for(path)
        if isinstance(root, str):
            collected.problems.append(root)
            continue
        scan = scan_root(root, cache, on_skill, target=target)
        collected.stamps.extend(scan.folders)
        collected.notices.extend(scan.notices)
        for found in scan.walk:
            # A folder that could not be fingerprinted gets a stamp no folder has: never unchanged.
            collected.stamps.extend(found.fingerprint or ((found.folder, -2, -2, -2),))
        if scan.error is not None:
            collected.problems.append(scan.error)
            continue
        if not scan.skills and path.is_dir():
            summary = SkillSummary.from_result(path, validate_skill(missing_skill_file(path), target))
            scan.skills.append(summary)
        scans.append(scan)
    mark_duplicates(scans)
    for scan in scans:
        collected.skills.extend(scan.skills)
    if cache is not None:
        cache.save()
    return collected
