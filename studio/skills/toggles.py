"""Turning a skill off without deleting it, in the files the clients themselves read.

- Claude Code: `"skillOverrides": {"NAME": "off"}` in `.claude/settings.json` (the project) or
  `~/.claude/settings.json` (the user). The settings page does not document the key; its values
  (`off`: hidden from the model and the / menu, `user-invocable-only`, `name-only`) are those of
  anthropics/claude-code issue 56494 (Claude Code 2.1.129), read 2026-11-26. Turning a skill on
  removes its entry, so a value the studio does not know is only ever replaced on request.
- Codex: `[[skills.config]]` tables with `path` (the SKILL.md, absolute) or `name`, and
  `enabled = false`, in `~/.codex/config.toml` (https://developers.openai.com/codex/skills).
  A project's `.codex/config.toml` is written the same way, but Codex 0.125 ignores skill entries
  there (openai/codex issue 20210), which `ToggleState.note` says.
- Gemini CLI: the skill's name in `skills.disabled` in `.gemini/settings.json` (the workspace) or
  `~/.gemini/settings.json` (the user), as `/skills disable` writes it; names match without
  regard to case (google-gemini/gemini-cli packages/cli/src/utils/skillSettings.ts and
  packages/core/src/skills/skillManager.ts, commit 5411f11, read 2026-12-07). Gemini CLI allows
  comments in the file; the studio cannot keep them, so it leaves such a file alone and says so.
- OpenCode: `"permission": {"skill": {"NAME": "deny"}}` in the project's `opencode.json` or
  `~/.config/opencode/opencode.json` hides the skill from the agent
  (https://opencode.ai/docs/skills); of the patterns there (`*` any text, `?` one character) the
  last that matches decides (anomalyco/opencode packages/opencode/src/permission/evaluate.ts,
  read 2026-12-07).

No file is ever clobbered: keys the studio does not know are kept (tomlkit keeps the TOML's
comments and layout), the new text is written to a temporary file beside the old and renamed over
it, and a file that cannot be read or parsed stops the change with a message saying which file
and what is wrong, leaving it as it was.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import tomlkit
from tomlkit.exceptions import TOMLKitError

from studio.errors import StudioError
from studio.skills.clients import BY_KEY, RECORDS

# A client's key in the registry (studio.skills.clients) whose record names a toggle file.
Client = str
Scope = Literal["project", "user"]
CLIENT_TITLES = {record.key: record.title for record in RECORDS if record.toggles}
CODEX_PROJECT_NOTE = ("Codex 0.125 ignores [[skills.config]] in a project's .codex/config.toml "
                      "(openai/codex issue 20210); turn it off for the user to be sure")
MAX_BYTES = 5_000_000


class ToggleError(StudioError):
    """A settings file that cannot be read, parsed or written; nothing was changed."""


@dataclass(frozen=True, slots=True)
class ToggleState:
    """Whether one client, in one scope, has a skill turned off, and in which file.

    Attributes:
        value: the raw setting when it is not a plain on/off (a Claude Code override such as
            `user-invocable-only`), else "".
        note: what the user should know about this file ("" for nothing).
    """

    client: Client
    scope: Scope
    path: Path
    enabled: bool
    value: str = ""
    note: str = ""

    @property
    def label(self) -> str:
        return f"{CLIENT_TITLES[self.client]} ({self.scope})"


def settings_path(client: Client, scope: Scope, project: Path | None, home: Path) -> Path | None:
    """The file `client` reads for `scope` (None: a project scope without a project)."""
    record = BY_KEY[client]
    relative = record.toggles
    if scope == "user":
        return home / (record.user_toggles or relative)
    return project / relative if project is not None else None


def _read(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ToggleError(f"{path} cannot be read ({exc.strerror or exc}); nothing was changed"
                          ) from None
    if len(data) > MAX_BYTES:
        raise ToggleError(f"{path} is larger than 5 MB; nothing was changed")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ToggleError(f"{path} is not UTF-8 text (byte {exc.start}); nothing was changed"
                          ) from None


def _write(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path` and rename it over `path`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                out.write(text)
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ToggleError(f"{path} cannot be written ({exc.strerror or exc}); it was left as it "
                          "was") from None


# -- Claude Code ------------------------------------------------------------------------------------

def _claude_settings(path: Path) -> dict[str, Any]:
    text = _read(path)
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToggleError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}); fix it first, nothing was changed") from None
    if not isinstance(data, dict):
        raise ToggleError(f"{path} does not hold a JSON object; nothing was changed")
    overrides = data.get("skillOverrides")
    if overrides is not None and not isinstance(overrides, dict):
        raise ToggleError(f"{path}: `skillOverrides` is not an object; nothing was changed")
    return data


def claude_override(path: Path, name: str) -> str | None:
    """The skill's `skillOverrides` value in `path` (None: no entry, the skill is on)."""
    value = _claude_settings(path).get("skillOverrides", {}).get(name)
    return value if isinstance(value, str) else None


