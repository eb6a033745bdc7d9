"""End to end with a real engine: xllamacpp's llama.cpp server on SmolLM2-135M, through the
OpenAI client. Kept small (short context, few tokens) to stay well under two minutes on 2 cores."""

from __future__ import annotations

import httpx
import pytest

from studio.llm.chat_templates import CHATML_JSON_TOOLS
from studio.llm.embedded import EmbeddedEngine
from studio.llm.types import Message, TextChunk, ToolCall, ToolSpec
from tests.fakes.localmodels import INSTALL_HINT, smollm2_gguf
from tests.fakes.streams import calls_of, collect, end_of, text_of

pytestmark = pytest.mark.engine

SKILL_TOOL = ToolSpec(
    "activate_skill",
    "Load a skill's instructions by the skill's name.",
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
)
GREEDY = {"temperature": 0, "seed": 1}


def _model() -> EmbeddedEngine:
    path = smollm2_gguf()
    if path is None:
        pytest.skip(INSTALL_HINT)
    return EmbeddedEngine(path, ctx_size=1024, threads=2, chat_template=CHATML_JSON_TOOLS)


async def test_smollm2_streams_text_and_answers_a_forced_tool_call(http_client: httpx.AsyncClient) -> None:
    engine = _model()
    async with engine:
        assert engine.running
        client = engine.client(http_client, idle_timeout=60)
        (model,) = [info.name for info in await client.list_models()]
        assert (await client.model_info(model)).supports_tools is True

        events = await collect(
            client.chat(model, [Message("user", "Say hello.")], options={**GREEDY, "max_tokens": 12})
        )
        assert sum(isinstance(event, TextChunk) for event in events) >= 2, events
        assert text_of(events).strip()
        assert end_of(events).finish_reason in ("stop", "length")

        # One worked example in the history, as a skill conversation would have; tool_choice
        # "required" makes llama.cpp constrain the answer to a call.
        history = [
            Message("user", "Load the pdf skill."),
            Message("assistant", "", tool_calls=[ToolCall("c1", "activate_skill", {"name": "pdf"})]),
            Message("tool", "The pdf skill is loaded.", tool_name="activate_skill", tool_call_id="c1"),
            Message("user", "Now load the docx skill."),
        ]
        events = await collect(
            client.chat(
                model,
                history,
                tools=[SKILL_TOOL],
                tool_choice="required",
                options={**GREEDY, "max_tokens": 48},
            )
        )
        (call,) = calls_of(events)
        assert call.name == "activate_skill"
        assert isinstance(call.arguments.get("name"), str)
        assert call.invalid_arguments is None
        assert end_of(events).finish_reason == "tool_calls"
    assert not engine.running


async def test_the_default_template_lets_smollm2_offer_tools(http_client: httpx.AsyncClient) -> None:
    engine = _model()
    engine.chat_template = None
    async with engine:
        client = engine.client(http_client, idle_timeout=60)
        info = await client.model_info("smollm2")
        assert info.supports_tools is True
        events = await collect(
            client.chat(
                "smollm2",
                [Message("user", "Say hello.")],
                tools=[SKILL_TOOL],
                options={**GREEDY, "max_tokens": 8},
            )
        )
        assert end_of(events).finish_reason in ("stop", "length", "tool_calls")
