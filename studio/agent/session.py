"""One chat with a model that can use skills, the same for the CLI and the studio.

A `ChatSession` owns the conversation (system prompt first), the model server's client, the
skills' tools, the policy's workspace, the grants, the audit log and the network choice; `turn()`
yields the typed events of one turn. A front end only renders those events and answers the
approvals its `Approver` is asked, so a command gets the same verdict in both.

Cancelling the task iterating `turn()` closes the model's HTTP stream and kills a running tool's
process group (see `studio.agent.execute`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from studio.agent.agents import AgentStore
from studio.agent.approval import Approver
from studio.agent.chat_skill import ChatSkillDraft, draft_from_chat
from studio.agent.drafts import DraftDesk, FolderChooser
from studio.agent.events import ChatNotice, Done, Error, Event, Nested, TextDelta, ThinkingDelta
from studio.agent.execute import ToolExecutor
from studio.agent.fork import SkillModes
from studio.agent.guided.mode import CLI_HINT
from studio.agent.holding import HoldingArea, Landing
from studio.agent.invoke import PREFIXES, parse_invocation
from studio.agent.loop import DEFAULT_MAX_ROUNDS, Agent, AgentConfig
from studio.agent.prompt import fit_system_prompt, system_prompt
from studio.agent.run import DEFAULT_TIMEOUT
from studio.agent.sandbox import Support
from studio.agent.search_tool import SkillSearch
from studio.agent.server import ModelServer
from studio.agent.tools import SkillToolbox, ToolError
from studio.llm import CONNECT_TIMEOUT, IDLE_TIMEOUT, BadURL, LLMError, Message, ServerNotRunning, Timeout
from studio.policy import AuditError, AuditLog, Grants
from studio.settings import (
    MAX_ANSWER_SECONDS,
    MAX_ANSWER_TOKENS,
    WORKSPACE_MODES,
    GuidedMode,
    Limits,
    WorkspaceMode,
)
from studio.skills import SkillSummary
from studio.skills.library import UnpackedSkills
from studio.skills.search import Embedder

if TYPE_CHECKING:
    # The app's one HTTP client, handed through to the model clients.
    import httpx

__all__ = ["WORKSPACE_MODES", "ChatSession", "SessionFactory", "SessionSettings", "WorkspaceMode",
           "make_executor", "make_toolbox", "session_prompt"]

# What an expanded `/NAME` message says after the text as typed (and how one is recognised).
_EXPANDED = "\n\nI invoke the skill "
# The user's last messages that rank the catalog's skills for a turn.
_QUERY_TURNS = 3
# A streamed piece is about a token; a piece sent whole (one large chunk) counts as ~4 characters
# a token, so a server cannot slip a long answer past the bound in a few big pieces.
_CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """How a chat reaches its model and how its tools are judged.

    Attributes:
        backend: "ollama", "openai" or "embedded".
        url: the server's URL ("" for the backend's usual one; unused for embedded).
        model: the model's name on the server ("" for its first); for embedded, a .gguf file or
            a model Ollama has pulled.
        workspace_mode: "project": the policy protects `workspace` and a skill inside it works
            on it; "skill": each skill's own folder is its workspace, and everything else is
            outside.
        workspace: the project folder for "project" (None: the current folder).
        allow_network: every tool run may use the network, not only the ones approved with it.
        tool_timeout: seconds a tool run may take.
        tool_choice: forces the first reply to be a tool call ("required" or a tool's name).
        options: sampling options passed to the server.
        search_index: where the `search_skills` tool keeps its index (None: no such tool).
        search_embedder: the embedding model `search_skills` fuses with words (None: words only).
        create_in: the folder `create_skill` writes new skills in (None: creating is refused,
            with why); `update_skill` changes skills where they are, after approval.
        keep: skills the catalog always holds, however small the model's context (pinned ones;
            skills being tried, the session's `overrides`, are kept too).
        system: an agent's system text, put first in the system prompt ("" for none).
        instructions: replace the system prompt's instructions on using skills (blank: the
            studio's, `studio.agent.prompt.INSTRUCTIONS`).
        tool_descriptions: a tool's name -> the description the model is given instead of the
            studio's (blank: the studio's).
        guided: carry a small model through a skill one constrained step at a time
            (`studio.agent.guided.replies`): "on", "off", or "auto": when the server says the model is
            small (`studio.agent.guided.mode`).
        guided_write: guided, a model that fills a run's arguments writes the run whole instead
            (`studio.agent.guided.write`), the rules checking it before it runs: the default, as
            it did better than the fill alone on skills written blind (benchmarks/HISTORY.md).
        limits: what each sandboxed tool run may use (`studio.agent.sandbox.Limits`).
        allow_env: environment names passed to tool runs besides the allowlist.
        guided_hint: how the user changes `guided`, for the notice "auto" gives (the CLI's
            option by default; the window names its setting).
        max_answer_tokens: the most tokens one answer may stream; past it the answer is ended.
        max_answer_seconds: the most seconds one answer may take; past it the answer is ended.
    """

    backend: str = "ollama"
    url: str = ""
    model: str = ""
    think: bool = False
    connect_timeout: float = CONNECT_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT
    workspace_mode: WorkspaceMode = "project"
    workspace: Path | None = None
    allow_network: bool = False
    tool_timeout: float = DEFAULT_TIMEOUT
    max_rounds: int = DEFAULT_MAX_ROUNDS
    tool_choice: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    search_index: Path | None = None
    search_embedder: Embedder | None = None
    create_in: Path | None = None
    keep: tuple[str, ...] = ()
    system: str = ""
    instructions: str = ""
    tool_descriptions: Mapping[str, str] = field(default_factory=dict)
    guided: GuidedMode = "auto"
    guided_write: bool = True
    limits: Limits = field(default_factory=Limits)
    allow_env: tuple[str, ...] = ()
    guided_hint: str = CLI_HINT
    max_answer_tokens: int = MAX_ANSWER_TOKENS
    max_answer_seconds: float = float(MAX_ANSWER_SECONDS)


def session_prompt(settings: SessionSettings,
                   skills: Sequence[SkillSummary]) -> tuple[str, list[str]]:
    """The system prompt a session with `settings` starts with (the agent's system text, the
    instructions and the whole catalog), and the skills left out as they would not load."""
    prompt, skipped = system_prompt(skills, instructions=settings.instructions)
    return _after_system(settings, prompt), skipped


def _after_system(settings: SessionSettings, prompt: str) -> str:
    system = settings.system.strip()
    return f"{system}\n\n{prompt}" if system else prompt


class _SkillFolderExecutor(ToolExecutor):
    """The "skill" workspace mode: anything outside the skill's folder is outside."""

    def workspace_for(self, directory: Path) -> Path:
        return directory.resolve()