def set_claude(path: Path, name: str, enabled: bool) -> None:
    """Turn the skill off (`"off"`) or on (its entry removed) in a Claude Code settings file."""
    data = _claude_settings(path)
    overrides = data.get("skillOverrides")
    if enabled:
        if not overrides or name not in overrides:
            return
        del overrides[name]
    else:
        if overrides is None:
            overrides = data["skillOverrides"] = {}
        if overrides.get(name) == "off":
            return
        overrides[name] = "off"
    _write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# -- Codex --------------------------------------------------------------------------------------------

def _codex_config(path: Path) -> tomlkit.TOMLDocument:
    text = _read(path)
    try:
        document = tomlkit.parse(text or "")
    except TOMLKitError as exc:
        raise ToggleError(f"{path} is not valid TOML ({exc}); fix it first, nothing was changed"
                          ) from None
    skills = document.get("skills")
    if skills is not None and not isinstance(skills, dict):
        raise ToggleError(f"{path}: `skills` is not a table; nothing was changed")
    entries = skills.get("config") if skills is not None else None
    if entries is not None and not isinstance(entries, list):
        raise ToggleError(f"{path}: `skills.config` is not an array of tables; nothing was "
                          "changed")
    return document


def _entries(document: tomlkit.TOMLDocument) -> list[Any]:
    skills = document.get("skills")
    entries = skills.get("config") if skills is not None else None
    return list(entries) if entries is not None else []


def _matches(entry: Any, skill_file: Path, name: str) -> bool:
    if not isinstance(entry, dict):
        return False
    path = entry.get("path")
    if isinstance(path, str):
        return os.path.normpath(os.path.expanduser(path)) == os.path.normpath(str(skill_file))
    return entry.get("name") == name


def codex_enabled(path: Path, skill_file: Path, name: str) -> bool:
    """Whether `path`'s `[[skills.config]]` leaves the skill on (the last match decides)."""
    enabled = True
    for entry in _entries(_codex_config(path)):
        if _matches(entry, skill_file, name) and isinstance(entry.get("enabled"), bool):
            enabled = bool(entry["enabled"])
    return enabled


def set_codex(path: Path, skill_file: Path, name: str, enabled: bool) -> None:
    """Turn the skill off (a `[[skills.config]]` with its SKILL.md's path and `enabled = false`)
    or on (the entries naming it set to `enabled = true`)."""
    document = _codex_config(path)
    matching = [e for e in _entries(document) if _matches(e, skill_file, name)]
    if all(bool(e.get("enabled", True)) == enabled for e in matching) and (matching or enabled):
        return
    for entry in matching:
        entry["enabled"] = enabled
    if not matching:
        table = tomlkit.table()
        table.add("path", str(skill_file))
        table.add("enabled", False)
        skills = document.get("skills")
        if skills is None:
            skills = tomlkit.table(is_super_table=True)
            document.append("skills", skills)
        if "config" in skills:
            skills["config"].append(table)
        else:
            entries = tomlkit.aot()
            entries.append(table)
            skills.append("config", entries)
    _write(path, tomlkit.dumps(document))


