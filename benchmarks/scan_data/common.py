"""What every case shares: a skill is a name, a class, whether it is subtle, and its files."""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    name: str
    kind: str  # the attack family, or "benign"
    subtle: bool
    files: dict[str, str | bytes]


def skill_md(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n"


def _path(name: str) -> str:
    folder, _, file = name.replace("__", "/").rpartition("/")
    if "_" in file.lstrip("_"):
        stem, _, extension = file.rpartition("_")
        file = f"{stem}.{extension}"
    return f"{folder}/{file}" if folder else file


def case(name: str, kind: str, description: str, body: str, subtle: bool = False,
         **files: str | bytes) -> Case:
    """A case; `files` maps names to contents, a name written as a keyword: `__` for `/`, the
    last `_` of the file's own name for its `.` (`scripts__run_sh` is `scripts/run.sh`)."""
    named = {_path(name): text for name, text in files.items()}
    return Case(name, kind, subtle, {"SKILL.md": skill_md(name, description, body), **named})
