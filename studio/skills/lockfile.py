"""A skill root's record of what was installed into it from where: `skills-lock.json`.

Each install is one entry: the URL, the archive's sha256, the time and the skill folders it wrote.
`studio install --update` reads it to fetch each URL again; the library reads it to show where a
skill came from. A damaged file reads as empty (and says so) rather than stopping an install.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.fsutil import atomic_write_text

LOCK_FILE = "skills-lock.json"
LOCK_VERSION = 1


@dataclass(frozen=True, slots=True)
class InstallRecord:
    url: str
    sha256: str
    installed_at: str
    skills: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "sha256": self.sha256, "installed_at": self.installed_at,
                "skills": list(self.skills)}


def read_lock(root: Path) -> list[InstallRecord]:
    """The installs recorded in `root`, oldest first; [] when there is no readable record."""
    try:
        data = json.loads((root / LOCK_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    installs = data.get("installs") if isinstance(data, dict) else None
    records: list[InstallRecord] = []
    for item in installs if isinstance(installs, list) else []:
        if not isinstance(item, dict):
            continue
        url, digest, when, skills = (item.get(k) for k in ("url", "sha256", "installed_at", "skills"))
        if not (isinstance(url, str) and isinstance(digest, str) and isinstance(when, str)
                and isinstance(skills, list) and all(isinstance(s, str) for s in skills)):
            continue
        records.append(InstallRecord(url, digest, when, tuple(skills)))
    return records


def record_install(root: Path, record: InstallRecord) -> None:
    """Add `record`, replacing an earlier install from the same URL, and take its skills out of
    any other install's list (they now come from this one)."""
    kept: list[InstallRecord] = []
    for old in read_lock(root):
        if old.url == record.url:
            continue
        rest = tuple(skill for skill in old.skills if skill not in record.skills)
        if rest:
            kept.append(InstallRecord(old.url, old.sha256, old.installed_at, rest))
    kept.append(record)
    text = json.dumps(
        {"version": LOCK_VERSION, "installs": [r.to_json() for r in kept]}, indent=2,
        ensure_ascii=False,
    )
    atomic_write_text(root / LOCK_FILE, text + "\n")


def origins(root: Path) -> dict[str, str]:
    """Each installed skill folder's name and the URL it came from."""
    return {skill: record.url for record in read_lock(root) for skill in record.skills}
