"""Turning command-line paths (a skill folder, a SKILL.md, a folder of skills, a zip) into scans."""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studio.skills.cache import STAMP, Fingerprint, ScanCache
from studio.skills.files import missing_skill_file
from studio.skills.library import RootScan, SkillRoot, mark_duplicates, scan_root, walk_root
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE
from studio.skills.summary import SkillSummary
from studio.skills.validate import validate_skill


@dataclass(slots=True)
class Collected:
    skills: list[SkillSummary] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    walks: dict[Path, list[tuple[str, str, Fingerprint]]] = field(default_factory=dict)


Walk = list[tuple[str, str, Fingerprint]]


def root_for(path: Path) -> SkillRoot | str:
    """The root to scan for a command-line path, or what is wrong with the path."""
    if not path.exists():
        return f"{path}: no such file or folder"
    if path.is_file() and path.name in (SKILL_FILE, LOWERCASE_SKILL_FILE):
        return SkillRoot(path.parent)
    if path.is_file() and path.suffix.lower() != ".zip":
        return f"{path}: not a skill folder, a SKILL.md or a .zip archive of skills"
    return SkillRoot(path)


def walk_paths(paths: list[Path]) -> dict[Path, Walk]:
    """The walk of every folder root the paths name (zips and bad paths have none)."""
    walks: dict[Path, Walk] = {}
    for path in paths:
        root = root_for(path)
        if isinstance(root, SkillRoot) and not root.is_zip:
            walks[path] = walk_root(root)
    return walks


def signature(paths: list[Path], walks: dict[Path, Walk]) -> bytes:
    """A digest of everything a validation of these paths depends on: each skill's fingerprint,
    each archive's size and mtime, and which paths are missing."""
    parts: list[object] = [STAMP]
    for path in paths:
        if path in walks:
            parts.append((str(path), tuple(walks[path])))
            continue
        try:
            info = path.stat()
            parts.append((str(path), path.is_file(), info.st_size, info.st_mtime_ns))
        except OSError:
            parts.append((str(path), None))
    return hashlib.blake2b(marshal.dumps(parts), digest_size=16).digest()


def collect(
    paths: list[Path],
    cache: ScanCache | None = None,
    walks: dict[Path, Walk] | None = None,
    on_skill: Callable[[SkillSummary], None] | None = None,
) -> Collected:
    """Validate every skill the paths name. Paths that cannot be read become `problems`.

    `on_skill` sees each summary as soon as it is ready; the ones in the result may differ from
    those it saw where a later step added to them (a duplicate name)."""
    collected = Collected()
    scans: list[RootScan] = []
    for path in paths:
        root = root_for(path)
        if isinstance(root, str):
            collected.problems.append(root)
            continue
        scan = scan_root(root, cache, on_skill, found=(walks or {}).get(path))
        if not root.is_zip:
            collected.walks[path] = scan.walk
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