def make_toolbox(settings: SessionSettings, skills: Sequence[SkillSummary],
                 overrides: Mapping[str, str] | None = None, *,
                 choose_folder: FolderChooser | None = None,
                 unpacked: UnpackedSkills | None = None) -> SkillToolbox:
    """The tools a session with `settings` offers over `skills`, described as the model sees them;
    the scripts of zipped skills run from their copies in `unpacked`."""
    workspace = (settings.workspace or Path.cwd()).resolve()
    search = (SkillSearch(skills, settings.search_index, settings.search_embedder)
              if settings.search_index is not None else None)
    # The author is the model, known once the session has connected (see `ChatSession._connect`).
    drafts = DraftDesk(settings.create_in, settings.model or "model", choose_folder=choose_folder)
    return SkillToolbox(skills, workspace, overrides, search=search, drafts=drafts,
                        descriptions=settings.tool_descriptions, unpacked=unpacked)


def make_executor(settings: SessionSettings, skills: Sequence[SkillSummary], approver: Approver,
                  grants: Grants, audit: AuditLog | None, *,
                  overrides: Mapping[str, str] | None = None, home: Path | None = None,
                  support: Support | None = None,
                  choose_folder: FolderChooser | None = None,
                  unpacked: UnpackedSkills | None = None,
                  holding: HoldingArea | None = None) -> ToolExecutor:
    """The tools for `skills`, judged in the workspace `settings` chooses. `choose_folder` asks
    where new skills go when `settings.create_in` does not say; held files wait in `holding`."""
    kind = _SkillFolderExecutor if settings.workspace_mode == "skill" else ToolExecutor
    toolbox = make_toolbox(settings, skills, overrides, choose_folder=choose_folder,
                           unpacked=unpacked)
    return kind(toolbox, approver, grants, audit,
                timeout=settings.tool_timeout, allow_network=settings.allow_network, home=home,
                support=support, limits=settings.limits, allow_env=settings.allow_env,
                holding=holding)


