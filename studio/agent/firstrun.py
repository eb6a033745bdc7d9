"""What a skill's scripts hold that its user should read before the first run: the threat
findings (SK5xx, `studio.threatscan`, ranked; `low` and above) of the files a command runs, once
per skill per session, as warnings of the approval that run then needs."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from studio.textshow import shown_line
from studio.threatscan import scan_file

THREAT_KIND = "threat"
# A command names few files; a hostile one naming thousands is not read file by file.
MAX_FILES = 8


def _named_files(cwd: Path, command: str) -> list[str]:
    """The files inside `cwd` that the command's words name, relative to it, in order."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        words = command.split()
    base = os.path.realpath(cwd)
    found: list[str] = []
    for word in words:
        if not word or word.startswith("-") or "\x00" in word:
            continue
        path = os.path.realpath(os.path.join(base, word))
        if not path.startswith(base + os.sep) or not os.path.isfile(path):
            continue
        relative = os.path.relpath(path, base).replace(os.sep, "/")
        if relative not in found:
            found.append(relative)
        if len(found) >= MAX_FILES:
            break
    return found


class FirstRunThreats:
    """Which skills' threat findings have been shown in this session.

    Attributes:
        shown: the skills whose findings an approval has shown.
        clean: the (skill, file) pairs read and found with none, not read again."""

    def __init__(self) -> None:
        self.shown: set[str] = set()
        self.clean: set[tuple[str, str]] = set()

    def warnings(self, skill: str, cwd: Path, command: str) -> tuple[tuple[str, str], ...]:
        """The (kind, message) warnings of the files `command` runs, the first time a run of
        `skill` names a file with findings in this session; () after that, and when none has."""
        if skill in self.shown:
            return ()
        found: list[tuple[str, str]] = []
        for relative in _named_files(cwd, command):
            if (skill, relative) in self.clean:
                continue
            findings = scan_file(cwd, relative)
            if not findings:
                self.clean.add((skill, relative))
            # Shown, never obeyed: the file's name and the line quoted come from the skill.
            found.extend((THREAT_KIND, f"{shown_line(f.file)}:{f.line}:{f.column}: {f.severity} "
                          f"{f.code} {shown_line(f.message)}") for f in findings)
        if found:
            self.shown.add(skill)
        return tuple(found)
