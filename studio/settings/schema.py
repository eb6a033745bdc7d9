"""The app's settings, each declared once (`declare.setting`): its name, type and default as a
field, its help, checks and place in the Settings dialog beside it. The agent, the CLI and the
window take their values, modes and bounds from here; nothing here knows them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from studio.llm import CONNECT_TIMEOUT, DEFAULT_CONTEXT_SIZE, IDLE_TIMEOUT
from studio.settings.declare import Reader, setting
from studio.skills import SPEC, TARGETS

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
# The most one chat answer may take, for the session, the settings and the CLI: tokens the model
# streams (its text and thinking, a fork's included) and seconds from the question to the end
# (tool runs and approvals included).
MAX_ANSWER_TOKENS = 8192
MAX_ANSWER_SECONDS = 600
ANSWER_TOKENS_RANGE = (256, 1_048_576)
ANSWER_SECONDS_RANGE = (10, 86_400)
EVAL_CONCURRENCY_RANGE = (1, 64)

GuidedMode = Literal["auto", "on", "off"]
GUIDED_MODES: tuple[GuidedMode, ...] = ("auto", "on", "off")
_MODES: dict[str, GuidedMode] = {mode: mode for mode in GUIDED_MODES}

# What the tool policy treats as the workspace: a project folder, or each skill's own folder.
WorkspaceMode = Literal["project", "skill"]
WORKSPACE_MODES: tuple[str, ...] = get_args(WorkspaceMode)

MODELS, CHAT, LIBRARY, SANDBOX = "Models", "Chat", "Library and editor", "Sandbox"
BACKEND_GROUP = "Model backend"
LAYOUT: dict[str, tuple[str, ...]] = {
    LIBRARY: ("Skill roots", "Editor", "At start"),
    MODELS: (BACKEND_GROUP, "Model files", "Evals"),
    CHAT: ("Answers", "Tools"),
    SANDBOX: ("Each tool run", "Without a sandbox"),
}
"""The Settings dialog's pages and each page's groups, in order."""


def guided_mode(value: object) -> GuidedMode | None:
    """`value` as a mode: "auto", "on" or "off", or a boolean as older settings files hold it
    (true: "on"); None when it is neither."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return _MODES.get(value.strip().lower()) if isinstance(value, str) else None


def _server_urls(value: object) -> list[str] | None:
    """A list of http(s) URLs, or None when `value` is not one."""
    if not isinstance(value, list) or not all(isinstance(url, str) for url in value):
        return None
    urls = [url.strip() for url in value if url.strip()]
    if not all(urlsplit(url).scheme in ("http", "https") and urlsplit(url).netloc for url in urls):
        return None
    return urls


def _names(value: object) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        return list(value)
    return None


@dataclass(slots=True)
class EditorFont:
    """The editors' font; an empty family means the system's fixed-width font."""

    family: str = setting("", help="The editors' font; blank: the system's fixed-width font.",
                          label="Font", page=LIBRARY, group="Editor", widget="font")
    size: int = setting(11, help="The editors' font size, in points.", label="Font size",
                        page=LIBRARY, group="Editor", low=5, high=72, suffix=" pt")


@dataclass(slots=True)
class ServerChoice:
    """One backend's own server URL and model, kept while another backend is in use."""

    url: str = ""
    model: str = ""


def _servers(value: object, reader: Reader, key: str) -> dict[str, ServerChoice]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        reader.bad(key, "a mapping of backend to url and model", value)
        return {}
    servers: dict[str, ServerChoice] = {}
    for kind, entry in value.items():
        if kind not in BACKEND_KINDS or not isinstance(entry, dict):
            reader.problems.append(
                f"{reader.where}: `{key}.{kind}` should be one of "
                f"{', '.join(BACKEND_KINDS)} with a url and a model; it is ignored"
            )
            continue
        choice = ServerChoice(DEFAULT_URLS[kind], "")
        for name in ("url", "model"):
            found = entry.get(name)
            if isinstance(found, str):
                setattr(choice, name, found)
            elif found is not None:
                reader.bad(f"{key}.{kind}.{name}", "text", found)
        servers[kind] = choice
    return servers


