"""`studio chat`: one conversation turn with a local model that can use skills, on the terminal.

Text goes to stdout as it streams; tool calls, approvals and notices go to stderr. With `--json`
every event is one JSON line on stdout instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import httpx

from studio.agent import (
    DEFAULT_MAX_ROUNDS,
    DEFAULT_TIMEOUT,
    WORKSPACE_MODES,
    Agentfile,
    AgentfileError,
    ApprovalGiven,
    ApprovalNeeded,
    Approver,
    AutoApprover,
    ChatNotice,
    DenyAllApprover,
    Done,
    Error,
    Event,
    ForkStarted,
    HoldError,
    Nested,
    NobodyApprover,
    SessionFactory,
    SessionSettings,
    TextDelta,
    ThinkingDelta,
    ToolCallRequested,
    ToolFinished,
    ToolWrites,
    default_search_embedder,
    event_to_json,
    first_writable_folder,
    read_agentfile,
)
from studio.commands.arguments import seconds
from studio.commands.options import (
    SKILL_SOURCE_HELP,
    guided_flag,
    parse_options,
    served_consent_flag,
    skill_source,
)
from studio.commands.served import skill_paths_async
from studio.commands.sessions import session_factory
from studio.commands.terminal import TerminalApprover
from studio.commands.textsafe import utf8_json, utf8_text
from studio.llm import (
    BACKENDS,
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    LLMError,
    Message,
    ToolCall,
    checked_url,
    new_call_id,
)
from studio.paths import cache_dir
from studio.settings import (
    MAX_ANSWER_SECONDS,
    MAX_ANSWER_TOKENS,
    PromptSettings,
    Settings,
    load_settings,
)
from studio.skills.scan import scan, standard_locations
from studio.skills.search import INDEX_FILE
from studio.textshow import ProseStream, shown, shown_json

# Held files named one a line; past these, counted (the audit log lists them all).
MAX_HELD_LINES = 100
# Bytes of `--system @FILE`: instructions, not a book.
MAX_INSTRUCTIONS = 64 * 1024


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "chat",
        help="run one conversation turn with a local model that can use skills",
        description="Send PROMPT to a local model with the skills' catalog; the model can load "
        "skills, read their files and run their scripts, each run judged by the tool policy.",
    )
    parser.add_argument("prompt", nargs="+", metavar="PROMPT")
    parser.add_argument("--backend", choices=BACKENDS, default="ollama")
    parser.add_argument("--url", help="the server's URL (default: the backend's usual one)")
    parser.add_argument(
        "--model",
        help="the model's name; for --backend embedded a .gguf file or a model Ollama has pulled "
        "(default: the server's first model)",
    )
    parser.add_argument("--skills", action="append", type=skill_source, default=[],
                        metavar="PATH", help=f"{SKILL_SOURCE_HELP} (repeatable; default: the "
                        "standard locations)")
    served_consent_flag(parser)
    parser.add_argument("--create-in", type=Path, default=None, metavar="DIR",
                        help="where skills the model drafts are created (default: the first "
                        "writable skill folder)")
    parser.add_argument("--pin", action="append", default=[], metavar="SKILL",
                        help="keep this skill in the catalog however small the model's context "
                             "(repeatable; the others are ranked by the prompt)")
    parser.add_argument("--agentfile", type=Path, metavar="PATH",
                        help="run the agent an Agentfile describes (Ollama's format): its model, "
                        "system text, parameters and only its skills; --model, --skills and "
                        "--option still win")
    parser.add_argument("--system", metavar="TEXT|@FILE",
                        help="instructions on using skills that replace the studio's (and the "
                        "settings' `prompts.instructions`) for this run; @FILE reads them from a "
                        "UTF-8 file")
    parser.add_argument("--workspace", type=Path, default=None,
                        help="the project folder the tool policy protects (default: here)")
    parser.add_argument("--workspace-mode", choices=WORKSPACE_MODES, default="project",
                        help="project: a skill inside the workspace works on it (the default); "
                        "skill: each skill's own folder is its workspace, as in the studio's "
                        "default")
    approvals = parser.add_mutually_exclusive_group()
    approvals.add_argument("--auto-approve", action="store_true",
                           help="run what the policy would ask about; blocked stays blocked")
    approvals.add_argument("--deny-all", action="store_true", help="deny every tool run that asks")
    parser.add_argument("--unsandboxed", action="store_true",
                        help="let --auto-approve run commands where there is no sandbox "
                        "(without it, they run nothing there and say why)")
    parser.add_argument("--allow-network", action="store_true",
                        help="let every tool run use the network (the sandbox cuts it off "
                        "otherwise; --auto-approve never grants it)")
    parser.add_argument("--keep-writes", action="store_true",
                        help="keep the files a tool run wrote that other tools would run later "
                        "(.envrc, a new .git, .vscode/, Makefile, package.json, ...); without "
                        "it they are listed and discarded")
    parser.add_argument("--json", action="store_true", help="print one JSON event per line")
    parser.add_argument("--think", action="store_true", help="let the model think first, if it can")
    guided_flag(parser)
    parser.add_argument("--tool-choice", metavar="auto|required|none|TOOL",
                        help="`required` (or a tool's name) makes the model's first reply a tool "
                        "call; later replies are free")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a sampling option for the server, e.g. temperature=0 or "
                        "max_tokens=64 (repeatable; VALUE is read as JSON when it can be)")
    parser.add_argument("--history", type=Path, metavar="FILE",
                        help="a JSON list of earlier messages to continue from ({role, content, "
                        "tool_calls: [{id, name, arguments}], tool_name, tool_call_id})")
    parser.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds a tool run may take (default: %(default)s)")
    parser.add_argument("--connect-timeout", type=seconds, default=float(CONNECT_TIMEOUT),
                        metavar="SECONDS",
                        help="seconds to wait for the model server to accept the connection "
                        "(default: %(default)g)")
    parser.add_argument("--idle-timeout", type=seconds, default=float(IDLE_TIMEOUT),
                        metavar="SECONDS",
                        help="seconds the model server may send no piece of the answer (blank "
                        "keep-alive lines do not count) before the chat gives up; a cold model "
                        "takes longest to send the first (default: %(default)g)")
    parser.add_argument("--max-answer-tokens", type=_positive_int, default=MAX_ANSWER_TOKENS,
                        metavar="TOKENS",
                        help="the most tokens one answer may stream before it is stopped "
                        "(default: %(default)s)")
    parser.add_argument("--max-answer-seconds", type=seconds, default=float(MAX_ANSWER_SECONDS),
                        metavar="SECONDS",
                        help="the most seconds one answer may take, tool runs included, before "
                        "it is stopped (default: %(default)g)")
    parser.set_defaults(handler=run)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number above 0")
    return value


def load_history(path: Path | None) -> list[Message]:
    """Earlier messages from a JSON file; a bad file stops the command with a clear message."""
    if path is None:
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise ValueError("the file must hold a JSON list of messages")
        messages = []
        for number, item in enumerate(data, 1):
            if not isinstance(item, dict) or item.get("role") not in ("user", "assistant", "tool"):
                raise ValueError(f"message {number} needs a role of user, assistant or tool")
            calls = [
                ToolCall(str(c.get("id") or new_call_id()), str(c["name"]), dict(c.get("arguments") or {}))
                for c in item.get("tool_calls") or []
            ]
            messages.append(Message(item["role"], str(item.get("content") or ""), calls,
                                    tool_name=item.get("tool_name"),
                                    tool_call_id=item.get("tool_call_id")))
        return messages
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"studio chat: cannot use the history {path}: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc


def choose_approver(args: argparse.Namespace, stdin: TextIO) -> Approver:
    if args.auto_approve:
        return AutoApprover(unsandboxed=args.unsandboxed)
    if args.deny_all:
        return DenyAllApprover()
    if stdin.isatty():
        return TerminalApprover()
    return NobodyApprover()


def _skill_values(args: argparse.Namespace, workspace: Path,
                  agent: Agentfile | None) -> list[Path | str]:
    if args.skills:
        return list(args.skills)
    if agent is not None and agent.spec.skills:
        return [skill_source(str(path)) for path in agent.spec.skills]
    return [path for path in standard_locations(workspace) if path.is_dir()]


class _Shown:
    """A terminal stream that shows what it is given and never lets it act: every control, escape,
    bidi and zero-width character as a visible marker (`\\e[2J`, `<U+202E>`, `shown_prose`), even
    when a sequence arrives split over several writes, and each byte that is not UTF-8 (a lone
    surrogate: from a file name, the command line or a model's `\\udcff`) as its `\\xNN` escape
    instead of failing."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._prose = ProseStream()

    def write(self, text: str) -> None:
        self.stream.write(utf8_text(self._prose.feed(text)))

    def end(self) -> None:
        """Write what the last write held back (a CR that a LF might have followed)."""
        self.stream.write(utf8_text(self._prose.end()))
        self.stream.flush()

    def flush(self) -> None:
        self.stream.flush()


class Renderer:
    """Prints events: answer text on stdout, everything else on stderr (or JSON lines); a
    command asked about without a sandbox says why there is none, whoever answers."""

    def __init__(self, as_json: bool, out: TextIO, err: TextIO, asks_itself: bool = False) -> None:
        self.as_json = as_json
        # The terminal's approver shows each request whole, the missing sandbox with it.
        self.asks_itself = asks_itself
        self.out = _Shown(out)
        self.err = _Shown(err)
        self._open_line = False
        self._fork_line = False

    def note(self, text: str) -> None:
        if self._open_line:
            self.out.write("\n")
            self.out.flush()
            self._open_line = False
        if self._fork_line:
            self.err.write("\n")
            self._fork_line = False
        self.err.write(text + "\n")
        self.err.flush()

    def show(self, event: Event) -> None:
        if self.as_json:
            # A lone surrogate, a control or a bidi character as its JSON escape: the terminal
            # shows it, and `json.loads` gives the text back as it was.
            line = json.dumps(event_to_json(event), ensure_ascii=False, default=str)
            self.out.stream.write(utf8_json(shown_json(line)) + "\n")
            self.out.flush()
            return
        if isinstance(event, Nested):
            self._show_nested(event)
        elif isinstance(event, TextDelta):
            self.out.write(event.text)
            self.out.flush()
            self._open_line = not event.text.endswith("\n")
        elif isinstance(event, ThinkingDelta):
            self.err.write(event.text)
            self.err.flush()
        elif isinstance(event, ChatNotice):
            self.note(f"studio: {event.message}")
        elif isinstance(event, Error):
            self.note(f"studio: error: {event.message}")
        elif isinstance(event, ToolCallRequested):
            held = " (constrained)" if event.constrained else ""
            self.note(f"-> {shown(event.tool)}: {shown(event.summary)}{held}")
        elif isinstance(event, ApprovalNeeded) and event.unsandboxed and not self.asks_itself:
            self.note(f"   no sandbox: {event.unsandboxed}")
        elif isinstance(event, ApprovalGiven) and event.by != "policy":
            how = {"once": "approved once", "always": f"always allowed ({shown(str(event.scope))})",
                   "deny": "denied"}.get(event.choice, shown(event.choice))
            reason = f": {shown(event.reason)}" if event.reason else ""
            self.note(f"   {how} by {shown(event.by)}{reason}")
        elif isinstance(event, ToolWrites):
            for line in writes_lines(event):
                self.note(line)
        elif isinstance(event, ToolFinished):
            self.note(_finished_line(event))
        elif isinstance(event, ForkStarted):
            self.note(_fork_line(event))
        elif isinstance(event, Done):
            if self._open_line:
                self.out.write("\n")
                self._open_line = False
            if event.unverified:
                self.note(f"(not verified: {event.unverified})")
            self.out.end()
            self.err.end()


    def _show_nested(self, nested: Nested) -> None:
        """A fork's events, indented under its parent's call on stderr: its answer comes back to
        the parent as the tool's result, so stdout keeps only the chat's own answer."""
        event: Event = nested
        depth = 0
        while isinstance(event, Nested):
            event, depth = event.event, depth + 1
        indent = "   | " * depth
        if isinstance(event, TextDelta | ThinkingDelta):
            text = event.text if self._fork_line else indent + event.text
            self.err.write(text[:-1].replace("\n", "\n" + indent) + text[-1:])
            self.err.flush()
            self._fork_line = not text.endswith("\n")
            return
        if isinstance(event, ChatNotice):
            self.note(f"{indent}studio: {event.message}")
        elif isinstance(event, Error):
            self.note(f"{indent}studio: error: {event.message}")
        elif isinstance(event, ToolCallRequested):
            self.note(f"{indent}-> {shown(event.tool)}: {shown(event.summary)}")
        elif isinstance(event, ToolWrites):
            for line in writes_lines(event):
                self.note(indent + line.lstrip())
        elif isinstance(event, ToolFinished):
            self.note(indent + _finished_line(event).lstrip())
        elif isinstance(event, ForkStarted):
            self.note(indent + _fork_line(event).lstrip())
        elif isinstance(event, Done):
            self.note(f"{indent}(fork {event.reason})")


def _fork_line(event: ForkStarted) -> str:
    agent = f" as the agent {shown(event.agent)}" if event.agent else ""
    return (f"   fork: skill {shown(event.skill)} runs in a fork ({shown(event.context)}) on "
            f"{shown(event.model)}{agent}")


def writes_lines(event: ToolWrites) -> list[str]:
    """What a run wrote, a line for each kind, and a line for each file held back."""
    lines = []
    for what, paths in (("created", event.created), ("changed", event.changed),
                        ("deleted", event.deleted)):
        if paths:
            lines.append(f"   {what}: {shown(', '.join(paths))}")
    if event.omitted:
        lines.append(f"   and {event.omitted:,} more (see `studio policy log`)")
    for item in event.held[:MAX_HELD_LINES]:
        lines.append(f"   held back ({item.kind}): {shown(item.path)}: {item.reason}")
    if len(event.held) > MAX_HELD_LINES:
        lines.append(f"   held back: {len(event.held) - MAX_HELD_LINES:,} more (see "
                     "`studio policy log`)")
    lines += [f"   ! {problem}" for problem in event.problems]
    return lines


def decide_held(sessions: SessionFactory, event: Event, keep: bool) -> str | None:
    """Keep (`--keep-writes`) or discard what a run held back; what to tell the user."""
    while isinstance(event, Nested):
        event = event.event
    if not isinstance(event, ToolWrites) or event.hold_id is None:
        return None
    names = shown(", ".join(item.path for item in event.held[:MAX_HELD_LINES]))
    if len(event.held) > MAX_HELD_LINES:
        names += f" and {len(event.held) - MAX_HELD_LINES:,} more"
    try:
        if not keep:
            sessions.discard_writes(event.hold_id)
            return (f"discarded what the run wrote that other tools would run: {names}. Pass "
                    "--keep-writes to keep such files")
        landing = sessions.keep_writes(event.hold_id)
    except HoldError as exc:
        return str(exc)
    said = f"kept (--keep-writes): {names}"
    return "; ".join((said, *landing.problems))


def _finished_line(event: ToolFinished) -> str:
    timing = f" in {event.duration:.2f} s" if event.duration is not None else ""
    if event.status in ("ok", "failed"):
        head = f"   exit {event.exit_code}{timing}" if event.exit_code is not None else f"   done{timing}"
    else:
        head = f"   {event.status}{timing}"
    first = event.result.strip().splitlines()
    if event.status in ("blocked", "denied", "error") and first:
        head += f": {first[0]}"
    return head


def _server_url(given: str | None, renderer: Renderer) -> str | None:
    """`--url` checked; one without a scheme gets http://, and the user is told."""
    if given is None:
        return None
    url = checked_url(given)
    if url != given.strip():
        renderer.note(f"studio chat: --url {given} has no scheme; using {url}")
    return url


class Stopped(Exception):
    """SIGTERM or SIGHUP ended the chat; the running command's sandbox and process group went
    with it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop_on_signals(received: list[int]) -> None:
    """Make SIGTERM and SIGHUP cancel the chat like Ctrl+C does, so a running command is ended
    (its process group, and with bubblewrap its whole sandbox) instead of orphaned."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None

    def stop(signum: int) -> None:
        received.append(signum)
        task.cancel()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop, signum)


