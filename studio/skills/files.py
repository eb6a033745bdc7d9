"""Reading skills from disk and from zip archives into `Skill` objects."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

from studio.skills.model import (
    LOWERCASE_SKILL_FILE,
    SKILL_FILE,
    Diagnostic,
    Severity,
    Skill,
    SkillFile,
    Span,
)
from studio.skills.parse import MAX_SKILL_BYTES, parse_skill

MAX_LISTED_FILES = 2000
MAX_DEPTH = 8
SKIPPED_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", ".mypy_cache"})


def skill_file_in(names: set[str] | list[str]) -> str | None:
    if SKILL_FILE in names:
        return SKILL_FILE
    if LOWERCASE_SKILL_FILE in names:
        return LOWERCASE_SKILL_FILE
    return None


def _starts_with_shebang(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4)
    except OSError:
        return False
    return head.startswith(b"#!") or head == b"\x7fELF"


# A folder's entries as (name, is a folder, not following links), sorted by name.
Listing = tuple[tuple[str, bool], ...]


def _listing(folder: str) -> Listing | None:
    try:
        with os.scandir(folder) as entries:
            found = list(entries)
    except OSError:
        return None
    listing = []
    for entry in found:
        try:
            listing.append((entry.name, entry.is_dir(follow_symlinks=False)))
        except OSError:
            continue
    listing.sort()
    return tuple(listing)


def list_skill_files(directory: Path, first_level: Listing | None = None) -> tuple[SkillFile, ...]:
    """Every file below a skill folder but SKILL.md, without following links out of it.

    `first_level` is the folder's own listing when the caller has already read it."""
    found: list[SkillFile] = []
    stack: list[tuple[str, str, int, Listing | None]] = [(str(directory), "", 0, first_level)]
    while stack and len(found) < MAX_LISTED_FILES:
        folder, prefix, depth, listing = stack.pop()
        if listing is None:
            listing = _listing(folder)
            if listing is None:
                continue
        for name, is_dir in listing:
            relative = f"{prefix}{name}"
            path = os.path.join(folder, name)
            if is_dir:
                if depth < MAX_DEPTH and name not in SKIPPED_DIRS:
                    stack.append((path, relative + "/", depth + 1, None))
                continue
            if not prefix and name in (SKILL_FILE, LOWERCASE_SKILL_FILE):
                continue
            try:
                info = os.stat(path)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            in_scripts = relative.startswith("scripts/")
            found.append(
                SkillFile(
                    PurePosixPath(relative),
                    info.st_size,
                    bool(info.st_mode & 0o111),
                    _starts_with_shebang(path) if in_scripts else None,
                )
            )
    found.sort(key=lambda file: str(file.path))
    return tuple(found)


def missing_skill_file(directory: Path) -> Skill:
    skill = Skill(
        path=directory / SKILL_FILE,
        directory=directory,
        dir_name=directory.name,
        source="",
        frontmatter=None,
        body="",
        body_span=Span(1, 1, 1, 1),
    )
    skill.problems.append(
        Diagnostic(
            "SK004", Severity.ERROR,
            f"no SKILL.md in {directory}: a skill folder needs one",
        )
    )
    return skill


def _read_bytes(path: Path) -> bytes:
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        size = os.fstat(descriptor).st_size
        # Asking for exactly what is there spares allocating a 1 MiB buffer per small file.
        # One read: a regular file gives all that is asked of it, and one byte more than 1 MiB
        # is enough to tell that it is too large.
        return os.read(descriptor, min(size, MAX_SKILL_BYTES) + 1)
    finally:
        os.close(descriptor)


def load_skill(path: Path) -> Skill:
    """Read a skill from its folder or its SKILL.md. An unreadable file becomes a diagnostic."""
    path = Path(path)
    if path.is_dir():
        directory = path
        try:
            listing = os.listdir(directory)
        except OSError as exc:
            skill = missing_skill_file(directory)
            skill.problems[0] = Diagnostic(
                "SK004", Severity.ERROR, f"cannot read the folder {directory}: {exc.strerror}"
            )
            return skill
        file_name = skill_file_in(listing)
        if file_name is None:
            return missing_skill_file(directory)
        return load_skill_file(directory, file_name)
    return load_skill_file(path.parent, path.name)


def load_skill_file(directory: Path, file_name: str, listing: Listing | None = None) -> Skill:
    """Read a skill whose SKILL.md (or skill.md) is already known to be `directory / file_name`;
    `listing` is the folder's listing when the caller has already read it."""
    skill_path = directory / file_name
    files = list_skill_files(directory, listing)
    try:
        data = _read_bytes(skill_path)
    except OSError as exc:
        skill = missing_skill_file(directory)
        skill.path = skill_path
        skill.problems[0] = Diagnostic(
            "SK004", Severity.ERROR, f"cannot read {skill_path}: {exc.strerror or exc}"
        )
        return skill
    return parse_skill(data, skill_path, directory=directory, files=files)


def zip_skill_dirs(archive: zipfile.ZipFile) -> list[str]:
    """The folders inside an archive that hold a SKILL.md (or skill.md), as archive paths."""
    by_dir: dict[str, list[str]] = {}
    for member in archive.namelist():
        pure = PurePosixPath(member)
        if pure.name in (SKILL_FILE, LOWERCASE_SKILL_FILE) and not member.endswith("/"):
            by_dir.setdefault(str(pure.parent), []).append(pure.name)
    return sorted(by_dir)


def load_zip_skills(zip_path: Path) -> list[Skill]:
    """Every skill inside a zip archive, read-only. Raises OSError/zipfile.BadZipFile on a bad zip."""
    skills: list[Skill] = []
    with zipfile.ZipFile(zip_path) as archive:
        infos = archive.infolist()
        for folder in zip_skill_dirs(archive):
            prefix = "" if folder == "." else folder + "/"
            names = [info.filename[len(prefix):] for info in infos
                     if info.filename.startswith(prefix)]
            file_name = skill_file_in(names) or SKILL_FILE
            files: list[SkillFile] = []
            for info in infos:
                if not info.filename.startswith(prefix) or info.is_dir():
                    continue
                relative = info.filename[len(prefix):]
                if relative == file_name:
                    continue
                mode = info.external_attr >> 16
                shebang: bool | None = None
                if relative.startswith("scripts/"):
                    with archive.open(info) as handle:
                        head = handle.read(4)
                    shebang = head.startswith(b"#!") or head == b"\x7fELF"
                files.append(SkillFile(PurePosixPath(relative), info.file_size,
                                       bool(mode & 0o111), shebang))
            info = archive.getinfo(prefix + file_name)
            with archive.open(info) as handle:
                data = handle.read(MAX_SKILL_BYTES + 1)
            directory = zip_path / folder if folder != "." else zip_path
            skills.append(parse_skill(data, directory / file_name, directory=directory,
                                      files=tuple(files), read_only=True))
    return skills
