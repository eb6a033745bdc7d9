"""Keeping a request within the model's context: the oldest whole turns go first, never the system
prompt or the current turn."""

from __future__ import annotations

from studio.agent.budget import fit_history, request_tokens
from studio.llm import Message, ToolCall

CONTEXT = 1000


def turn(number: int, words: int = 150) -> list[Message]:
    return [
        Message("user", f"q{number} " + "word " * words),
        Message("assistant", "", tool_calls=[ToolCall(f"c{number}", "activate_skill", {"name": "x"})]),
        Message("tool", "result " * words, tool_name="activate_skill", tool_call_id=f"c{number}"),
        Message("assistant", f"a{number}"),
    ]


def test_a_request_that_fits_is_left_alone() -> None:
    messages = [Message("system", "be brief"), *turn(0, 10)]
    trim = fit_history(messages, None, CONTEXT)
    assert trim.fits and trim.dropped_turns == 0 and trim.messages == messages
    assert trim.tokens == request_tokens(messages)


def test_the_oldest_whole_turns_are_dropped_until_it_fits() -> None:
    current = [Message("user", "now")]
    messages = [Message("system", "be brief"), *turn(0), *turn(1), *turn(2), *current]
    before = list(messages)
    trim = fit_history(messages, None, CONTEXT)
    assert trim.fits and trim.dropped_turns == 2
    assert trim.messages == [Message("system", "be brief"), *turn(2), *current]
    assert trim.tokens == request_tokens(trim.messages) <= CONTEXT - CONTEXT // 8
    assert messages == before, "the conversation itself keeps every turn"


def test_a_current_turn_too_long_for_the_context_changes_nothing() -> None:
    messages = [Message("system", "be brief"), *turn(0), Message("user", "word " * 5000)]
    trim = fit_history(messages, None, CONTEXT)
    assert not trim.fits and trim.dropped_turns == 0 and trim.messages == messages
    assert trim.tokens > CONTEXT