@dataclass(slots=True)
class BackendSettings:
    """Which model server the chat talks to, and how. `url` and `model` are the current
    backend's; `servers` keeps each backend's, so that switching backends and back finds them
    as they were."""

    kind: BackendKind = setting(
        "ollama", help="The model server the chat talks to: Ollama, any OpenAI-compatible server, "
        "or llama.cpp in the studio's own process (a GGUF file).", label="Kind", page=MODELS,
        group=BACKEND_GROUP, choices={
            "ollama": "Ollama",
            "openai": "OpenAI-compatible server (llama.cpp, LM Studio, vLLM…)",
            "embedded": "Embedded llama.cpp (a GGUF file)"})
    url: str = setting(DEFAULT_URLS["ollama"], help="The server's base URL (each kind keeps its "
                       "own; the embedded engine needs none).", label="Server URL", page=MODELS,
                       group=BACKEND_GROUP, enabled_when=("backend.kind", ("ollama", "openai")))
    model: str = setting("", help="The model's name on the server.", label="Model", page=MODELS,
                         group=BACKEND_GROUP, placeholder="e.g. qwen3:4b",
                         enabled_when=("backend.kind", ("ollama", "openai")))
    gguf_path: str = setting("", help="The GGUF file the embedded engine loads.", label="GGUF file",
                             page=MODELS, group=BACKEND_GROUP, widget="file",
                             placeholder="path to a .gguf model file",
                             file_filter="GGUF models (*.gguf)",
                             enabled_when=("backend.kind", ("embedded",)))
    think: bool = setting(False, help="Ask models that can reason to show their thinking.",
                          label="Show the model's thinking, when it can think", page=MODELS,
                          group=BACKEND_GROUP)
    connect_timeout: int = setting(
        CONNECT_TIMEOUT, help="How long to wait for the server to accept the connection.",
        label="Connect timeout", page=MODELS, group=BACKEND_GROUP, low=CONNECT_TIMEOUT_RANGE[0],
        high=CONNECT_TIMEOUT_RANGE[1], suffix=" s")
    idle_timeout: int = setting(
        IDLE_TIMEOUT, help="How long the server may go without sending any of the answer before "
        "the chat gives up. A model that is still loading sends nothing, so allow minutes on a "
        "slow machine.", label="Idle timeout", page=MODELS, group=BACKEND_GROUP,
        low=IDLE_TIMEOUT_RANGE[0], high=IDLE_TIMEOUT_RANGE[1], suffix=" s")
    context_size: int = setting(
        DEFAULT_CONTEXT_SIZE, help="The most context the chat asks for, in tokens (never more "
        "than the model's own): the embedded engine's context and Ollama's num_ctx. More holds "
        "more skills and chat, and needs more memory.", label="Context size", page=MODELS,
        group=BACKEND_GROUP, low=CONTEXT_SIZE_RANGE[0], high=CONTEXT_SIZE_RANGE[1], step=1024,
        suffix=" tokens")
    threads: int = setting(0, help="The CPU threads of the embedded engine; 0 lets the studio "
                           "choose for this machine.", label="Engine threads", page=MODELS,
                           group=BACKEND_GROUP, low=THREADS_RANGE[0], high=THREADS_RANGE[1],
                           special="Chosen for this machine")
    workspace_mode: WorkspaceMode = setting(
        "skill", help="Where a skill's commands may write without asking: each skill's own "
        "folder, or a project folder.", label="Workspace", page=CHAT, group="Tools",
        choices={"skill": "Each skill's own folder", "project": "A project folder"})
    workspace: str = setting("", help="The project folder for a project workspace; blank: the "
                             "folder the studio started in.", label="Project folder", page=CHAT,
                             group="Tools", widget="folder",
                             placeholder="the folder the studio started in",
                             enabled_when=("backend.workspace_mode", ("project",)))
    servers: dict[str, ServerChoice] = setting(
        factory=dict, help="Each backend's own URL and model, kept while another is in use.",
        read=_servers)
    guided: GuidedMode = setting(
        "auto", help="Guided, each reply is held to the next step: pick a skill (or none), run one "
        "of its scripts with words from your message, answer from its output. For models too "
        "small to call tools on their own, such as SmolLM2-135M; automatic guides models of fewer "
        "than 2B parameters, when the server tells the model's size. Files of older versions "
        "hold true or false.", label="Guide through skills", page=MODELS, group=BACKEND_GROUP,
        choices={"auto": "Automatically, for small models", "on": "Always", "off": "Never"},
        parse=guided_mode)
    answer_tokens: int = setting(
        MAX_ANSWER_TOKENS, help="The most one answer may stream (its thinking included) before "
        "the chat stops it: a model caught in a loop never ends on its own.",
        label="Most tokens in an answer", page=CHAT, group="Answers", low=ANSWER_TOKENS_RANGE[0],
        high=ANSWER_TOKENS_RANGE[1], step=1024, suffix=" tokens")
    answer_seconds: int = setting(
        MAX_ANSWER_SECONDS, help="The most one answer may take, from the question to the end, "
        "tool runs and approvals included, before the chat stops it.",
        label="Most seconds an answer may take", page=CHAT, group="Answers",
        low=ANSWER_SECONDS_RANGE[0], high=ANSWER_SECONDS_RANGE[1], suffix=" s")
    embed_model: str = setting(
        "", help="An embedding model on this server (e.g. nomic-embed-text) the library's search "
        "and search_skills rank skills by meaning with, besides their words. Empty: "
        "all-MiniLM-L6-v2 in the studio when it is installed, else words only.",
        label="Search embedding model", page=MODELS, group=BACKEND_GROUP,
        placeholder="empty: all-MiniLM-L6-v2 in the studio, when installed",
        enabled_when=("backend.kind", ("ollama", "openai")))
    recent_models: list[str] = setting(
        factory=list, help="The model files opened last (File ▸ Recent Model Files), newest "
        "first.", expected="a list of paths")

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
class EvalSettings:
    """Where evals run their models: several servers at once, each with its own limit."""

    servers: list[str] = setting(
        factory=list, help="Model servers that eval runs share out among them, one URL a line "
        "(http:// or https://); none: the chat's server.", label="Eval servers", page=MODELS,
        group="Evals", placeholder="one a line, e.g. http://127.0.0.1:8080/v1",
        parse=_server_urls, expected="a list of http:// or https:// URLs")
    concurrency: int = setting(
        1, help="How many eval runs each server takes at once. More than one only helps a "
        "server that answers requests in parallel (llama.cpp's --parallel, OLLAMA_NUM_PARALLEL).",
        label="Runs at once per server", page=MODELS, group="Evals",
        low=EVAL_CONCURRENCY_RANGE[0], high=EVAL_CONCURRENCY_RANGE[1])


