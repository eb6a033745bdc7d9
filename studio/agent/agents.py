"""Named agents: a model, a set of skills, a system text and parameters, saved by name.

Each agent is one YAML file in the config folder's `agents/` (written atomically). A skill whose
frontmatter says `agent: NAME` runs its fork with that agent; `studio chat --agentfile` runs one
read from an Agentfile (`studio.agent.agentfile`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from studio.errors import StudioError
from studio.fsutil import atomic_write_text
from studio.paths import config_dir

AGENTS_FOLDER = "agents"
# A name is also a file name: nothing that could climb out of the folder or hide a file.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MAX_AGENT_FILE = 1 << 20


class AgentError(StudioError):
    """An agent that cannot be found, read or saved; the message says which and why."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """One agent.

    Attributes:
        name: how skills (`agent: NAME`) and the user refer to it.
        model: the model it runs on ("" for the chat's own).
        skills: the skill folders (or roots) it may use; empty for the chat's.
        system: text put first in its conversation ("" for none).
        parameters: sampling options sent with each request (temperature, num_ctx, ...).
        agent_type: Ollama's AGENT_TYPE, kept so an export says what the import said.
    """

    name: str
    model: str = ""
    skills: tuple[str, ...] = ()
    system: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)
    agent_type: str = ""

    def to_yaml(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        for key, value in (("model", self.model), ("skills", list(self.skills)),
                           ("system", self.system), ("parameters", dict(self.parameters)),
                           ("agent_type", self.agent_type)):
            if value:
                data[key] = value
        return data


def valid_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name))


def spec_from_yaml(data: object, where: str) -> AgentSpec:
    """An agent from its YAML mapping; AgentError saying what is wrong in `where` otherwise."""
    if not isinstance(data, dict):
        raise AgentError(f"{where}: an agent must be a YAML mapping (name, model, skills, ...)")
    name = data.get("name")
    if not isinstance(name, str) or not valid_name(name):
        raise AgentError(f"{where}: `name` must be letters, digits, `-`, `_` or `.`, not {name!r}")
    texts = {key: data.get(key, "") for key in ("model", "system", "agent_type")}
    for key, value in texts.items():
        if not isinstance(value, str):
            raise AgentError(f"{where}: `{key}` must be a string")
    skills = data.get("skills", [])
    if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
        raise AgentError(f"{where}: `skills` must be a list of paths")
    parameters = data.get("parameters", {})
    if not isinstance(parameters, dict) or not all(isinstance(k, str) for k in parameters):
        raise AgentError(f"{where}: `parameters` must be a mapping of names to values")
    return AgentSpec(name, texts["model"], tuple(skills), texts["system"], dict(parameters),
                     texts["agent_type"])


class AgentStore:
    """The saved agents, one YAML file each in `folder` (default: the config folder's agents/)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else config_dir() / AGENTS_FOLDER

    def names(self) -> list[str]:
        try:
            files = sorted(self.folder.glob("*.yaml"))
        except OSError:
            return []
        return [path.stem for path in files if valid_name(path.stem)]

    def _path(self, name: str) -> Path:
        if not valid_name(name):
            raise AgentError(
                f"{name!r} is not an agent name: use letters, digits, `-`, `_` or `.`"
            )
        return self.folder / f"{name}.yaml"

    def get(self, name: str) -> AgentSpec:
        path = self._path(name)
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_AGENT_FILE + 1)
        except FileNotFoundError:
            known = ", ".join(self.names()) or "none saved"
            raise AgentError(f"there is no agent named {name!r} (agents: {known})") from None
        except OSError as exc:
            raise AgentError(f"cannot read the agent {name!r} at {path}: {exc.strerror}") from None
        if len(raw) > MAX_AGENT_FILE:
            raise AgentError(f"{path} is over 1 MiB; it is not an agent file")
        try:
            data = yaml.safe_load(raw.decode("utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            raise AgentError(f"{path} is not valid YAML: {exc}") from None
        spec = spec_from_yaml(data, str(path))
        if spec.name != name:
            raise AgentError(f"{path} holds the agent {spec.name!r}, not {name!r}; rename one")
        return spec

    def save(self, spec: AgentSpec) -> Path:
        path = self._path(spec.name)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, yaml.safe_dump(spec.to_yaml(), sort_keys=False,
                                                   allow_unicode=True))
        except OSError as exc:
            raise AgentError(f"cannot save the agent {spec.name!r} to {path}: {exc}") from None
        return path

    def delete(self, name: str) -> None:
        """Forget the agent `name` (nothing happens when there is none)."""
        path = self._path(name)
        try:
            path.unlink()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise AgentError(f"cannot delete the agent {name!r} at {path}: {exc.strerror}") from None