async def _chat_until_signalled(
    args: argparse.Namespace, renderer: Renderer, approver: Approver
) -> int:
    received: list[int] = []
    _stop_on_signals(received)
    try:
        return await chat(args, renderer, approver)
    except asyncio.CancelledError:
        if received:
            raise Stopped(received[0]) from None
        raise


def _agentfile(args: argparse.Namespace, renderer: Renderer) -> Agentfile | None:
    if args.agentfile is None:
        return None
    try:
        agent = read_agentfile(args.agentfile)
    except AgentfileError as exc:
        renderer.note(f"studio chat: {exc}")
        raise SystemExit(2) from None
    for warning in agent.warnings:
        renderer.note(f"studio chat: {args.agentfile}: {warning}")
    return agent


def _instructions(given: str | None, renderer: Renderer) -> str | None:
    """`--system`: the text, or the text of the file after an @; None when not given."""
    if given is None or not given.startswith("@"):
        return given
    path = Path(given[1:]).expanduser()
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INSTRUCTIONS + 1)
        if len(data) > MAX_INSTRUCTIONS:
            raise ValueError(f"it is over {MAX_INSTRUCTIONS // 1024} KiB; instructions that long "
                             "leave no room for the conversation")
        return data.decode("utf-8")
    except OSError as exc:
        problem = exc.strerror or str(exc)
    except UnicodeDecodeError as exc:
        problem = f"it is not UTF-8 text (byte {exc.start})"
    except ValueError as exc:
        problem = str(exc)
    renderer.note(f"studio chat: --system {given}: cannot use {path}: {problem}")
    raise SystemExit(2)