class ChatSession:
    """One conversation and everything its turns need.

    Attributes:
        settings: the model, the workspace mode and the tools' limits.
        messages: the conversation, the system prompt first; a turn appends the user's prompt,
            the model's answers and the tool results.
        skipped: skills left out of the catalog because they would not load.
        left_out: skills left out of the catalog to fit the model's context, as of the last turn.
        executor: the tools, the policy context, grants and audit log.
        server: the model server (the engine, for embedded).
    """

    def __init__(self, settings: SessionSettings, skills: Sequence[SkillSummary],
                 approver: Approver, *, server: ModelServer, grants: Grants,
                 audit: AuditLog | None, history: Sequence[Message] = (),
                 overrides: Mapping[str, str] | None = None, home: Path | None = None,
                 support: Support | None = None, agents: AgentStore | None = None,
                 choose_folder: FolderChooser | None = None,
                 unpacked: UnpackedSkills | None = None,
                 holding: HoldingArea | None = None) -> None:
        self.settings = settings
        self.agents = agents
        self.server = server
        self.executor = make_executor(settings, skills, approver, grants, audit,
                                      overrides=overrides, home=home, support=support,
                                      choose_folder=choose_folder, unpacked=unpacked,
                                      holding=holding)
        self._skills = list(skills)
        self._keep = {*settings.keep, *(overrides or {})}
        prompt, self.skipped = session_prompt(settings, self._skills)
        self.messages: list[Message] = [Message("system", prompt), *history]
        self.left_out: tuple[str, ...] = ()
        self._agent: Agent | None = None
        self._context_known = False

    def set_history(self, history: Sequence[Message]) -> None:
        """Make `history` the conversation after the system prompt: a front end that keeps the
        chat (and edits it: regenerating drops the last answer) hands it over before a turn,
        while the session keeps what it learnt of the model."""
        self.messages[1:] = list(history)

    async def turn(self, prompt: str | None = None) -> AsyncIterator[Event]:
        """One turn answering `prompt` (None: the conversation's last message, already given).
        Ends with `Done`; a server that cannot be reached gives `Error` then `Done("error")`, and
        an answer past the settings' bound on tokens or time `Error` then `Done("answer-limit")`
        (its HTTP stream and any tool run closed)."""
        deadline = asyncio.get_running_loop().time() + self.settings.max_answer_seconds
        if prompt is not None:
            self.messages.append(Message("user", prompt))
        for said in self._expand_invocations():
            yield ChatNotice(said)
        try:
            agent = await self._connect()
        except LLMError as exc:
            yield Error(exc.user_message)
            yield Done("error")
            return
        try:
            notice = await self._fit(agent)
        except LLMError as exc:
            yield Error(exc.user_message)
            yield Done("error")
            return
        if notice is not None:
            yield ChatNotice(notice)
        # Closing the loop's generator at once (on Stop, or an early return) closes the HTTP stream.
        events = cast(AsyncGenerator[Event, None], agent.run(self.messages))
        settings = self.settings
        tokens = 0
        answer = ""
        async with contextlib.aclosing(events):
            while True:
                try:
                    # The timeout cancels the loop inside its own task: the HTTP stream closes.
                    async with asyncio.timeout_at(deadline):
                        event = await anext(events)
                except StopAsyncIteration:
                    return
                except TimeoutError:
                    yield Error(f"The answer took longer than the {settings.max_answer_seconds:g} "
                                "seconds allowed and was stopped. Raise “Most seconds an "
                                "answer may take” in Settings (studio chat: --max-answer-seconds) "
                                "if it needs longer.")
                    yield Done("answer-limit", answer, model=agent.config.model)
                    return
                yield event
                piece = _streamed(event)
                if piece is None:
                    continue
                if isinstance(piece, TextDelta):
                    answer += piece.text
                tokens += max(1, len(piece.text) // _CHARS_PER_TOKEN)
                if tokens > settings.max_answer_tokens:
                    yield Error(f"The answer passed the {settings.max_answer_tokens:,} tokens "
                                "allowed and was stopped. Raise “Most tokens in an answer” in "
                                "Settings (studio chat: --max-answer-tokens) if it needs more.")
                    yield Done("answer-limit", answer, model=agent.config.model)
                    return

    def invocable(self) -> list[tuple[str, str]]:
        """The skills the user may invoke by name (`/NAME`), with their descriptions."""
        return [(e.name, e.description) for e in self.executor.toolbox.user_invocable()]

    def _expand_invocations(self) -> list[str]:
        """Put each `/NAME arguments` (or `$NAME ...`) message of the user's in the conversation
        as the skill's instructions with the arguments substituted (`studio.agent.invoke`); the
        front ends keep the message as typed and hand it back each turn, so every one is expanded
        again. Returns what to tell the user about the last message."""
        toolbox = self.executor.toolbox
        notices: list[str] = []
        last = len(self.messages) - 1
        for index, message in enumerate(self.messages):
            if (message.role != "user" or not message.content.lstrip().startswith(PREFIXES)
                    or _EXPANDED in message.content):
                continue
            invocation = parse_invocation(message.content, toolbox.all_names)
            if invocation is None:
                continue
            try:
                content = toolbox.invoke(invocation.name, invocation.arguments)
            except ToolError as exc:
                if index == last:
                    notices.append(f"{exc}; the message was sent as typed.")
                continue
            self._keep.add(invocation.name)
            given = (f" with the arguments: {invocation.arguments}" if invocation.arguments
                     else "")
            self.messages[index] = replace(message, content=(
                f"{message.content.strip()}{_EXPANDED}`{invocation.name}`{given}. "
                "Here are its instructions, with my arguments put in; follow them now.\n"
                + content))
            if index == last:
                notices.append(f"Loaded the skill {invocation.name} as you asked"
                               + (f" ({invocation.arguments})." if invocation.arguments else "."))
        return notices

    async def _fit(self, agent: Agent) -> str | None:
        """Fit the system prompt's catalog to the model's context (learnt once) for this turn: the
        skills kept (pinned, being tried, named in the user's message), then those most relevant to
        the conversation. The agent's tools then name only the catalog's skills. Returns what to
        tell the user when the skills left out changed."""
        if not self._context_known:
            try:
                agent.context_length = await agent.client.context_length(agent.config.model)
            except (ServerNotRunning, Timeout, BadURL):
                raise
            except LLMError:
                agent.context_length = None
            self._context_known = True
        if agent.context_length is None:
            return None
        said = [m.content for m in self.messages if m.role == "user"][-_QUERY_TURNS:]
        named = {name for name in agent.executor.toolbox.names
                 if said and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", said[-1])}
        fitted = fit_system_prompt(self._skills, agent.context_length, query=" ".join(said),
                                   keep=self._keep | named,
                                   instructions=self.settings.instructions)
        self.messages[0] = Message("system", _after_system(self.settings, fitted.text))
        left_out = set(fitted.left_out)
        agent.offered = [name for name in agent.executor.toolbox.names if name not in left_out]
        changed = fitted.left_out != self.left_out
        self.left_out = fitted.left_out
        return fitted.notice() if changed else None

    async def _connect(self) -> Agent:
        if self._agent is None:
            settings = self.settings
            self.server.configure(settings.backend, settings.url,
                                  (settings.connect_timeout, settings.idle_timeout))
            client, model = await self.server.open(settings.model)
            if self.executor.toolbox.drafts is not None:
                self.executor.toolbox.drafts.author = model
            config = AgentConfig(model, think=settings.think, max_rounds=settings.max_rounds,
                                 tool_choice=settings.tool_choice, options=dict(settings.options),
                                 guided=settings.guided, guided_hint=settings.guided_hint,
                                 guided_write=settings.guided_write)
            self._agent = Agent(client, self.executor, config, SkillModes(self.agents))
        return self._agent


def _streamed(event: Event) -> TextDelta | ThinkingDelta | None:
    """The text or thinking a model streamed in `event` (a fork's, nested, included)."""
    while isinstance(event, Nested):
        event = event.event
    return event if isinstance(event, TextDelta | ThinkingDelta) else None


class SessionFactory:
    """Makes chat sessions that share what outlives one chat: the HTTP client, the model server
    (and its engine), the approver, the grants and the audit log.

    Attributes:
        server: the model server every session talks to.
        approver: who is asked when the policy says `ask`.
        grants, audit: "always allow" grants and the log of every decision and run.
        agents: the saved agents a skill's `agent:` names (default: the config folder's).
        unpacked: the read-only copies the scripts of zipped skills run from (default: in the
            cache folder).
        holding: where files a run wrote that other tools would run wait for the user's Keep
            or Discard (default: in the data folder).
    """

    def __init__(self, approver: Approver, http: httpx.AsyncClient | None = None, *,
                 grants: Grants | None = None, audit: AuditLog | None = None,
                 server: ModelServer | None = None, home: Path | None = None,
                 support: Support | None = None, agents: AgentStore | None = None,
                 unpacked: UnpackedSkills | None = None,
                 holding: HoldingArea | None = None) -> None:
        self.approver = approver
        self.holding = holding if holding is not None else HoldingArea()
        self.agents = agents if agents is not None else AgentStore()
        self.unpacked = unpacked if unpacked is not None else UnpackedSkills()
        self.server = server if server is not None else ModelServer(http)
        self.grants = grants if grants is not None else Grants()
        self.audit = audit if audit is not None else AuditLog()
        self._home = home
        self._support = support

    def session(self, settings: SessionSettings, skills: Sequence[SkillSummary], *,
                history: Sequence[Message] = (),
                overrides: Mapping[str, str] | None = None,
                choose_folder: FolderChooser | None = None) -> ChatSession:
        return ChatSession(settings, skills, self.approver, server=self.server,
                           grants=self.grants, audit=self.audit, history=history,
                           overrides=overrides, home=self._home, support=self._support,
                           agents=self.agents, choose_folder=choose_folder,
                           unpacked=self.unpacked, holding=self.holding)

    def writes_pending(self, hold_id: str) -> bool:
        """Whether the files held back in `hold_id` still wait for Keep or Discard."""
        return self.holding.pending(hold_id)

    def keep_writes(self, hold_id: str) -> Landing:
        """Land the files a run wrote that were held back in `hold_id` (the user kept them),
        logged. Raises `HoldError` when there is no such hold (kept or discarded already)."""
        landing = self.holding.keep(hold_id)
        return self._log_held(hold_id, landing, keep=True)

    def discard_writes(self, hold_id: str) -> Landing:
        """Delete the files held back in `hold_id` (the default: nothing lands), logged."""
        landing = self.holding.discard(hold_id)
        return self._log_held(hold_id, landing, keep=False)

    def _log_held(self, hold_id: str, landing: Landing, *, keep: bool) -> Landing:
        try:
            self.audit.record_held(landing.command, landing.cwd, hold_id=hold_id, keep=keep,
                                   paths=[str(path) for path in landing.landed],
                                   problems=list(landing.problems), skill=landing.skill or None)
        except AuditError as exc:
            return replace(landing, problems=(*landing.problems,
                                              f"{exc}; this was not logged"))
        return landing

    async def draft_skill(self, settings: SessionSettings,
                          conversation: Sequence[Message]) -> ChatSkillDraft:
        """A skill the model of `settings` drafts from `conversation` ("Save chat as skill"):
        nothing is written. Raises `DraftUnusable` or the server's `LLMError`."""
        self.server.configure(settings.backend, settings.url,
                              (settings.connect_timeout, settings.idle_timeout))
        client, model = await self.server.open(settings.model)
        return await draft_from_chat(client, model, conversation)

    async def close(self) -> None:
        """Stop the embedded engine, if one was started."""
        await self.server.close()
