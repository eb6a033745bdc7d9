"""The app's settings: one schema, saved as YAML in the platform's config folder.

Loading is tolerant: an unknown key is kept (and written back) with a logged warning, a field of the
wrong type falls back to its default with a message saying so. A file that cannot be read as YAML at
all is reported and left alone until the user saves the settings explicitly; it is then moved aside
as `settings.yaml.broken-<timestamp>` so nothing the user wrote is ever overwritten.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, cast, get_args

import yaml

from studio import paths
from studio.agent.answer_bound import (
    ANSWER_SECONDS_RANGE,
    ANSWER_TOKENS_RANGE,
    MAX_ANSWER_SECONDS,
    MAX_ANSWER_TOKENS,
)
from studio.agent.guided_mode import GUIDED_MODES, GuidedMode, guided_mode
from studio.agent.sandbox import Limits
from studio.agent.workspace import WORKSPACE_MODES, WorkspaceMode
from studio.fsutil import atomic_write_text
from studio.llm.transport import CONNECT_TIMEOUT, IDLE_TIMEOUT
from studio.llm.types import DEFAULT_CONTEXT_SIZE
from studio.skills.clients import SPEC, TARGETS

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.yaml"

BackendKind = Literal["ollama", "openai", "embedded"]
BACKEND_KINDS: tuple[str, ...] = get_args(BackendKind)
DEFAULT_URLS: dict[str, str] = {
    "ollama": "http://127.0.0.1:11434",
    "openai": "http://127.0.0.1:8080/v1",
    "embedded": "",
}
# Seconds, as (lowest, highest) the settings accept.
CONNECT_TIMEOUT_RANGE = (1, 300)
IDLE_TIMEOUT_RANGE = (1, 3600)
# Tokens: below 1,024 no catalog and answer fit; above a million no model goes.
CONTEXT_SIZE_RANGE = (1024, 1_048_576)
THREADS_RANGE = (0, 256)


def settings_path() -> Path:
    return paths.config_dir() / SETTINGS_FILE


@dataclass(slots=True)
class EditorFont:
    """The editors' font; an empty family means the system's fixed-width font."""

    family: str = ""
    size: int = 11


@dataclass(slots=True)
class ServerChoice:
    """One backend's own server URL and model, kept while another backend is in use."""

    url: str = ""
    model: str = ""


@dataclass(slots=True)
class BackendSettings:
    """Which model server the chat talks to, and how.

    Attributes:
        kind: "ollama", "openai" (any OpenAI-compatible server) or "embedded" (llama.cpp in-process).
        url: the server's base URL (not used by "embedded").
        model: the model's name on the server.
        gguf_path: the GGUF file the embedded backend loads.
        think: whether to ask models that can reason to show their thinking.
        guided: carry the model through a skill one constrained step at a time (pick a skill, run
            one of its scripts, answer from the output): "on", "off", or "auto": when the model
            is small (`studio.agent.guided_mode`). A file of older versions holds true or false.
        connect_timeout: seconds to wait for the server to accept the connection.
        idle_timeout: seconds the server may go without sending a piece of the answer (the first
            one included, which a cold model on a small machine takes longest to send).
        context_size: the most context, in tokens, the studio asks for: the embedded engine's
            context and Ollama's `num_ctx` (each at most the model's own).
        threads: the embedded engine's CPU threads; 0 lets the studio choose for this machine.
        workspace_mode: what the tool policy treats as the workspace: "skill" (each skill's own
            folder) or "project" (`workspace`, or the folder the studio started in).
        workspace: the project folder for "project".
        servers: each backend's own URL and model (`url` and `model` are the current backend's),
            so that switching backends and back finds them as they were.
        answer_tokens: the most tokens one answer may stream before it is stopped.
        answer_seconds: the most seconds one answer may take (tool runs included).
        embed_model: an embedding model on the chat's server (Ollama or OpenAI-compatible, e.g.
            nomic-embed-text) that search ranks by meaning with; empty: all-MiniLM-L6-v2 in the
            studio when it is installed, else words only.
    """

    kind: BackendKind = "ollama"
    url: str = DEFAULT_URLS["ollama"]
    model: str = ""
    gguf_path: str = ""
    think: bool = False
    connect_timeout: int = CONNECT_TIMEOUT
    idle_timeout: int = IDLE_TIMEOUT
    context_size: int = DEFAULT_CONTEXT_SIZE
    threads: int = 0
    workspace_mode: WorkspaceMode = "skill"
    workspace: str = ""
    servers: dict[str, ServerChoice] = field(default_factory=dict)
    guided: GuidedMode = "auto"
    answer_tokens: int = MAX_ANSWER_TOKENS
    answer_seconds: int = MAX_ANSWER_SECONDS
    embed_model: str = ""

    def remember(self) -> None:
        """Keep the current backend's URL and model in `servers`."""
        self.servers[self.kind] = ServerChoice(self.url, self.model)

    def switch_to(self, kind: BackendKind) -> None:
        """Use `kind`, with the URL and model it had (its usual URL the first time)."""
        self.remember()
        saved = self.servers.get(kind)
        self.kind = kind
        self.url = saved.url if saved is not None and saved.url else DEFAULT_URLS[kind]
        self.model = saved.model if saved is not None else ""