def _stored_settings(renderer: Renderer) -> Settings:
    """The settings file's custom prompts and sandbox limits (the defaults when it cannot be
    read)."""
    loaded = load_settings()
    for problem in loaded.problems:
        renderer.note(f"studio chat: {problem}")
    return loaded.settings


def session_settings(args: argparse.Namespace, url: str | None, agent: Agentfile | None = None,
                     skill_paths: Sequence[Path] = (),
                     prompts: PromptSettings | None = None) -> SessionSettings:
    """The core session's settings from the command line (and the Agentfile it names, and the
    custom prompts: the settings', with `--system` in them)."""
    spec = agent.spec if agent is not None else None
    prompts = prompts if prompts is not None else PromptSettings()
    return SessionSettings(
        backend=args.backend, url=url or "", model=args.model or (spec.model if spec else ""),
        think=args.think,
        connect_timeout=args.connect_timeout, idle_timeout=args.idle_timeout,
        max_answer_tokens=args.max_answer_tokens, max_answer_seconds=args.max_answer_seconds,
        workspace_mode=args.workspace_mode, workspace=(args.workspace or Path.cwd()).resolve(),
        allow_network=args.allow_network, tool_timeout=args.timeout, max_rounds=args.max_rounds,
        tool_choice=args.tool_choice,
        options={**(spec.parameters if spec else {}), **parse_options(args.option)},
        keep=tuple(args.pin), search_index=cache_dir() / INDEX_FILE,
        search_embedder=default_search_embedder(),
        create_in=getattr(args, "create_in", None) or first_writable_folder(list(skill_paths)),
        system=spec.system if spec else "",
        instructions=prompts.instructions,
        tool_descriptions=dict(prompts.tools),
        guided=getattr(args, "guided", "auto"),
        guided_write=getattr(args, "guided_write", True),
    )


