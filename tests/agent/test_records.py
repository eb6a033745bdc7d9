"""How a turn's events become the records the chat's cards show, forks and forks of forks
included."""

from __future__ import annotations

from studio.agent.events import (
    ChatNotice,
    Done,
    Error,
    ForkStarted,
    Nested,
    TextDelta,
    ToolCallRequested,
    ToolFinished,
    ToolOutput,
    ToolStarted,
)
from studio.agent.records import record_for, stop_record, update_record
from studio.chats import ForkNote, ToolRecord

RUN = ToolCallRequested("r1", "run_skill_script", {"skill": "demo", "command": "ls"}, "demo", "ls")


def started() -> ToolRecord:
    record = record_for(ToolCallRequested("c1", "activate_skill", {"name": "outer"}, "outer",
                                          "load skill outer"))
    update_record(record, ForkStarted("c1", "outer", "fork", "m:1"))
    return record


def test_a_forks_text_notices_calls_and_output_land_in_its_record() -> None:
    record = started()
    for event in (TextDelta("Let me "), TextDelta("look."), ChatNotice("a note"), RUN,
                  ToolStarted("r1", "run_skill_script", "demo", "/w", "ls"),
                  ToolOutput("r1", "a\n"), ToolFinished("r1", "run_skill_script", "ok", "a", 0),
                  TextDelta("Found a."), Error("late"), Done("answered", "Found a.")):
        update_record(record, Nested("c1", 1, event))
    fork = record.fork
    assert fork is not None and fork.status == "answered" and fork.tool_runs == 1
    notes = [item for item in fork.items if isinstance(item, ForkNote)]
    assert [(n.kind, n.text) for n in notes] == [
        ("text", "Let me look."), ("notice", "a note"), ("text", "Found a."), ("error", "late")]
    run = fork.call("r1")
    assert run is not None and (run.command, run.status, run.output) == ("ls", "ok", "a\n")


def test_a_fork_of_a_fork_goes_to_the_call_that_started_it() -> None:
    record = started()
    for event in (ToolCallRequested("c2", "activate_skill", {"name": "inner"}, "inner", "load"),
                  ForkStarted("c2", "inner", "fork", "m:2", "helper"),
                  Nested("c2", 2, RUN), Nested("c2", 2, TextDelta("deep"))):
        update_record(record, Nested("c1", 1, event))
    assert record.fork is not None
    inner = record.fork.call("c2")
    assert inner is not None and inner.fork is not None and inner.fork.agent == "helper"
    assert [type(item).__name__ for item in inner.fork.items] == ["ToolRecord", "ForkNote"]


def test_events_for_nothing_the_record_holds_are_ignored() -> None:
    record = record_for(RUN)
    update_record(record, Nested("r1", 1, TextDelta("no fork started")))
    assert record.fork is None
    forked = started()
    update_record(forked, Nested("c1", 1, ToolFinished("nobody", "run_skill_script", "ok", "")))
    update_record(forked, Nested("c1", 1, Nested("nobody", 2, TextDelta("lost"))))
    assert forked.fork is not None and forked.fork.items == []


def test_stop_marks_the_unfinished_calls_of_every_fork() -> None:
    record = started()
    for event in (ToolCallRequested("done", "read_skill_file", {}, "demo", "read"),
                  ToolFinished("done", "read_skill_file", "ok", "text"), RUN,
                  ToolCallRequested("c2", "activate_skill", {"name": "inner"}, "inner", "load"),
                  ForkStarted("c2", "inner", "fork", "m:2"), Nested("c2", 2, RUN)):
        update_record(record, Nested("c1", 1, event))
    assert stop_record(record, "stopped") is True
    assert record.fork is not None and record.fork.status == "cancelled"
    done, run, inner = (item for item in record.fork.items if isinstance(item, ToolRecord))
    assert done.status == "ok" and run.status == "cancelled" and inner.status == "cancelled"
    assert inner.fork is not None and inner.fork.status == "cancelled"
    [deep] = inner.fork.items
    assert isinstance(deep, ToolRecord) and deep.status == "cancelled" and deep.result == "stopped"
    assert stop_record(record, "stopped") is False
