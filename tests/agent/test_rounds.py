"""Each way of asking the model on its own, against the scripted servers: what the request
carries, and what the reply comes to (the `Outcome` the agent loop acts on)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from studio.agent.constrained import FORCED_MAX_TOKENS
from studio.agent.events import ChatNotice, Error, Event, TextDelta
from studio.agent.guided.replies import ANSWER_MAX_TOKENS, CALL_MAX_TOKENS, NO_SKILL, Guide
from studio.agent.rounds import Ask, ConstrainedRound, GuidedRound, NativeRound, Outcome, Round
from studio.agent.tools import SkillToolbox
from studio.llm import ChatClient, HTTPError, Message, ToolCall
from studio.llm.ollama import OllamaClient
from studio.llm.openai import OpenAIClient
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OPENAI_MODEL, PLAIN_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Call, calls, error, reply

IDLE = 20.0
ASKED = [Message("system", "You use skills."), Message("user", "say hello with the demo skill")]


@pytest.fixture
def toolbox(project: Path) -> SkillToolbox:
    return SkillToolbox(scan_root(SkillRoot(project / "skills")).skills, project)


def ollama(server: FakeOllama, http: httpx.AsyncClient) -> OllamaClient:
    return OllamaClient(server.url, http, idle_timeout=IDLE)


def openai(server: FakeOpenAI, http: httpx.AsyncClient) -> OpenAIClient:
    return OpenAIClient(server.url, http, idle_timeout=IDLE)


def native(toolbox: SkillToolbox, choice: str | None = None, may_retry: bool = True) -> NativeRound:
    return NativeRound(toolbox.specs(), toolbox, (*toolbox.tool_names, *toolbox.names), choice,
                       may_retry=may_retry)


async def play(strategy: Round, client: ChatClient, model: str,
               messages: list[Message] | None = None, **options: object) -> tuple[Outcome, list[Event]]:
    outcome = Outcome()
    events = [event async for event in strategy.play(
        client, Ask(model, list(messages or ASKED), dict(options)), outcome)]
    return outcome, events


def notices(events: list[Event]) -> list[str]:
    return [event.message for event in events if isinstance(event, ChatNotice)]


# The model's own tool calling


async def test_a_native_answer_streams_as_it_comes(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(reply("Hel", "lo!"))
    outcome, events = await play(native(toolbox), ollama(fake_ollama, http_client), TOOL_MODEL)
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo!"]
    assert (outcome.kind, outcome.text, outcome.calls) == ("reply", "Hello!", [])
    assert outcome.usage and not native(toolbox).held
    sent = fake_ollama.chats[0]
    assert {tool["function"]["name"] for tool in sent["tools"]} >= {"activate_skill"}
    assert "format" not in sent


async def test_a_native_call_is_the_rounds_call(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})))
    outcome, _ = await play(native(toolbox), ollama(fake_ollama, http_client), TOOL_MODEL)
    assert outcome.kind == "reply"
    assert [(c.name, c.arguments) for c in outcome.calls] == [("activate_skill", {"name": "demo"})]


async def test_a_call_written_in_the_text_is_read_and_repaired(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    # A small model calls the skill as if it were a tool: that is activating it.
    fake_ollama.script(reply('{"name": "demo", "arguments": {}}'))
    outcome, _ = await play(native(toolbox), ollama(fake_ollama, http_client), TOOL_MODEL)
    assert outcome.kind == "reply"
    assert [(c.name, c.arguments) for c in outcome.calls] == [("activate_skill", {"name": "demo"})]


async def test_a_call_that_cannot_run_asks_for_the_round_again(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "nope"})))
    outcome, events = await play(native(toolbox), ollama(fake_ollama, http_client), TOOL_MODEL)
    assert (outcome.kind, outcome.why) == ("retry", "there is no skill 'nope'")
    notice = next(e for e in events if isinstance(e, ChatNotice))
    assert notice.invalid_call == ("activate_skill", "nope")


async def test_without_a_retry_left_the_failing_call_is_the_reply(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "nope"})))
    outcome, events = await play(native(toolbox, may_retry=False), ollama(fake_ollama, http_client),
                                 TOOL_MODEL)
    assert outcome.kind == "reply" and [c.name for c in outcome.calls] == ["activate_skill"]
    assert notices(events) == []


async def test_a_forced_call_caps_the_reply_and_keeps_a_lower_cap_of_the_user(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_openai.script(calls(Call("activate_skill", {"name": "demo"})),
                       calls(Call("activate_skill", {"name": "demo"})))
    client = openai(fake_openai, http_client)
    await play(native(toolbox, "required"), client, OPENAI_MODEL)
    await play(native(toolbox, "required"), client, OPENAI_MODEL, max_tokens=40)
    first, second = fake_openai.chats
    assert (first["max_tokens"], first["temperature"]) == (FORCED_MAX_TOKENS, 0)
    assert second["max_tokens"] == 40


async def test_a_native_round_the_server_refuses_raises(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(error(500, {"error": "boom"}))
    with pytest.raises(HTTPError):
        await play(native(toolbox), ollama(fake_ollama, http_client), TOOL_MODEL)


# A reply held to a valid call or an answer


async def test_a_held_call_is_read_from_the_json_and_the_format_is_told(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    call = '{"tool": "activate_skill", "arguments": {"name": "demo"}}'
    fake_ollama.script(reply(call[:25], call[25:]))
    round_ = ConstrainedRound(toolbox.specs())
    outcome, events = await play(round_, ollama(fake_ollama, http_client), PLAIN_MODEL)
    assert round_.held and not [e for e in events if isinstance(e, TextDelta)]
    assert [(c.name, c.arguments) for c in outcome.calls] == [("activate_skill", {"name": "demo"})]
    sent = fake_ollama.chats[0]
    assert "tools" not in sent and sent["options"]["num_predict"] == FORCED_MAX_TOKENS
    assert "answer" in json.dumps(sent["format"])
    assert "Reply with one JSON object only" in sent["messages"][0]["content"]


async def test_a_held_answer_is_shown_whole(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(reply('{"answer": "Hello!"}'))
    outcome, events = await play(ConstrainedRound(toolbox.specs()), ollama(fake_ollama, http_client),
                                 PLAIN_MODEL)
    assert (outcome.kind, outcome.text, outcome.calls) == ("reply", "Hello!", [])
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hello!"]


async def test_a_required_call_leaves_the_answer_out_of_the_schema(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(reply('{"tool": "activate_skill", "arguments": {"name": "demo"}}'))
    await play(ConstrainedRound(toolbox.specs(), require_call=True), ollama(fake_ollama, http_client),
               PLAIN_MODEL)
    assert '"answer"' not in json.dumps(fake_ollama.chats[0]["format"])


async def test_plain_writes_earlier_calls_and_results_as_messages(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    call = ToolCall("c1", "activate_skill", {"name": "demo"})
    history = [*ASKED, Message("assistant", "", tool_calls=[call]),
               Message("tool", "Say hello.", tool_name="activate_skill", tool_call_id="c1")]
    fake_ollama.script(reply('{"answer": "Hello!"}'))
    await play(ConstrainedRound(toolbox.specs(), plain=True), ollama(fake_ollama, http_client),
               PLAIN_MODEL, history)
    roles = [message["role"] for message in fake_ollama.chats[0]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]


async def test_prose_past_the_schema_means_the_server_does_not_hold_replies(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(reply("Hello there!"))
    outcome, events = await play(ConstrainedRound(toolbox.specs()), ollama(fake_ollama, http_client),
                                 PLAIN_MODEL)
    assert outcome.kind == "unheld" and "did not hold" in notices(events)[0]


async def test_a_server_that_refuses_the_schema_is_told_and_gone_on_without(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(error(400, {"error": "invalid format"}))
    outcome, events = await play(ConstrainedRound(toolbox.specs()), ollama(fake_ollama, http_client),
                                 PLAIN_MODEL)
    assert outcome.kind == "unheld" and "refused a constrained reply" in notices(events)[0]


async def test_a_held_reply_cut_short_fails_with_the_reason(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_ollama.script(reply('{"tool": "activate_skill", "argu'))
    outcome, events = await play(ConstrainedRound(toolbox.specs()), ollama(fake_ollama, http_client),
                                 PLAIN_MODEL)
    assert outcome.kind == "failed"
    failure = next(e for e in events if isinstance(e, Error))
    assert "was cut short" in failure.message and f"at most {FORCED_MAX_TOKENS} tokens" in failure.message


# Guided: one step of a skill at a time


async def test_a_guided_first_step_offers_the_skills_and_none(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_openai.script(reply('{"tool": "activate_skill", "arguments": {"name": "demo"}}'))
    outcome, _ = await play(GuidedRound(Guide(toolbox)), openai(fake_openai, http_client), OPENAI_MODEL)
    assert [(c.name, c.arguments) for c in outcome.calls] == [("activate_skill", {"name": "demo"})]
    sent = fake_openai.chats[0]
    schema = sent["response_format"]["json_schema"]["schema"]
    assert set(schema["properties"]["arguments"]["properties"]["name"]["enum"]) >= {"demo", NO_SKILL}
    assert sent["max_tokens"] == CALL_MAX_TOKENS


async def test_picking_no_skill_asks_again_for_an_answer(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_openai.script(reply(f'{{"tool": "activate_skill", "arguments": {{"name": "{NO_SKILL}"}}}}'),
                       reply('{"answer": "Hi."}'))
    guided = GuidedRound(Guide(toolbox))
    client = openai(fake_openai, http_client)
    declined, _ = await play(guided, client, OPENAI_MODEL)
    answered, _ = await play(guided, client, OPENAI_MODEL)
    assert declined.kind == "again" and (answered.kind, answered.text) == ("reply", "Hi.")
    second = fake_openai.chats[1]
    assert "answer" in second["response_format"]["json_schema"]["schema"]["properties"]
    assert second["max_tokens"] == ANSWER_MAX_TOKENS


async def test_a_guided_answer_that_loops_is_stopped_where_it_starts(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_openai.script(reply(f'{{"tool": "activate_skill", "arguments": {{"name": "{NO_SKILL}"}}}}'),
                       reply('{"answer": "46.5', *[" 1."] * 40))
    guided = GuidedRound(Guide(toolbox))
    client = openai(fake_openai, http_client)
    await play(guided, client, OPENAI_MODEL)
    outcome, events = await play(guided, client, OPENAI_MODEL)
    assert (outcome.kind, outcome.text) == ("reply", "46.5 1.")
    assert "repeating itself" in notices(events)[0]


async def test_a_guided_answer_cut_at_the_cap_is_kept(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, toolbox: SkillToolbox
) -> None:
    fake_openai.script(reply(f'{{"tool": "activate_skill", "arguments": {{"name": "{NO_SKILL}"}}}}'),
                       reply('{"answer": "26.2 mi = 4'))
    guided = GuidedRound(Guide(toolbox))
    client = openai(fake_openai, http_client)
    await play(guided, client, OPENAI_MODEL)
    outcome, events = await play(guided, client, OPENAI_MODEL)
    assert (outcome.kind, outcome.text) == ("reply", "26.2 mi = 4")
    assert notices(events) == [f"the model's answer was cut at {ANSWER_MAX_TOKENS} tokens"]