# -- Gemini CLI -------------------------------------------------------------------------------------

def _json_settings(path: Path, client: str, command: str) -> dict[str, Any]:
    """The JSON object in `path` ({} when it is missing or blank); a file with comments, which
    `client` allows and the studio cannot keep, is refused with what to do instead."""
    text = _read(path)
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToggleError(
            f"{path} is not plain JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); if it "
            f"holds comments, which {client} allows and the studio cannot keep, {command} "
            "instead; nothing was changed") from None
    if not isinstance(data, dict):
        raise ToggleError(f"{path} does not hold a JSON object; nothing was changed")
    return data


def _gemini_settings(path: Path) -> dict[str, Any]:
    data = _json_settings(path, "Gemini CLI", "use `/skills disable NAME` in Gemini CLI")
    skills = data.get("skills")
    if skills is not None and not isinstance(skills, dict):
        raise ToggleError(f"{path}: `skills` is not an object; nothing was changed")
    disabled = skills.get("disabled") if skills is not None else None
    if disabled is not None and not (
            isinstance(disabled, list) and all(isinstance(n, str) for n in disabled)):
        raise ToggleError(f"{path}: `skills.disabled` is not a list of names; nothing was "
                          "changed")
    return data


def gemini_enabled(path: Path, name: str) -> bool:
    """Whether `path`'s `skills.disabled` leaves the skill on (names match in any case)."""
    disabled = (_gemini_settings(path).get("skills") or {}).get("disabled") or []
    return name.lower() not in {entry.lower() for entry in disabled}


def set_gemini(path: Path, skill_file: Path, name: str, enabled: bool) -> None:
    """Turn the skill off (its name added to `skills.disabled`) or on (every spelling of it
    taken out), as Gemini CLI's `/skills disable` and `/skills enable` do."""
    data = _gemini_settings(path)
    skills = data.get("skills")
    disabled: list[str] = list(skills.get("disabled") or []) if skills is not None else []
    kept = [entry for entry in disabled if entry.lower() != name.lower()]
    if enabled:
        if len(kept) == len(disabled):
            return
        assert skills is not None
        skills["disabled"] = kept
    else:
        if len(kept) != len(disabled):
            return
        if skills is None:
            skills = data["skills"] = {}
        skills["disabled"] = [*disabled, name]
    _write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# -- OpenCode -----------------------------------------------------------------------------------------

_ACTIONS = ("allow", "ask", "deny")


def _opencode_config(path: Path) -> dict[str, Any]:
    data = _json_settings(path, "OpenCode", "add `\"NAME\": \"deny\"` under `permission.skill` "
                          "by hand")
    permission = data.get("permission")
    if permission is not None and not isinstance(permission, dict):
        raise ToggleError(f"{path}: `permission` is not an object (the studio writes one rule "
                          "per skill there); nothing was changed")
    rules = permission.get("skill") if permission is not None else None
    if rules is not None and not (isinstance(rules, dict) and all(
            isinstance(action, str) and action in _ACTIONS for action in rules.values())):
        raise ToggleError(f"{path}: `permission.skill` is not an object of patterns and "
                          "`allow`, `ask` or `deny`; nothing was changed")
    return data


def _opencode_rules(data: dict[str, Any]) -> dict[str, str]:
    rules: dict[str, str] = (data.get("permission") or {}).get("skill") or {}
    return rules


def _pattern(pattern: str) -> re.Pattern[str]:
    """OpenCode's wildcard: `*` any text, `?` one character, everything else itself."""
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c)
                              for c in pattern), re.DOTALL)


def _denied(rules: dict[str, str], name: str) -> bool:
    action = "allow"
    for pattern, said in rules.items():
        if _pattern(pattern).fullmatch(name):
            action = said
    return action == "deny"


def opencode_enabled(path: Path, name: str) -> bool:
    """Whether `path`'s `permission.skill` leaves the skill to the agent (the last matching
    pattern decides; `ask` leaves it on)."""
    return not _denied(_opencode_rules(_opencode_config(path)), name)