@dataclass(slots=True)
class WindowSettings:
    """The main window's geometry and dock/toolbar state, as Qt's base64 blobs."""

    geometry: str = ""
    state: str = ""
    # Each docked panel's share of the window when it was saved ("problemsDock=0.25,..."): the
    # layout comes back in proportion on a screen of another size.
    docks: str = ""


@dataclass(slots=True)
class PromptSettings:
    """What the model is told, where the user wants other words than the studio's.

    Attributes:
        instructions: the system prompt's instructions on using skills (blank: the studio's).
        tools: a tool's name -> its description for the model (a blank one: the studio's).
    """

    instructions: str = ""
    tools: dict[str, str] = field(default_factory=dict)


_LIMITS = Limits()


@dataclass(slots=True)
class SandboxSettings:
    """What each sandboxed tool run may use (0: no limit of that kind), and the environment
    names it sees besides PATH, HOME, LANG, LC_*, TERM, TZ, TMPDIR, USER, LOGNAME and SHELL.
    See docs/security-sandbox.md."""

    processes: int = _LIMITS.processes
    memory_mb: int = _LIMITS.memory_mb
    file_size_mb: int = _LIMITS.file_size_mb
    cpu_seconds: int = _LIMITS.cpu_seconds
    open_files: int = _LIMITS.open_files
    tmp_mb: int = _LIMITS.tmp_mb
    env: list[str] = field(default_factory=list)

    def limits(self) -> Limits:
        return Limits(self.processes, self.memory_mb, self.file_size_mb, self.cpu_seconds,
                      self.open_files, self.tmp_mb)


# The highest each sandbox limit accepts (the lowest is 0, no limit).
SANDBOX_RANGES = {"processes": 1_000_000, "memory_mb": 16_777_216, "file_size_mb": 16_777_216,
                  "cpu_seconds": 31_536_000, "open_files": 1_048_576, "tmp_mb": 16_777_216}


@dataclass(slots=True)
class Settings:
    roots: list[str] = field(default_factory=list)
    # Folders searched for GGUF models besides the usual places (`studio.llm.discovery`).
    model_folders: list[str] = field(default_factory=list)
    include_hidden: bool = False
    editor_font: EditorFont = field(default_factory=EditorFont)
    backend: BackendSettings = field(default_factory=BackendSettings)
    window: WindowSettings = field(default_factory=WindowSettings)
    prompts: PromptSettings = field(default_factory=PromptSettings)
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    open_tabs: list[str] = field(default_factory=list)
    remember_window: bool = True
    remember_open_tabs: bool = True
    # Each root's validation target (`studio.skills.clients`), by the root's path; a root not
    # listed is judged by the bare spec.
    root_targets: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def target_of(self, root: Path) -> str:
        return self.root_targets.get(str(root), SPEC)

    def set_target(self, root: Path, target: str) -> None:
        if target == SPEC:
            self.root_targets.pop(str(root), None)
        else:
            self.root_targets[str(root)] = target

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roots": list(self.roots),
            "model_folders": list(self.model_folders),
            "include_hidden": self.include_hidden,
            "editor_font": _section_data(self.editor_font),
            "backend": _section_data(self.backend),
            "window": _section_data(self.window),
            "prompts": {"instructions": self.prompts.instructions,
                        "tools": {name: text for name, text in self.prompts.tools.items()
                                  if text.strip()}},
            "sandbox": {**{name: getattr(self.sandbox, name) for name in SANDBOX_RANGES},
                        "env": list(self.sandbox.env)},
            "open_tabs": list(self.open_tabs),
            "remember_window": self.remember_window,
            "remember_open_tabs": self.remember_open_tabs,
            "root_targets": dict(self.root_targets),
        }
        for key, value in self.extra.items():
            data.setdefault(key, value)
        return data


