"""The settings that turn a skill off for a client, read as the client reads them (the sources are
in studio.skills.catalog.rules). Reading only: turning skills on and off is studio.skills.toggles.

A file that cannot be read is no reason to stop: its problem becomes a notice, and the catalog
goes on as if the file were absent.
"""

from __future__ import annotations

import fnmatch
import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.skills.toggles import ToggleError, claude_override

MAX_BYTES = 5_000_000


@dataclass(frozen=True, slots=True)
class Verdict:
    """A setting's say on one skill: `off` True (turned off), False (on), None (no source says
    which of two settings wins); `why` names the setting and its file."""

    off: bool | None
    why: str = ""


ON = Verdict(False)


@dataclass(slots=True)
class Switches:
    """What one client's settings say, for the project and user the catalog is for.

    Attributes:
        judge: the verdict on a skill, by its name and SKILL.md.
        notices: settings files that could not be read, and why.
        values: other settings read on the way (Claude Code's listing budget), by name.
    """

    judge: Callable[[str, Path], Verdict]
    notices: list[str] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)


def _text(path: Path, notices: list[str]) -> str | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        notices.append(f"{path} cannot be read ({exc.strerror or exc}); it was left out")
        return None
    if len(data) > MAX_BYTES:
        notices.append(f"{path} is larger than 5 MB; it was left out")
        return None
    return data.decode("utf-8-sig", errors="replace")


def _json(path: Path, notices: list[str]) -> dict[str, Any]:
    text = _text(path, notices)
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        notices.append(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); it was left out")
        return {}
    return data if isinstance(data, dict) else {}


# -- Claude Code --------------------------------------------------------------------------------

def claude(project: Path | None, home: Path, env: Mapping[str, str]) -> Switches:
    """`skillOverrides` in the local, project and user settings (the first that names a skill
    decides, as settings do), and the listing's budget settings."""
    files = [home / ".claude" / "settings.json"]
    if project is not None:
        files[:0] = [project / ".claude" / "settings.local.json",
                     project / ".claude" / "settings.json"]
    notices: list[str] = []
    values: dict[str, Any] = {}
    for path in reversed(files):
        data = _json(path, notices)
        for key in ("skillListingBudgetFraction", "skillListingMaxDescChars"):
            if key in data:
                values[key] = data[key]

    def judge(name: str, skill_file: Path) -> Verdict:
        for path in files:
            try:
                value = claude_override(path, name)
            except ToggleError:
                continue
            if value is None:
                continue
            if value == "name-only":
                return Verdict(False, f'skillOverrides "{name}": "name-only" in {path}')
            return Verdict(True, f'skillOverrides "{name}": "{value}" in {path}')
        return ON

    return Switches(judge, notices, values)


# -- Codex --------------------------------------------------------------------------------------

def _codex_entries(path: Path, notices: list[str]) -> list[dict[str, Any]]:
    text = _text(path, notices)
    if text is None:
        return []
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        notices.append(f"{path} is not valid TOML ({exc}); it was left out")
        return []
    skills = document.get("skills")
    entries = skills.get("config") if isinstance(skills, dict) else None
    return [entry for entry in entries if isinstance(entry, dict)] \
        if isinstance(entries, list) else []


def codex(project: Path | None, home: Path, env: Mapping[str, str]) -> Switches:
    """`[[skills.config]]` in the user's config.toml: an entry names a skill by `path` or by
    `name` (one of them; both or neither and it is ignored), and the last entry for a skill
    decides. A project's `.codex/config.toml` is not read for this."""
    codex_home = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME", "").strip() \
        else home / ".codex"
    config = codex_home / "config.toml"
    notices: list[str] = []
    entries = _codex_entries(config, notices)
    ignored = project / ".codex" / "config.toml" if project is not None else None
    project_entries = _codex_entries(ignored, []) if ignored is not None else []

    def matches(entry: dict[str, Any], name: str, skill_file: Path) -> bool:
        path, by_name = entry.get("path"), entry.get("name")
        if isinstance(path, str) and by_name is None:
            return os.path.realpath(os.path.expanduser(path)) == os.path.realpath(skill_file)
        return path is None and isinstance(by_name, str) and by_name.strip() == name

    def judge(name: str, skill_file: Path) -> Verdict:
        verdict = ON
        for entry in entries:
            if matches(entry, name, skill_file) and isinstance(entry.get("enabled"), bool):
                verdict = Verdict(not entry["enabled"],
                                  f"[[skills.config]] enabled = false in {config}"
                                  if not entry["enabled"] else "")
        if not verdict.off and any(matches(e, name, skill_file) and e.get("enabled") is False
                                   for e in project_entries):
            return Verdict(False, f"{ignored} turns it off, but Codex reads [[skills.config]] "
                                  "only from the user's config.toml (openai/codex issue 20210)")
        return verdict

    return Switches(judge, notices)


