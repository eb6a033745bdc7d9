"""Verified served skills written where the rest of the studio can read them: one zip archive per
server in the cache's `served-skills/` folder (private to the user).

A zip, because a zip root is what the studio already treats as read-only everywhere: the library
and the editor show it without offering to change it, fixes are not applied to it, and the agent
runs a script of it from a read-only unpacked copy (`UnpackedSkills`), so no script can rewrite
what the next run loads. The archive is written to a temporary file and renamed, so a reader
never sees half of it."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from studio.fsutil import atomic_write_bytes
from studio.paths import cache_dir
from studio.skills.served.manifest import ServedSkill
from studio.skills.served.source import ServedSource

FOLDER = "served-skills"
_EPOCH = (1980, 1, 1, 0, 0, 0)


def served_folder() -> Path:
    """The cache folder of served skills, made private to the user."""
    folder = cache_dir() / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def materialise(folder: Path, source: ServedSource, skills: list[ServedSkill],
                files: dict[str, dict[str, bytes]]) -> Path:
    """Write the verified `files` of `skills` (by name, then path) as `<key>.zip` in `folder`,
    each skill in a folder of its name; the archive's path."""
    target = folder / f"{source.key}.zip"
    buffer = io.BytesIO()  # bounded: a server's files are fetched up to `Limits.total_bytes`
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for skill in skills:
            for path, data in sorted(files[skill.name].items()):
                info = zipfile.ZipInfo(f"{skill.name}/{path}", _EPOCH)
                info.external_attr = 0o100444 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
    atomic_write_bytes(target, buffer.getvalue(), durable=False)
    return target
