"""Every tool the model may call, one record each: its spec, what carries it out, what the
executor says it does, its card's title and what an eval's trace records of it. The toolbox
offers the specs, the executor dispatches by this table, the chat's cards take their titles and
the eval trace its lists from here: a new tool is one record (and its tests).

A tool's handler is given the conversation's `ToolDesk` (the executor) and the call. It answers
through one of the desk's three paths: `answer` (work that runs nothing and writes nothing),
`run_command` (a command line judged by the policy, maybe approved, run in the sandbox) or
`write_draft` (a skill written only once the user approves it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from studio.agent.drafts import CREATE, UPDATE, DraftDesk
from studio.agent.events import Event
from studio.agent.search_tool import SEARCH, SkillSearch
from studio.llm import ToolCall, ToolSpec

ACTIVATE = "activate_skill"
READ = "read_skill_file"
RUN = "run_skill_script"

# The `Trace` list a successful call adds to (`studio.evals.trace`); a run's command is
# recorded as it starts, whatever its end.
TraceList = Literal["activated", "read", "ran"]


@dataclass(frozen=True, slots=True)
class Offer:
    """What one conversation offers: `skill_param` is the schema of a `skill`/`name` argument
    (the skills the model may name); `search` and `drafts` are None when not given."""

    skill_param: dict[str, Any]
    search: SkillSearch | None
    drafts: DraftDesk | None


class ToolSkills(Protocol):
    """The toolbox as the handlers use it (`SkillToolbox`)."""

    @property
    def search(self) -> SkillSearch | None: ...

    def activate(self, name: object) -> str: ...

    def read_file(self, name: object, path: object) -> str: ...


class ToolDesk(Protocol):
    """The executor as the handlers use it (`ToolExecutor`)."""

    @property
    def toolbox(self) -> ToolSkills: ...

    def answer(self, call: ToolCall, work: Callable[[], Awaitable[str]]) -> AsyncIterator[Event]: ...

    def run_command(self, call: ToolCall) -> AsyncIterator[Event]: ...

    def write_draft(self, call: ToolCall) -> AsyncIterator[Event]: ...


Handler = Callable[[ToolDesk, ToolCall], AsyncIterator[Event]]


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """One tool.

    Attributes:
        name: what the model calls it.
        spec: its spec for a conversation; None: not offered there.
        handler: carries out a call (through the desk's `answer`, `run_command` or `write_draft`).
        describe: what a call does, in a few words, from its arguments (the chat's summary).
        title: the chat card's title.
        trace: the eval trace's list a successful call adds to (None: only the transcript).
        runs: it runs a command line (policy, approver, sandbox; its exit code is traced).
        writes: it writes files (only after the user approves).
    """

    name: str
    spec: Callable[[Offer], ToolSpec | None]
    handler: Handler
    describe: Callable[[Mapping[str, Any]], str]
    title: str
    trace: TraceList | None = None
    runs: bool = False
    writes: bool = False


def _activate_spec(offer: Offer) -> ToolSpec:
    return ToolSpec(
        ACTIVATE,
        "Load a skill's full instructions when the task matches its description. "
        "Returns the SKILL.md body, the skill's folder and its files; a skill that runs "
        "in a fork returns its sub-agent's answer to `task` instead.",
        {"type": "object", "properties": {
            "name": offer.skill_param,
            "task": {"type": "string",
                     "description": "what the skill should do, for a skill that forks"},
        }, "required": ["name"]},
    )


def _read_spec(offer: Offer) -> ToolSpec:
    return ToolSpec(
        READ,
        "Read a file inside a skill's folder, e.g. references/guide.md, by its path "
        "relative to that folder.",
        {
            "type": "object",
            "properties": {
                "skill": offer.skill_param,
                "path": {"type": "string", "description": "relative path in the skill"},
            },
            "required": ["skill", "path"],
        },
    )


def _run_spec(offer: Offer) -> ToolSpec:
    return ToolSpec(
        RUN,
        "Run a shell command in a skill's folder, e.g. `python3 scripts/tool.py input`. "
        "The user may be asked to approve it first.",
        {
            "type": "object",
            "properties": {
                "skill": offer.skill_param,
                "command": {"type": "string", "description": "the command line to run"},
            },
            "required": ["skill", "command"],
        },
    )


def _draft_spec(name: str) -> Callable[[Offer], ToolSpec | None]:
    def spec(offer: Offer) -> ToolSpec | None:
        if offer.drafts is None:
            return None
        return next(spec for spec in offer.drafts.specs() if spec.name == name)
    return spec


def _activate(desk: ToolDesk, call: ToolCall) -> AsyncIterator[Event]:
    return desk.answer(call, _now(lambda: desk.toolbox.activate(call.arguments.get("name"))))


def _read(desk: ToolDesk, call: ToolCall) -> AsyncIterator[Event]:
    return desk.answer(call, _now(lambda: desk.toolbox.read_file(
        call.arguments.get("skill"), call.arguments.get("path"))))


def _search(desk: ToolDesk, call: ToolCall) -> AsyncIterator[Event]:
    search = desk.toolbox.search
    assert search is not None  # the tool is only offered with a search
    return desk.answer(call, lambda: search.answer(call.arguments.get("query")))


def _now(work: Callable[[], str]) -> Callable[[], Awaitable[str]]:
    """Work done on the spot (it reads a file or two), as the awaitable `answer` takes."""
    async def done() -> str:
        return work()
    return done


def _run(desk: ToolDesk, call: ToolCall) -> AsyncIterator[Event]:
    return desk.run_command(call)


def _draft(desk: ToolDesk, call: ToolCall) -> AsyncIterator[Event]:
    return desk.write_draft(call)


TOOLS: tuple[ToolEntry, ...] = (
    ToolEntry(ACTIVATE, _activate_spec, _activate, lambda a: f"load skill {a.get('name')}",
              "Load skill", trace="activated"),
    ToolEntry(READ, _read_spec, _read, lambda a: f"read {a.get('path')} of {a.get('skill')}",
              "Read file", trace="read"),
    ToolEntry(RUN, _run_spec, _run, lambda a: str(a.get("command", "")), "Run command",
              trace="ran", runs=True),
    ToolEntry(SEARCH, lambda offer: offer.search.spec() if offer.search is not None else None,
              _search, lambda a: f"search skills for {a.get('query')}", "Search skills"),
    ToolEntry(CREATE, _draft_spec(CREATE), _draft, lambda a: f"create skill {a.get('name')}",
              "Create skill", writes=True),
    ToolEntry(UPDATE, _draft_spec(UPDATE), _draft, lambda a: f"update skill {a.get('name')}",
              "Update skill", writes=True),
)
TOOL_BOOK: Mapping[str, ToolEntry] = {entry.name: entry for entry in TOOLS}
# The tools every conversation has, each naming one of its skills.
TOOL_NAMES = tuple(entry.name for entry in TOOLS
                   if entry.spec(Offer({}, None, None)) is not None)