def set_opencode(path: Path, skill_file: Path, name: str, enabled: bool) -> None:
    """Turn the skill off (`"NAME": "deny"`, last, so it decides) or on (its own rule taken
    out, and `"NAME": "allow"` added when a pattern would still deny it)."""
    data = _opencode_config(path)
    if _denied(_opencode_rules(data), name) != enabled:
        return
    if data.get("permission") is None:
        data["permission"] = {}
    if data["permission"].get("skill") is None:
        data["permission"]["skill"] = {}
    rules: dict[str, str] = data["permission"]["skill"]
    rules.pop(name, None)
    if not enabled or _denied(rules, name):
        rules[name] = "allow" if enabled else "deny"
    _write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# -- every client --------------------------------------------------------------------------------------

def _claude_state(path: Path, scope: Scope, name: str, skill_file: Path) -> ToggleState:
    value = claude_override(path, name)
    return ToggleState("claude-code", scope, path, value is None,
                       value if value not in (None, "off") else "")


def _codex_state(path: Path, scope: Scope, name: str, skill_file: Path) -> ToggleState:
    note = CODEX_PROJECT_NOTE if scope == "project" else ""
    return ToggleState("codex", scope, path, codex_enabled(path, skill_file, name), note=note)


def _gemini_state(path: Path, scope: Scope, name: str, skill_file: Path) -> ToggleState:
    return ToggleState("gemini-cli", scope, path, gemini_enabled(path, name))


def _opencode_state(path: Path, scope: Scope, name: str, skill_file: Path) -> ToggleState:
    return ToggleState("opencode", scope, path, opencode_enabled(path, name))


def _set_claude(path: Path, skill_file: Path, name: str, enabled: bool) -> None:
    set_claude(path, name, enabled)


# Each client with a toggle file in the registry: how to read its say on a skill, and how to
# change it.
_READERS: dict[Client, Callable[[Path, Scope, str, Path], ToggleState]] = {
    "claude-code": _claude_state, "codex": _codex_state, "gemini-cli": _gemini_state,
    "opencode": _opencode_state}
_WRITERS: dict[Client, Callable[[Path, Path, str, bool], None]] = {
    "claude-code": _set_claude, "codex": set_codex, "gemini-cli": set_gemini,
    "opencode": set_opencode}
if set(_READERS) != set(CLIENT_TITLES) or set(_WRITERS) != set(CLIENT_TITLES):
    raise ImportError(f"studio.skills.clients names toggle files for {sorted(CLIENT_TITLES)}, "
                      f"the toggles read {sorted(_READERS)}: give each its reader and writer here")


def skill_states(name: str, skill_file: Path, project: Path | None, home: Path
                 ) -> list[ToggleState | ToggleError]:
    """Each client's and scope's say on the skill, in the registry's order; a file that cannot
    be read is its error."""
    states: list[ToggleState | ToggleError] = []
    scopes: tuple[Scope, ...] = ("project", "user")
    for client in CLIENT_TITLES:
        for scope in scopes:
            path = settings_path(client, scope, project, home)
            if path is None:
                continue
            try:
                states.append(_READERS[client](path, scope, name, skill_file))
            except ToggleError as exc:
                states.append(exc)
    return states


def set_enabled(state: ToggleState, name: str, skill_file: Path, enabled: bool) -> None:
    """Turn the skill on or off in the file `state` names."""
    _WRITERS[state.client](state.path, skill_file, name, enabled)


def project_of(skill_directory: Path) -> Path | None:
    """The project a skill in a client's folder belongs to (`P/.claude/skills/NAME` -> P), or
    None for a skill elsewhere."""
    parent = skill_directory.parent
    if parent.name == "skills" and parent.parent.name.startswith("."):
        return parent.parent.parent
    return None


__all__ = ["CLIENT_TITLES", "ToggleError", "ToggleState", "claude_override", "codex_enabled",
           "gemini_enabled", "opencode_enabled", "project_of", "set_claude", "set_codex",
           "set_enabled", "set_gemini", "set_opencode", "settings_path", "skill_states"]
