"""What a skill folder (or a skill inside a zip archive) holds, for the library tree.

Read when the user expands a skill, not while scanning: a library of 10,000 skills lists none of
their files until asked.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import ClassVar

from studio.skills.files import list_skill_files, zip_skill_dirs
from studio.skills.model import SKILL_FILE
from studio.skills.summary import SkillSummary

STANDARD_FOLDERS = ("scripts", "references", "assets")


@dataclass(frozen=True, slots=True)
class Entry:
    """A file or folder of a skill, relative to the skill's folder.

    Attributes:
        STANDARD_FOLDERS: the folders the spec names, in the order the tree shows them."""

    STANDARD_FOLDERS: ClassVar[tuple[str, ...]] = STANDARD_FOLDERS

    relative: PurePosixPath
    is_dir: bool = False


def skill_entries(summary: SkillSummary) -> list[Entry]:
    """The skill's SKILL.md, the standard folders it has, and every other file and folder in it
    (leaving out skills nested inside it). An unreadable folder or archive lists only SKILL.md."""
    skill_file = Entry(PurePosixPath(summary.skill_file.name or SKILL_FILE))
    if summary.read_only:
        others = _zip_entries(summary)
    else:
        others = [Entry(PurePosixPath(name), True) for name in STANDARD_FOLDERS
                  if (summary.directory / name).is_dir()]
        others += [Entry(file.path) for file in list_skill_files(summary.directory)]
    return [skill_file, *(entry for entry in others if entry.relative != skill_file.relative)]


def _zip_entries(summary: SkillSummary) -> list[Entry]:
    archive_path = summary.root
    inside = (summary.directory.relative_to(archive_path).as_posix()
              if summary.directory != archive_path else ".")
    prefix = "" if inside == "." else inside + "/"
    found: list[Entry] = []
    try:
        with zipfile.ZipFile(archive_path) as archive:
            nested = [d + "/" for d in zip_skill_dirs(archive)
                      if d != inside and d != "." and d.startswith(prefix)]
            for name in archive.namelist():
                if not name.startswith(prefix) or name == prefix:
                    continue
                if any(name.startswith(other) for other in nested):
                    continue
                relative = name[len(prefix):]
                found.append(Entry(PurePosixPath(relative.rstrip("/")), relative.endswith("/")))
    except (OSError, zipfile.BadZipFile):
        return []
    return found