async def chat(args: argparse.Namespace, renderer: Renderer, approver: Approver) -> int:
    history = load_history(args.history)
    agent = _agentfile(args, renderer)
    stored = _stored_settings(renderer)
    if isinstance(approver, AutoApprover) and stored.sandbox.allow_unsandboxed:
        approver.unsandboxed = True
    prompts = stored.prompts
    given = _instructions(args.system, renderer)
    if given is not None:
        prompts = replace(prompts, instructions=given)
    workspace = (args.workspace or Path.cwd()).resolve()
    roots = await skill_paths_async("chat", args, _skill_values(args, workspace, agent))
    skill_paths = roots.paths
    try:
        settings = session_settings(args, _server_url(args.url, renderer), agent, skill_paths,
                                    prompts)
        settings = replace(settings, limits=stored.sandbox.limits(),
                           allow_env=tuple(stored.sandbox.env))
    except LLMError as exc:
        renderer.show(Error(exc.user_message))
        return 1
    collected = scan(skill_paths)
    collected.skills, shadowed = roots.drop_shadowed(collected.skills)
    for note in shadowed:
        renderer.note(f"studio chat: {note}")
    for problem in collected.problems:
        renderer.note(f"studio chat: {problem}")
    found = {skill.name for skill in collected.skills}
    for pin in dict.fromkeys(settings.keep):
        if pin not in found:
            renderer.note(f"studio chat: --pin {pin}: there is no skill of that name among the "
                          "skills given; check the name (the `name:` in its SKILL.md)")
    outcome = "error"
    async with httpx.AsyncClient() as http:
        sessions = session_factory(approver, http)
        try:
            session = sessions.session(settings, collected.skills, history=history)
            if session.skipped:
                renderer.show(ChatNotice("left out of the catalog (they would not load): "
                                     + ", ".join(session.skipped)))
            if not collected.skills:
                renderer.show(ChatNotice("no skills found; pass --skills PATH to give the model some"))
            async for event in session.turn(" ".join(args.prompt)):
                renderer.show(event)
                decided = decide_held(sessions, event, getattr(args, "keep_writes", False))
                if decided is not None:
                    renderer.show(ChatNotice(decided))
                if isinstance(event, Done):
                    outcome = event.reason
        finally:
            await sessions.close()
    return 0 if outcome == "answered" else 1


def run(args: argparse.Namespace) -> int:
    approver = choose_approver(args, sys.stdin)
    renderer = Renderer(args.json, sys.stdout, sys.stderr,
                        asks_itself=isinstance(approver, TerminalApprover))
    try:
        return asyncio.run(_chat_until_signalled(args, renderer, approver))
    except KeyboardInterrupt:
        renderer.note("studio chat: stopped")
        return 130
    except Stopped as stop:
        renderer.note(f"studio chat: stopped by {stop}; any command it was running has been ended")
        return 128 + stop.signum
