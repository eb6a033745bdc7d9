"""What both clients share: the URL check, error pages summed up, a line cap that keeps memory
bounded, and model lists that are read strictly."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from studio.llm.client import make_client
from studio.llm.errors import BadResponse, BadURL, HTTPError
from studio.llm.ollama import OllamaClient
from studio.llm.transport import checked_url, server_text
from studio.llm.types import Message
from tests.fakes.fixtures import OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Bytes, Pause, Text, Turn, error
from tests.fakes.streams import collect, end_of, text_of

QUESTION = [Message("user", "hello")]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("localhost:11434", "http://localhost:11434"),
        ("127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("  http://127.0.0.1:11434/  ", "http://127.0.0.1:11434/"),
        ("HTTPS://example.com", "HTTPS://example.com"),
        ("[::1]:11434", "http://[::1]:11434"),
    ],
)
def test_a_usable_url_is_kept_and_one_without_a_scheme_gets_http(given: str, expected: str) -> None:
    assert checked_url(given) == expected


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("", "empty"),
        ("ftp://127.0.0.1", "ftp:// is not http:// or https://"),
        ("http://", "names no host"),
        ("http://127.0.0.1:99999", "Port out of range"),
        ("http://127.0.0.1:port", "Port could not be cast"),
        ("http://local host:11434", "spaces"),
        ("http://127.0.0.1\x00:11434", "control characters"),
    ],
)
def test_a_url_that_cannot_name_a_server_is_refused_with_the_reason(given: str, why: str) -> None:
    with pytest.raises(BadURL) as info:
        checked_url(given)
    assert why in info.value.user_message
    assert "http://127.0.0.1:11434" in info.value.user_message


def test_the_clients_check_their_url_when_made() -> None:
    with pytest.raises(BadURL):
        make_client("ollama", "gopher://127.0.0.1", None)
    with pytest.raises(BadURL):
        make_client("openai", "http://:8080", None)


def test_an_html_error_page_is_summed_up_by_its_title_or_its_text() -> None:
    page = b"<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>"
    assert server_text(page) == "502 Bad Gateway"
    body = b"<!DOCTYPE html><body><script>alert(1)</script><p>Service &amp; co\n down</p></body>"
    assert server_text(body) == "Service & co down"


@pytest.mark.parametrize("piece", [b"<script", b"<", b"<title", b"<style>x"])
def test_a_pathological_error_page_is_read_in_one_pass(piece: bytes) -> None:
    """Unclosed tags by the thousand: a pattern that looked ahead to a closing tag from each one
    would take minutes here."""
    summary = server_text(b"<html>" + piece * 200_000)
    assert len(summary) <= 301


async def test_an_html_500_reads_as_its_title(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient
) -> None:
    fake_openai.script(error(500, "<html><title>Upstream timed out</title><body>x</body></html>"))
    client = make_client("openai", fake_openai.url, http_client)
    with pytest.raises(HTTPError) as info:
        await collect(client.chat(OPENAI_MODEL, QUESTION))
    assert "HTTP 500: Upstream timed out." in info.value.user_message


async def test_a_line_past_the_cap_is_refused_before_it_is_held_whole(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    fake_ollama.script(Turn([Text("Hal"), Bytes(b"y" * (3 << 20) + b"\n")], done=False))
    client = make_client("ollama", fake_ollama.url, http_client)
    with pytest.raises(BadResponse) as info:
        await collect(client.chat(TOOL_MODEL, QUESTION))
    assert "a line longer than 1,048,576 bytes" in info.value.user_message


async def test_lines_split_across_chunks_and_crlf_endings_are_read(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient
) -> None:
    event = b'data: {"choices": [{"index": 0, "delta": {"content": "joined"}}]}\r\n\r\n'
    finish = b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\r\n\r\n'
    # A first event of Bytes would replace the HTTP response itself; the pause starts the stream.
    fake_openai.script(Turn([Pause(0), Bytes(b": hi\r\n\r\n"), Bytes(event[:20]),
                             Bytes(event[20:]), Bytes(finish)], done=False))  # fmt: skip
    client = make_client("openai", fake_openai.url, http_client)
    events = await collect(client.chat(OPENAI_MODEL, QUESTION))
    assert text_of(events) == "joined"
    assert end_of(events).finish_reason == "stop"


@pytest.mark.parametrize(
    ("tags", "detail"),
    [
        ({"models": [{"name": "m", "details": "gguf"}]}, "the details of the model 'm' are not an object"),
        ({"models": [{"name": "m", "details": 3}]}, "are not an object"),
        ({"models": [{"model": "m"}]}, "model 1 of the list has no name"),
        ({"models": [{"name": "a"}, "b"]}, "model 2 of the list has no name"),
        ({"models": None}, "no model list"),
        ([], "no model list"),
    ],
)
async def test_a_malformed_ollama_model_list_is_a_clear_error(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tags: Any, detail: str
) -> None:
    fake_ollama.tags = tags
    with pytest.raises(BadResponse) as info:
        await OllamaClient(fake_ollama.url, http_client).list_models()
    assert detail in info.value.user_message
    assert "/api/tags" in info.value.user_message


async def test_a_model_list_without_details_is_fine(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    fake_ollama.tags = {"models": [{"name": "m"}, {"name": "a", "details": None}]}
    models = await OllamaClient(fake_ollama.url, http_client).list_models()
    assert [model.name for model in models] == ["a", "m"]