@dataclass(slots=True)
class WindowSettings:
    """The main window's geometry and dock/toolbar state, as Qt's base64 blobs."""

    geometry: str = setting("", help="The main window's geometry (Qt's, base64).")
    state: str = setting("", help="The docks' and toolbars' state (Qt's, base64).")
    # Each docked panel's share of the window when it was saved ("problemsDock=0.25,..."): the
    # layout comes back in proportion on a screen of another size.
    docks: str = setting("", help="Each docked panel's share of the window when it was saved.")
    # Where a skill tab's form stands and the split positions of its views ("body=1;others=0;
    # side=left;form=380;split.evals=200:500", see `studio.ui.editor.form_fold`).
    tabs: str = setting("", help="Where a skill tab's frontmatter form stands (beside which "
                        "views, on which side) and the split positions of its views.")


def _tool_texts(value: object, reader: Reader, key: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        reader.bad(key, "a mapping of tool names to descriptions", value)
        return {}
    return dict(value)


@dataclass(slots=True)
class PromptSettings:
    """What the model is told, where the user wants other words than the studio's (the Prompts
    dialog edits them)."""

    instructions: str = setting("", help="The system prompt's instructions on using skills "
                                "(blank: the studio's).")
    tools: dict[str, str] = setting(
        factory=dict, help="A tool's name and its description for the model (a blank one: the "
        "studio's).", read=_tool_texts,
        write=lambda tools: {name: text for name, text in tools.items() if text.strip()})


@dataclass(frozen=True, slots=True)
class Limits:
    """What one sandboxed run may use; 0 means no limit of that kind.

    Attributes:
        processes: processes and threads at once (RLIMIT_NPROC, counted inside the sandbox's
            own user namespace, so the user's other processes do not count).
        memory_mb: address space of each process (RLIMIT_AS), in MiB.
        file_size_mb: the largest file a process may write (RLIMIT_FSIZE), in MiB.
        cpu_seconds: CPU time of each process (RLIMIT_CPU).
        open_files: open files of each process (RLIMIT_NOFILE).
        tmp_mb: the private /tmp, /dev/shm and hidden home folder, each, in MiB (they live in
            memory).
    """

    processes: int = 512
    memory_mb: int = 8192
    file_size_mb: int = 1024
    cpu_seconds: int = 600
    open_files: int = 4096
    tmp_mb: int = 1024


_LIMITS = Limits()
_LIMIT = "See docs/security-sandbox.md; 0: no limit."


@dataclass(slots=True)
class SandboxSettings:
    """What each sandboxed tool run may use (0: no limit of that kind), and the environment
    names it sees besides PATH, HOME, LANG, LC_*, TERM, TZ, TMPDIR, USER, LOGNAME and SHELL.
    See docs/security-sandbox.md."""

    processes: int = setting(_LIMITS.processes, help=f"Processes and threads at once. {_LIMIT}",
                             label="Processes", page=SANDBOX, group="Each tool run", high=1_000_000,
                             special="No limit")
    memory_mb: int = setting(_LIMITS.memory_mb, help=f"Memory of each process, in MiB. {_LIMIT}",
                             label="Memory", page=SANDBOX, group="Each tool run", high=16_777_216,
                             step=256, suffix=" MiB", special="No limit")
    file_size_mb: int = setting(_LIMITS.file_size_mb, help=f"The largest file a process may "
                                f"write, in MiB. {_LIMIT}", label="Largest file", page=SANDBOX,
                                group="Each tool run", high=16_777_216, step=64, suffix=" MiB",
                                special="No limit")
    cpu_seconds: int = setting(_LIMITS.cpu_seconds, help=f"CPU time of each process. {_LIMIT}",
                               label="CPU time", page=SANDBOX, group="Each tool run",
                               high=31_536_000, suffix=" s", special="No limit")
    open_files: int = setting(_LIMITS.open_files, help=f"Open files of each process. {_LIMIT}",
                              label="Open files", page=SANDBOX, group="Each tool run",
                              high=1_048_576, special="No limit")
    tmp_mb: int = setting(_LIMITS.tmp_mb, help=f"The private /tmp, /var/tmp, /dev/shm and hidden "
                          f"home folder, each, in MiB (they live in memory). {_LIMIT}",
                          label="Temporary space", page=SANDBOX, group="Each tool run",
                          high=16_777_216, step=64, suffix=" MiB", special="No limit")
    env: list[str] = setting(
        factory=list, help="Environment variables a tool run sees besides PATH, HOME, LANG, LC_*, "
        "TERM, TZ, TMPDIR, USER, LOGNAME and SHELL, one name a line.", label="Environment",
        page=SANDBOX, group="Each tool run", placeholder="one a line, e.g. JAVA_HOME",
        parse=_names,
        expected="a list of environment variable names")
    allow_unsandboxed: bool = setting(
        False, help="Let automatic approval (`studio chat --auto-approve`, `studio eval "
        "--approve auto`) run commands where there is no sandbox. Off: they run nothing there, "
        "and say why.", label="Let automatic approval run commands without a sandbox",
        page=SANDBOX, group="Without a sandbox")

    def limits(self) -> Limits:
        return Limits(self.processes, self.memory_mb, self.file_size_mb, self.cpu_seconds,
                      self.open_files, self.tmp_mb)


def _root_targets(value: object, reader: Reader, key: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        reader.bad(key, "a mapping of root folder to target", value)
        return {}
    targets: dict[str, str] = {}
    for root, target in value.items():
        if isinstance(root, str) and target in TARGETS:
            targets[root] = target
            continue
        reader.problems.append(
            f"{reader.where}: `{key}.{root}` is {target!r}; it must be one of "
            f"{', '.join(TARGETS)}; the root is judged by the spec instead"
        )
    return targets


@dataclass(slots=True)
class Settings:
    """Everything the studio keeps between runs: top-level settings and sections of them; `extra`
    holds the keys of the file the studio does not know, written back as they were."""

    roots: list[str] = setting(
        factory=list, help="The folders and zip archives of skills the library shows.",
        label="Skill roots", page=LIBRARY, group="Skill roots", widget="roots",
        expected="a list of paths")
    model_folders: list[str] = setting(
        factory=list, help="Folders searched for GGUF models besides the usual places.",
        label="Model folders", page=MODELS, group="Model files", widget="folders",
        expected="a list of paths")
    include_hidden: bool = setting(
        False, help="Look for skills inside hidden folders (names starting with a dot).",
        label="Look inside hidden folders (names starting with a dot)", page=LIBRARY,
        group="Skill roots")
    editor_font: EditorFont = field(default_factory=EditorFont)
    backend: BackendSettings = field(default_factory=BackendSettings)
    window: WindowSettings = field(default_factory=WindowSettings)
    prompts: PromptSettings = field(default_factory=PromptSettings)
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    open_tabs: list[str] = setting(factory=list, help="The skills open when the studio closed.",
                                   expected="a list of paths")
    remember_window: bool = setting(True, help="Restore the window's size and layout at start.",
                                    label="Restore the window's size and layout", page=LIBRARY,
                                    group="At start")
    library_flat: bool = setting(
        False, help="The library lists each root's skills in one list sorted by name (View > "
        "Flat Library List), not under their repository folders.")
    remember_open_tabs: bool = setting(True, help="Reopen the skills that were open at start.",
                                       label="Reopen the skills that were open", page=LIBRARY,
                                       group="At start")
    # A root not listed is judged by the bare spec.
    root_targets: dict[str, str] = setting(
        factory=dict, help="Each root's validation target (the client whose rules apply), by the "
        "root's path.", read=_root_targets)
    evals: EvalSettings = field(default_factory=EvalSettings)
    extra: dict[str, Any] = field(default_factory=dict)

    def target_of(self, root: Path) -> str:
        return self.root_targets.get(str(root), SPEC)

    def set_target(self, root: Path, target: str) -> None:
        if target == SPEC:
            self.root_targets.pop(str(root), None)
        else:
            self.root_targets[str(root)] = target
