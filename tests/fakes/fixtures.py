"""pytest fixtures for the fake model servers. Register them in a conftest.py with

    from tests.fakes.fixtures import fake_ollama, fake_openai, http_client  # noqa: F401

(`fakes` is importable because tests/ is on sys.path through tests/conftest.py), or add
`pytest_plugins = ["fakes.fixtures"]` to tests/conftest.py itself: pytest refuses
`pytest_plugins` in conftest files below the top one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI

TOOL_MODEL = "qwen3:0.6b"
PLAIN_MODEL = "gemma3:1b"
OLLAMA_MODELS = {
    TOOL_MODEL: ["completion", "tools", "thinking"],
    PLAIN_MODEL: ["completion"],
}
OPENAI_MODEL = "local-model"


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A started FakeOllama serving TOOL_MODEL (tools, thinking) and PLAIN_MODEL (neither)."""
    server = FakeOllama(OLLAMA_MODELS)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started FakeOpenAI serving OPENAI_MODEL."""
    server = FakeOpenAI({OPENAI_MODEL: []})
    server.start()
    yield server
    server.stop()


@pytest.fixture
async def http_client() -> AsyncIterator[httpx.AsyncClient]:
    """The one httpx.AsyncClient a test's clients share, as the app shares its own."""
    async with httpx.AsyncClient() as client:
        yield client
