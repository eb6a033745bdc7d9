"""An answer has an overall bound: a server that streams forever ends the turn, once past the
settings' tokens or seconds, with an Error and Done("answer-limit"), its HTTP stream closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import Done, Error, Event, TextDelta
from studio.agent.session import SessionFactory, SessionSettings
from studio.policy import AuditLog, Grants
from tests.fakes.chatserver import ScriptedChatServer
from tests.fakes.fixtures import OLLAMA_MODELS, OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Endless, Turn, reply


def _session(tmp_path: Path, http: httpx.AsyncClient, settings: SessionSettings
             ) -> SessionFactory:
    return SessionFactory(AutoApprover(), http, grants=Grants(tmp_path / "grants.yaml"),
                          audit=AuditLog(tmp_path / "audit.jsonl"), home=tmp_path / "home")


async def _turn(tmp_path: Path, http: httpx.AsyncClient, settings: SessionSettings) -> list[Event]:
    session = _session(tmp_path, http, settings).session(settings, [])
    return [event async for event in session.turn("talk")]


@pytest.fixture(params=["ollama", "openai"])
def endless(request: pytest.FixtureRequest) -> tuple[ScriptedChatServer, str]:
    if request.param == "ollama":
        return FakeOllama(OLLAMA_MODELS), TOOL_MODEL
    return FakeOpenAI({OPENAI_MODEL: []}), OPENAI_MODEL


async def test_a_never_ending_answer_stops_at_the_token_bound(
    tmp_path: Path, http_client: httpx.AsyncClient, endless: tuple[ScriptedChatServer, str]
) -> None:
    fake, model = endless
    with fake:
        fake.script(Turn([Endless("more ")], done=False))
        backend = "ollama" if isinstance(fake, FakeOllama) else "openai"
        settings = SessionSettings(backend=backend, url=fake.url, model=model,
                                   workspace=tmp_path, max_answer_tokens=50)
        events = await _turn(tmp_path, http_client, settings)
        assert await asyncio.to_thread(fake.wait_disconnected)
    texts = [e for e in events if isinstance(e, TextDelta)]
    assert len(texts) == 51
    [error] = [e for e in events if isinstance(e, Error)]
    assert "passed the 50 tokens allowed" in error.message
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answer-limit"
    assert done.text == "more " * 51
    assert done.summary().startswith("Stopped at the answer's limit")


async def test_a_never_ending_answer_stops_at_the_time_bound(
    tmp_path: Path, http_client: httpx.AsyncClient, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Turn([Endless("x", every=0.01)], done=False))
    settings = SessionSettings(url=fake_ollama.url, model=TOOL_MODEL, workspace=tmp_path,
                               max_answer_seconds=0.5)
    events = await _turn(tmp_path, http_client, settings)
    assert await asyncio.to_thread(fake_ollama.wait_disconnected)
    [error] = [e for e in events if isinstance(e, Error)]
    assert "longer than the 0.5 seconds allowed" in error.message
    assert isinstance(events[-1], Done) and events[-1].reason == "answer-limit"


async def test_one_large_piece_counts_as_its_characters(
    tmp_path: Path, http_client: httpx.AsyncClient, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(reply("word " * 400))
    settings = SessionSettings(url=fake_ollama.url, model=TOOL_MODEL, workspace=tmp_path,
                               max_answer_tokens=100)
    events = await _turn(tmp_path, http_client, settings)
    assert isinstance(events[-1], Done) and events[-1].reason == "answer-limit"


async def test_an_answer_within_the_bounds_is_untouched(
    tmp_path: Path, http_client: httpx.AsyncClient, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(reply("Hel", "lo"))
    settings = SessionSettings(url=fake_ollama.url, model=TOOL_MODEL, workspace=tmp_path,
                               max_answer_tokens=2)
    events = await _turn(tmp_path, http_client, settings)
    assert not [e for e in events if isinstance(e, Error)]
    assert isinstance(events[-1], Done) and events[-1].reason == "answered"


def test_the_bounds_are_settings_the_chat_uses(tmp_path: Path) -> None:
    from studio.settings import load_settings, save_settings
    from studio.ui.chat.backend import turn_settings
    path = tmp_path / "settings.yaml"
    path.write_text("backend:\n  answer_tokens: 1000\n  answer_seconds: 30\n")
    settings = load_settings(path).settings
    session = turn_settings(settings.backend, "m", False)
    assert (session.max_answer_tokens, session.max_answer_seconds) == (1000, 30.0)
    path.write_text("backend:\n  answer_tokens: 5\n")
    assert load_settings(path).settings.backend.answer_tokens == 8192  # out of range: default
    save_settings(load_settings(path).settings, path)
    assert "answer_seconds: 600" in path.read_text()


def test_studio_chat_ends_a_never_ending_answer_and_says_so(
    tmp_path: Path, fake_ollama: FakeOllama, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import sys

    from studio.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    fake_ollama.script(Turn([Endless("more ")], done=False))
    code = main(["chat", "--backend", "ollama", "--url", fake_ollama.url, "--model", TOOL_MODEL,
                 "--skills", str(tmp_path), "--workspace", str(tmp_path),
                 "--max-answer-tokens", "20", "talk"])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.startswith("more more ")
    assert "studio: error: The answer passed the 20 tokens allowed" in err
    assert fake_ollama.wait_disconnected()
