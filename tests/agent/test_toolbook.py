"""Every tool is one record in `studio.agent.toolbook`, and every record reaches every consumer:
the toolbox offers its spec, the executor dispatches its calls to its handler and describes them,
its handler takes the path its flags say (runs: the policy's, writes: the approval's), and an
eval's trace names it (the card's title is checked in tests/ui/chat/test_tool_titles.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from studio.agent import execute
from studio.agent.approval import DenyAllApprover
from studio.agent.drafts import DraftDesk
from studio.agent.events import Event, ToolCallRequested, ToolFinished, ToolStarted
from studio.agent.execute import ToolExecutor
from studio.agent.search_tool import SkillSearch
from studio.agent.toolbook import TOOL_BOOK, TOOL_NAMES, TOOLS, ToolDesk, ToolEntry, ToolSkills
from studio.agent.tools import SkillToolbox
from studio.evals.trace import Trace
from studio.llm import ToolCall
from studio.policy import Grants

ARGUMENTS = {"name": "demo", "skill": "demo", "path": "notes.md", "command": "ls",
             "query": "demo", "description": "d", "body": "b"}


def _toolbox(tmp_path: Path) -> SkillToolbox:
    return SkillToolbox([], tmp_path, search=SkillSearch([], None), drafts=DraftDesk(None, ""))


def test_the_names_are_the_records_each_once() -> None:
    assert [entry.name for entry in TOOLS] == list(TOOL_BOOK)
    assert len(set(TOOL_BOOK)) == len(TOOLS)
    assert TOOL_NAMES == ("activate_skill", "read_skill_file", "run_skill_script")


def test_every_record_is_offered_to_the_model(tmp_path: Path) -> None:
    toolbox = _toolbox(tmp_path)
    assert [spec.name for spec in toolbox.specs()] == list(TOOL_BOOK)
    assert toolbox.tool_names == tuple(TOOL_BOOK)
    assert set(toolbox.default_descriptions()) == set(TOOL_BOOK)
    # Search and drafts only when the conversation is given them.
    assert SkillToolbox([], tmp_path).tool_names == TOOL_NAMES


@pytest.mark.parametrize("entry", TOOLS, ids=lambda entry: entry.name)
async def test_every_record_is_dispatched_to_its_handler(
    entry: ToolEntry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[str] = []

    async def handler(desk: ToolDesk, call: ToolCall) -> AsyncIterator[Event]:
        seen.append(call.name)
        yield ToolFinished(call.id, call.name, "ok", "handled")

    book = {name: replace(other, handler=handler) if name == entry.name else other
            for name, other in TOOL_BOOK.items()}
    monkeypatch.setattr(execute, "TOOL_BOOK", book)
    executor = ToolExecutor(_toolbox(tmp_path), DenyAllApprover(), Grants(tmp_path / "grants.yaml"))
    events = [event async for event in executor.execute(ToolCall("c1", entry.name, ARGUMENTS))]
    assert seen == [entry.name]
    assert events == [ToolFinished("c1", entry.name, "ok", "handled")]


@pytest.mark.parametrize("entry", TOOLS, ids=lambda entry: entry.name)
def test_every_record_is_described(entry: ToolEntry, tmp_path: Path) -> None:
    executor = ToolExecutor(_toolbox(tmp_path), DenyAllApprover(), Grants(tmp_path / "grants.yaml"))
    described = executor.describe(ToolCall("c1", entry.name, ARGUMENTS))
    assert described and described != entry.name
    assert executor.describe(ToolCall("c1", "no_such_tool", {})) == "no_such_tool"


class _Desk:
    """Notes which of the executor's paths a handler takes."""

    def __init__(self, toolbox: ToolSkills) -> None:
        self.toolbox = toolbox
        self.paths: list[str] = []

    async def answer(self, call: ToolCall, work: Callable[[], Awaitable[str]]) -> AsyncIterator[Event]:
        self.paths.append("answer")
        yield ToolFinished(call.id, call.name, "ok", "")

    async def run_command(self, call: ToolCall) -> AsyncIterator[Event]:
        self.paths.append("run")
        yield ToolFinished(call.id, call.name, "ok", "")

    async def write_draft(self, call: ToolCall) -> AsyncIterator[Event]:
        self.paths.append("write")
        yield ToolFinished(call.id, call.name, "ok", "")


@pytest.mark.parametrize("entry", TOOLS, ids=lambda entry: entry.name)
async def test_every_handler_takes_the_path_its_flags_say(entry: ToolEntry, tmp_path: Path) -> None:
    desk = _Desk(_toolbox(tmp_path))
    _ = [event async for event in entry.handler(desk, ToolCall("c1", entry.name, ARGUMENTS))]
    assert not (entry.runs and entry.writes)
    assert desk.paths == ["run" if entry.runs else "write" if entry.writes else "answer"]


@pytest.mark.parametrize("entry", TOOLS, ids=lambda entry: entry.name)
def test_every_record_is_named_in_a_trace(entry: ToolEntry) -> None:
    trace = Trace()
    trace.add(ToolCallRequested("c1", entry.name, dict(ARGUMENTS), "demo", entry.name))
    trace.add(ToolStarted("c1", entry.name, "demo", "/s/demo", "ls" if entry.runs else None))
    trace.add(ToolFinished("c1", entry.name, "ok", "done", exit_code=0 if entry.runs else None))
    assert [entry["record"].tool for entry in trace.transcript if "record" in entry] == [entry.name]
    filled = {"activated": trace.activated, "read": trace.read, "ran": trace.ran}
    assert {name for name, values in filled.items() if values} == (
        {entry.trace} if entry.trace is not None else set())
    assert trace.exit_codes == ([0] if entry.runs else [])
