"""Each backend tells the model's context length, and Ollama is asked for it as `num_ctx`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.llm.client import make_client
from studio.llm.embedded import EmbeddedEngine, default_threads
from studio.llm.ollama import OllamaClient
from studio.llm.openai import OpenAIClient
from studio.llm.types import Message
from tests.fakes.fixtures import OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ggufwriter import write_gguf
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.fakes.streams import collect


async def test_ollama_context_is_the_models_own_within_the_cap_and_sent_as_num_ctx(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fake_ollama, "context_lengths", {TOOL_MODEL: 40960})
    client = make_client("ollama", fake_ollama.url, http_client, context_size=16384)
    fake_ollama.script(reply("before"), reply("after"), reply("own"))
    await collect(client.chat(TOOL_MODEL, [Message("user", "x")]))
    assert "options" not in fake_ollama.chats[0], "no num_ctx before the context is known"
    assert await client.context_length(TOOL_MODEL) == 16384
    await collect(client.chat(TOOL_MODEL, [Message("user", "x")], options={"temperature": 0}))
    assert fake_ollama.chats[1]["options"] == {"temperature": 0, "num_ctx": 16384}
    await collect(client.chat(TOOL_MODEL, [Message("user", "x")], options={"num_ctx": 2048}))
    assert fake_ollama.chats[2]["options"] == {"num_ctx": 2048}
    await client.context_length(TOOL_MODEL)
    assert len(fake_ollama.requests_to("/api/show")) == 1, "asked once per model"


@pytest.mark.parametrize(("reported", "expected"), [(2048, 2048), ("lots", None), (-5, None), (True, None)])
async def test_ollama_context_below_the_cap_or_unbelievable(
    fake_ollama: FakeOllama,
    http_client: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    reported: Any,
    expected: int | None,
) -> None:
    monkeypatch.setattr(fake_ollama, "context_lengths", {TOOL_MODEL: reported})
    assert await OllamaClient(fake_ollama.url, http_client).context_length(TOOL_MODEL) == expected


async def test_llama_cpp_reports_n_ctx_in_props(http_client: httpx.AsyncClient) -> None:
    props = {"default_generation_settings": {"n_ctx": 4096}, "chat_template_caps": {"supports_tools": True}}
    with FakeOpenAI({OPENAI_MODEL: []}, props=props) as server:
        assert await OpenAIClient(server.url, http_client).context_length(OPENAI_MODEL) == 4096


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"max_model_len": 32768}, 32768),
        ({"context_length": 131072}, 131072),
        ({"meta": {"n_ctx_train": 8192}}, 8192),
        ({"max_model_len": "big"}, None),
        ({}, None),
    ],
)
async def test_openai_compatible_servers_list_it_in_models(
    http_client: httpx.AsyncClient, fields: dict[str, Any], expected: int | None
) -> None:
    with FakeOpenAI({OPENAI_MODEL: [], "other": []}) as server:
        assert isinstance(server, FakeOpenAI)
        server.model_fields = {OPENAI_MODEL: fields, "other": {"max_model_len": 999}}
        assert await OpenAIClient(server.url + "/v1", http_client).context_length(OPENAI_MODEL) == expected


def test_the_embedded_engine_fits_its_context_to_the_model_and_picks_threads(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "m.gguf", {"general.architecture": "llama", "llama.context_length": 2048})
    engine = EmbeddedEngine(path, ctx_size=8192)
    engine._read_model()
    assert engine.ctx_size == 2048
    assert engine.threads == default_threads()
    assert 1 <= default_threads() <= 8
    assert f"--threads={default_threads()}" in engine._command(1)
    assert EmbeddedEngine(path, threads=3).threads == 3
