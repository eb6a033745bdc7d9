"""Which commit each skill in a skill folder was last written from, on this machine.

`skills-lock.json` says what a project wants (it is shared, committed, pulled); this small file
beside the installed skills (`.agents/skills/.studio-installed.json`) says what was last put
there, so `studio sync --check` can tell a skill that is not at the commit the lock file now names
(a teammate updated the lock, this copy was not synced) from one whose files were edited.

It is a note, never an instruction: a value that is not a whole commit id or a hash is ignored,
and a file that cannot be read is read as empty (nothing is fetched or written because of it).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from studio.fsutil import atomic_write_text
from studio.skills.install.gitvalues import commit_problem

INSTALLED_FILE = ".studio-installed.json"


def installed_commits(into: Path) -> dict[str, str]:
    """Each skill's name and the whole commit id it was last written from."""
    try:
        data = json.loads((into / INSTALLED_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("skills"), dict):
        return {}
    found: dict[str, str] = {}
    for name, entry in data["skills"].items():
        commit = entry.get("commit") if isinstance(entry, dict) else None
        if isinstance(name, str) and commit_problem(commit) is None:
            found[name] = str(commit)
    return found


def note_installed(into: Path, commits: dict[str, str]) -> None:
    """Record that each named skill in `into` was just written from its commit ("" for a
    source without one: its earlier note is dropped). Failing to write the note fails nothing."""
    known = installed_commits(into)
    if not any(commit or name in known for name, commit in commits.items()):
        return
    for name, commit in commits.items():
        if commit:
            known[name] = commit
        else:
            known.pop(name, None)
    text = json.dumps({"version": 1, "skills": {name: {"commit": known[name]}
                                               for name in sorted(known)}}, indent=2) + "\n"
    with contextlib.suppress(OSError):
        atomic_write_text(into / INSTALLED_FILE, text)