# -- Gemini CLI ---------------------------------------------------------------------------------

def gemini(project: Path | None, home: Path, env: Mapping[str, str]) -> Switches:
    """`skills.disabled` (names, any case) from the user's and the workspace's settings.json,
    both lists together; `skills.enabled: false` turns every skill off."""
    files = [home / ".gemini" / "settings.json"]
    if project is not None:
        files.append(project / ".gemini" / "settings.json")
    notices: list[str] = []
    disabled: dict[str, Path] = {}
    all_off: Path | None = None
    for path in files:
        skills = _json(path, notices).get("skills")
        if not isinstance(skills, dict):
            continue
        if skills.get("enabled") is False:
            all_off = path
        names = skills.get("disabled")
        for item in names if isinstance(names, list) else []:
            if isinstance(item, str):
                disabled.setdefault(item.lower(), path)

    def judge(name: str, skill_file: Path) -> Verdict:
        if all_off is not None:
            return Verdict(True, f"skills.enabled = false in {all_off}")
        if name.lower() in disabled:
            return Verdict(True, f"skills.disabled in {disabled[name.lower()]}")
        return ON

    return Switches(judge, notices)


# -- OpenCode -----------------------------------------------------------------------------------

def opencode(project: Path | None, home: Path, env: Mapping[str, str]) -> Switches:
    """`permission.skill` in opencode.json: `"deny"` for every skill, or patterns to
    allow/ask/deny. A name's own entry decides; patterns decide when they all agree; when they
    disagree no source says which wins (None)."""
    files = [home / ".config" / "opencode" / "opencode.json"]
    if project is not None:
        files.append(project / "opencode.json")
    notices: list[str] = []
    rules: dict[str, tuple[str, Path]] = {}
    for path in files:
        permission = _json(path, notices).get("permission")
        skill = permission.get("skill") if isinstance(permission, dict) else None
        if isinstance(skill, str):
            rules["*"] = (skill, path)
        elif isinstance(skill, dict):
            for pattern, action in skill.items():
                if isinstance(action, str):
                    rules[pattern] = (action, path)

    def judge(name: str, skill_file: Path) -> Verdict:
        if name in rules:
            action, path = rules[name]
            return Verdict(action == "deny", f'permission.skill "{name}": "deny" in {path}'
                           if action == "deny" else "")
        matching = {(action, path) for pattern, (action, path) in rules.items()
                    if fnmatch.fnmatchcase(name, pattern)}
        actions = {action == "deny" for action, _ in matching}
        if len(actions) > 1:
            return Verdict(None, "permission.skill patterns disagree on it, and no source says "
                                 "which OpenCode applies")
        if actions == {True}:
            return Verdict(True, f"permission.skill denies it in {sorted(matching)[0][1]}")
        return ON

    return Switches(judge, notices)


def _nothing(project: Path | None, home: Path, env: Mapping[str, str]) -> Switches:
    return Switches(lambda name, skill_file: ON)


READERS: dict[str, Callable[[Path | None, Path, Mapping[str, str]], Switches]] = {
    "claude-code": claude, "codex": codex, "gemini-cli": gemini, "opencode": opencode,
    "": _nothing,
}

__all__ = ["ON", "READERS", "Switches", "Verdict"]
