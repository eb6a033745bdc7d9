"""Turning command-line paths (a skill folder, a SKILL.md, a folder of skills, a zip) into scans."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from studio.skills.cache import ScanCache
from studio.skills.files import missing_skill_file
from studio.skills.library import RootScan, SkillRoot, mark_duplicates, scan_root
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE
from studio.skills.summary import SkillSummary
from studio.skills.validate import validate_skill


@dataclass(slots=True)
class Collected:
    skills: list[SkillSummary] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def collect(paths: list[Path], cache: ScanCache | None = None) -> Collected:
    """Validate every skill the paths name. Paths that cannot be read become `problems`."""
    collected = Collected()
    scans: list[RootScan] = []
    for path in paths:
        if not path.exists():
            collected.problems.append(f"{path}: no such file or folder")
            continue
        if path.is_file() and path.name in (SKILL_FILE, LOWERCASE_SKILL_FILE):
            root = SkillRoot(path.parent)
        elif path.is_file() and path.suffix.lower() != ".zip":
            collected.problems.append(
                f"{path}: not a skill folder, a SKILL.md or a .zip archive of skills"
            )
            continue
        else:
            root = SkillRoot(path)
        scan = scan_root(root, cache)
        if scan.error is not None:
            collected.problems.append(scan.error)
            continue
        if not scan.skills and path.is_dir():
            summary = SkillSummary.from_result(path, validate_skill(missing_skill_file(path)))
            scan.skills.append(summary)
        scans.append(scan)
    mark_duplicates(scans)
    for scan in scans:
        collected.skills.extend(scan.skills)
    if cache is not None:
        cache.save()
    return collected
