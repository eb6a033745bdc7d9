"""Agentfiles, Ollama's format for an agent: its model, skills, system text and parameters.

    # a comment
    FROM qwen3:0.6b
    SKILL ./skills/csv-profiler        (a path, relative to the Agentfile; repeatable)
    AGENT_TYPE conversational
    SYSTEM You answer briefly.         (one line, or a block between two \"\"\" lines)
    PARAMETER temperature 0.2

Directives are case-insensitive. A line that cannot be read is an error naming its line; a
directive the studio does not know (or does not use, like TEMPLATE) is a warning, and is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.agent.agents import AgentSpec, valid_name
from studio.errors import StudioError

MAX_AGENTFILE = 1 << 20
_QUOTES = '"""'
# PARAMETER names Ollama repeats to build a list.
_LIST_PARAMETERS = frozenset({"stop"})


class AgentfileError(StudioError):
    """An Agentfile that cannot be read; the message names the line."""


@dataclass(slots=True)
class Agentfile:
    spec: AgentSpec
    warnings: list[str] = field(default_factory=list)


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text


def parse_agentfile(text: str, name: str, base: Path) -> Agentfile:
    """The agent an Agentfile describes, named `name`; SKILL paths are taken relative to `base`."""
    model = system = agent_type = ""
    skills: list[str] = []
    parameters: dict[str, Any] = {}
    warnings: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        number, line = index + 1, lines[index].strip()
        index += 1
        if not line or line.startswith("#"):
            continue
        directive, _, rest = line.partition(" ")
        directive, rest = directive.upper(), rest.strip()
        if directive in ("FROM", "SKILL", "AGENT_TYPE", "SYSTEM", "PARAMETER") and not rest:
            raise AgentfileError(f"line {number}: {directive} needs a value")
        if directive == "FROM":
            model = rest
        elif directive == "SKILL":
            path = Path(rest.strip('"'))
            skills.append(str(path if path.is_absolute() else (base / path)))
        elif directive == "AGENT_TYPE":
            agent_type = rest
        elif directive == "SYSTEM":
            if rest.startswith(_QUOTES):
                system, index = _block(rest, lines, index, number)
            else:
                system = rest
        elif directive == "PARAMETER":
            key, _, value = rest.partition(" ")
            if not value.strip():
                raise AgentfileError(f"line {number}: PARAMETER needs a name and a value, "
                                     f"e.g. `PARAMETER temperature 0.2`")
            parsed = _value(value.strip())
            if key in _LIST_PARAMETERS:
                parameters.setdefault(key, []).append(parsed)
            else:
                parameters[key] = parsed
        else:
            warnings.append(f"line {number}: {directive} is not a directive the studio uses; "
                            "it was skipped")
    if not valid_name(name):
        raise AgentfileError(f"{name!r} cannot name an agent: use letters, digits, `-`, `_`, `.`")
    return Agentfile(AgentSpec(name, model, tuple(skills), system, parameters, agent_type),
                     warnings)


def _block(first: str, lines: list[str], index: int, number: int) -> tuple[str, int]:
    """A \"\"\" block that starts on line `number` (`first` is that line's value)."""
    opened = first[len(_QUOTES):]
    if opened.endswith(_QUOTES):
        return opened[: -len(_QUOTES)].strip(), index
    parts = [opened] if opened.strip() else []
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.rstrip().endswith(_QUOTES):
            last = line.rstrip()[: -len(_QUOTES)]
            if last.strip():
                parts.append(last)
            return "\n".join(parts).strip(), index
        parts.append(line)
    raise AgentfileError(f'line {number}: the SYSTEM block opened with """ is never closed')


def read_agentfile(path: Path) -> Agentfile:
    """An Agentfile on disk, named after the file (`Agentfile` takes its folder's name)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_AGENTFILE + 1)
    except OSError as exc:
        raise AgentfileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_AGENTFILE:
        raise AgentfileError(f"{path} is over 1 MiB; it is not an Agentfile")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AgentfileError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    stem = path.stem if path.stem.lower() != "agentfile" else path.resolve().parent.name
    name = stem if valid_name(stem) else "agentfile"
    try:
        return parse_agentfile(text, name, path.parent)
    except AgentfileError as exc:
        raise AgentfileError(f"{path}: {exc}") from None


def to_agentfile(spec: AgentSpec) -> str:
    """The Agentfile text of an agent; reading it back gives the same agent."""
    lines = [f"# the agent {spec.name}, exported by Skill Studio"]
    if spec.model:
        lines.append(f"FROM {spec.model}")
    lines += [f"SKILL {path}" for path in spec.skills]
    if spec.agent_type:
        lines.append(f"AGENT_TYPE {spec.agent_type}")
    if spec.system:
        lines.append(f"SYSTEM {spec.system}" if "\n" not in spec.system and _QUOTES not in spec.system
                     else f"SYSTEM {_QUOTES}\n{spec.system}\n{_QUOTES}")
    for key, value in spec.parameters.items():
        for item in value if isinstance(value, list) else [value]:
            shown = str(item).lower() if isinstance(item, bool) else str(item)
            lines.append(f"PARAMETER {key} {shown}")
    return "\n".join(lines) + "\n"