def _section_data(section: EditorFont | BackendSettings | WindowSettings) -> dict[str, Any]:
    if isinstance(section, BackendSettings):
        section.remember()
    return {f.name: _plain(getattr(section, f.name)) for f in fields(section)}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: {"url": entry.url, "model": entry.model} for key, entry in value.items()}
    return value


@dataclass(slots=True)
class LoadResult:
    """What loading found: the settings, and what was wrong with the file (in plain words)."""

    settings: Settings
    problems: list[str] = field(default_factory=list)
    broken: bool = False


def _type_name(value: Any) -> str:
    return {"str": "text", "int": "a number", "bool": "true/false", "list": "a list",
            "dict": "a mapping", "NoneType": "empty"}.get(type(value).__name__, type(value).__name__)


class _Reader:
    """Reads checked values out of the YAML data, collecting a message for every bad one."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.problems: list[str] = []

    def bad(self, key: str, expected: str, value: Any) -> None:
        self.problems.append(
            f"{self.where}: `{key}` should be {expected}, but it is {_type_name(value)}; "
            "the default is used instead"
        )

    def boolean(self, data: dict[str, Any], key: str, default: bool, prefix: str = "") -> bool:
        value = data.get(key, default)
        if isinstance(value, bool):
            return value
        self.bad(prefix + key, "true or false", value)
        return default

    def text(self, data: dict[str, Any], key: str, default: str, prefix: str = "") -> str:
        value = data.get(key, default)
        if value is None:
            return default
        if isinstance(value, str):
            return value
        self.bad(prefix + key, "text", value)
        return default

    def number(self, data: dict[str, Any], key: str, default: int, low: int, high: int,
               prefix: str = "") -> int:
        value = data.get(key, default)
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        self.bad(prefix + key, f"a whole number from {low} to {high}", value)
        return default

    def text_list(self, data: dict[str, Any], key: str) -> list[str]:
        value = data.get(key, [])
        if value is None:
            return []
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return list(value)
        self.bad(key, "a list of paths", value)
        return []

    def section(self, data: dict[str, Any], key: str, known: set[str]) -> dict[str, Any]:
        value = data.get(key, {})
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.bad(key, "a mapping", value)
            return {}
        for unknown in sorted(set(value) - known, key=str):
            log.warning("%s: ignoring the unknown setting `%s.%s`", self.where, key, unknown)
        return value


def _read(data: dict[str, Any], where: Path) -> tuple[Settings, list[str]]:
    reader = _Reader(where)
    settings = Settings()
    settings.roots = reader.text_list(data, "roots")
    settings.model_folders = reader.text_list(data, "model_folders")
    settings.include_hidden = reader.boolean(data, "include_hidden", False)
    settings.open_tabs = reader.text_list(data, "open_tabs")
    settings.remember_window = reader.boolean(data, "remember_window", True)
    settings.remember_open_tabs = reader.boolean(data, "remember_open_tabs", True)
    settings.root_targets = _root_targets(data, reader)

    font = reader.section(data, "editor_font", {"family", "size"})
    settings.editor_font = EditorFont(
        reader.text(font, "family", "", "editor_font."),
        reader.number(font, "size", 11, 5, 72, "editor_font."),
    )

    backend = reader.section(data, "backend", {f.name for f in fields(BackendSettings)})
    kind = backend.get("kind", "ollama")
    if kind not in BACKEND_KINDS:
        reader.problems.append(
            f"{where}: `backend.kind` is {kind!r}; it must be one of {', '.join(BACKEND_KINDS)}; "
            "ollama is used instead"
        )
        kind = "ollama"
    settings.backend = BackendSettings(
        kind=cast(BackendKind, kind),
        url=reader.text(backend, "url", DEFAULT_URLS[kind], "backend."),
        model=reader.text(backend, "model", "", "backend."),
        gguf_path=reader.text(backend, "gguf_path", "", "backend."),
        think=reader.boolean(backend, "think", False, "backend."),
        guided=_guided(backend, reader),
        connect_timeout=reader.number(backend, "connect_timeout", CONNECT_TIMEOUT,
                                      *CONNECT_TIMEOUT_RANGE, "backend."),
        idle_timeout=reader.number(backend, "idle_timeout", IDLE_TIMEOUT, *IDLE_TIMEOUT_RANGE,
                                   "backend."),
        context_size=reader.number(backend, "context_size", DEFAULT_CONTEXT_SIZE,
                                   *CONTEXT_SIZE_RANGE, "backend."),
        threads=reader.number(backend, "threads", 0, *THREADS_RANGE, "backend."),
        workspace_mode=_workspace_mode(backend, where, reader.problems),
        workspace=reader.text(backend, "workspace", "", "backend."),
        servers=_servers(backend, reader),
        answer_tokens=reader.number(backend, "answer_tokens", MAX_ANSWER_TOKENS,
                                    *ANSWER_TOKENS_RANGE, "backend."),
        answer_seconds=reader.number(backend, "answer_seconds", MAX_ANSWER_SECONDS,
                                     *ANSWER_SECONDS_RANGE, "backend."),
        embed_model=reader.text(backend, "embed_model", "", "backend."),
    )
    # Files from before `servers` hold only the current backend's URL and model: they seed it.
    settings.backend.remember()

    window = reader.section(data, "window", {"geometry", "state", "docks"})
    settings.window = WindowSettings(
        reader.text(window, "geometry", "", "window."), reader.text(window, "state", "", "window."),
        reader.text(window, "docks", "", "window."),
    )

    settings.prompts = _prompts(data, reader)
    settings.sandbox = _sandbox(data, reader)

    known = set(Settings().to_data())
    for key in data:
        if key not in known:
            log.warning("%s: keeping the unknown setting `%s` as it is", where, key)
            settings.extra[str(key)] = data[key]
    return settings, reader.problems


def _servers(backend: dict[str, Any], reader: _Reader) -> dict[str, ServerChoice]:
    value = backend.get("servers", {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        reader.bad("backend.servers", "a mapping of backend to url and model", value)
        return {}
    servers: dict[str, ServerChoice] = {}
    for kind, entry in value.items():
        if kind not in BACKEND_KINDS or not isinstance(entry, dict):
            reader.problems.append(
                f"{reader.where}: `backend.servers.{kind}` should be one of "
                f"{', '.join(BACKEND_KINDS)} with a url and a model; it is ignored"
            )
            continue
        prefix = f"backend.servers.{kind}."
        servers[kind] = ServerChoice(reader.text(entry, "url", DEFAULT_URLS[kind], prefix),
                                     reader.text(entry, "model", "", prefix))
    return servers


def _prompts(data: dict[str, Any], reader: _Reader) -> PromptSettings:
    section = reader.section(data, "prompts", {"instructions", "tools"})
    tools = section.get("tools", {})
    if tools is None:
        tools = {}
    if not isinstance(tools, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in tools.items()):
        reader.bad("prompts.tools", "a mapping of tool names to descriptions", tools)
        tools = {}
    return PromptSettings(reader.text(section, "instructions", "", "prompts."), dict(tools))


def _sandbox(data: dict[str, Any], reader: _Reader) -> SandboxSettings:
    section = reader.section(data, "sandbox", {*SANDBOX_RANGES, "env"})
    defaults = SandboxSettings()
    values = {name: reader.number(section, name, getattr(defaults, name), 0, high, "sandbox.")
              for name, high in SANDBOX_RANGES.items()}
    env = section.get("env", [])
    if env is None:
        env = []
    if not isinstance(env, list) or not all(isinstance(name, str) for name in env):
        reader.bad("sandbox.env", "a list of environment variable names", env)
        env = []
    return SandboxSettings(**values, env=list(env))


def _root_targets(data: dict[str, Any], reader: _Reader) -> dict[str, str]:
    value = data.get("root_targets", {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        reader.bad("root_targets", "a mapping of root folder to target", value)
        return {}
    targets: dict[str, str] = {}
    for root, target in value.items():
        if isinstance(root, str) and target in TARGETS:
            targets[root] = target
            continue
        reader.problems.append(
            f"{reader.where}: `root_targets.{root}` is {target!r}; it must be one of "
            f"{', '.join(TARGETS)}; the root is judged by the spec instead"
        )
    return targets


def _guided(backend: dict[str, Any], reader: _Reader) -> GuidedMode:
    """`backend.guided`: auto, on or off; true and false, as files of older versions hold it,
    are on and off."""
    value = backend.get("guided", "auto")
    mode = guided_mode(value)
    if mode is None:
        reader.bad("backend.guided", " or ".join(GUIDED_MODES), value)
        return "auto"
    return mode


def _workspace_mode(backend: dict[str, Any], where: Path, problems: list[str]) -> WorkspaceMode:
    mode = backend.get("workspace_mode", "skill")
    if mode in WORKSPACE_MODES:
        return cast(WorkspaceMode, mode)
    problems.append(f"{where}: `backend.workspace_mode` is {mode!r}; it must be one of "
                    f"{', '.join(WORKSPACE_MODES)}; skill is used instead")
    return "skill"


def load_settings(path: Path | None = None) -> LoadResult:
    """Read the settings file; a missing file gives the defaults, a broken one is reported."""
    path = path if path is not None else settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadResult(Settings())
    except (OSError, UnicodeDecodeError) as exc:
        return LoadResult(
            Settings(),
            [f"cannot read the settings file {path} ({exc}); the defaults are used and the file "
             "is left alone until you save the settings"],
            broken=True,
        )
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return LoadResult(
            Settings(),
            [f"the settings file {path} is not valid YAML ({exc}); the defaults are used and the "
             "file is left alone until you save the settings"],
            broken=True,
        )
    if data is None:
        return LoadResult(Settings())
    if not isinstance(data, dict):
        return LoadResult(
            Settings(),
            [f"the settings file {path} should hold a mapping of settings, but it holds "
             f"{_type_name(data)}; the defaults are used and the file is left alone until you "
             "save the settings"],
            broken=True,
        )
    settings, problems = _read(data, path)
    return LoadResult(settings, problems)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (creating the config folder if needed)."""
    path = path if path is not None else settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(settings.to_data(), sort_keys=False, allow_unicode=True, width=100)
    atomic_write_text(path, text)


class SettingsStore:
    """The settings of a running app, and the one file they live in.

    Automatic saves (window geometry on exit, open tabs) never replace a file that failed to load;
    an explicit save by the user first moves the broken file aside.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else settings_path()
        result = load_settings(self.path)
        self.settings = result.settings
        self.problems = result.problems
        self.broken = result.broken

    def save(self, *, explicit: bool = False) -> bool:
        """Write the settings; returns False when a broken file was kept instead."""
        if self.broken:
            if not explicit:
                log.warning("not saving settings over the unreadable %s", self.path)
                return False
            self._move_broken_aside()
        save_settings(self.settings, self.path)
        return True

    def _move_broken_aside(self) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = self.path.with_name(f"{self.path.name}.broken-{stamp}-{counter}")
        if self.path.exists():
            os.replace(self.path, target)
            log.warning("moved the unreadable settings file aside to %s", target)
        self.broken = False
