"""`studio chat` against misbehaving model servers, run as the user runs it (a subprocess): every
fault ends within its timeout with a message on stderr and a non-zero exit, never a traceback.

The subprocess timeout is only the guard against a hang; no test measures the time taken."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from studio.llm.embedded import free_port
from tests.fakes.chatserver import ScriptedChatServer
from tests.fakes.fixtures import OLLAMA_MODELS, OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Bytes, Disconnect, Text, Trickle, Turn, error, hang, reply

SOURCE_ROOT = Path(__file__).resolve().parents[2]
IDLE = "0.5"
GUARD = 120
HTML_500 = (
    "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>h1 {color: red}</style>"
    "</head><body><h1>Bad Gateway</h1><script>var x = 1;</script></body></html>"
)


@dataclass
class Server:
    backend: str
    fake: ScriptedChatServer
    model: str


@pytest.fixture(params=["ollama", "openai"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    if request.param == "ollama":
        fake: ScriptedChatServer = FakeOllama(OLLAMA_MODELS)
        model = TOOL_MODEL
    else:
        fake = FakeOpenAI({OPENAI_MODEL: []})
        model = OPENAI_MODEL
    with fake:
        yield Server(request.param, fake, model)


def studio_chat(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "studio", "chat", "--workspace", str(tmp_path),
         "--connect-timeout", "5", "--idle-timeout", IDLE, *args, "hello"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env, timeout=GUARD,
        check=False,
    )  # fmt: skip


def chat_with(server: Server, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return studio_chat(
        tmp_path, "--backend", server.backend, "--url", server.fake.url, "--model", server.model, *args
    )


def assert_failed_cleanly(result: subprocess.CompletedProcess[str], *phrases: str) -> None:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr + result.stdout
    assert "studio: error: " in result.stderr
    for phrase in phrases:
        assert phrase in result.stderr


def cut_line(backend: str) -> bytes:
    if backend == "ollama":
        return b'{"model": "m", "message": {"role": "assistant", "content": "wor'
    return b'data: {"choices": [{"index": 0, "delta": {"content": "wor'


@pytest.mark.parametrize(
    "turn",
    [hang(), hang(Text("Hal")), Turn([Text("Hal"), Trickle("\n", every=0.05)])],
    ids=["hang-before-headers", "hang-mid-stream", "trickle-newlines"],
)
def test_a_server_that_sends_no_answer_runs_out_of_idle_time(
    server: Server, tmp_path: Path, turn: Turn
) -> None:
    server.fake.script(turn)
    result = chat_with(server, tmp_path)
    assert_failed_cleanly(result, f"sent no answer for {IDLE} s", "--idle-timeout")
    assert server.fake.url in result.stderr


def test_the_answer_so_far_stays_on_stdout_and_the_history_file_is_kept(
    server: Server, tmp_path: Path
) -> None:
    history = tmp_path / "history.json"
    history.write_text('[{"role": "user", "content": "earlier"}]', encoding="utf-8")
    before = history.read_bytes()
    server.fake.script(hang(Text("Half an answer")))
    result = chat_with(server, tmp_path, "--history", str(history))
    assert_failed_cleanly(result, "sent no answer")
    assert result.stdout.startswith("Half an answer")
    assert history.read_bytes() == before


def test_a_line_cut_short_at_the_end_of_the_stream(server: Server, tmp_path: Path) -> None:
    server.fake.script(Turn([Text("Hal"), Bytes(cut_line(server.backend))], done=False))
    assert_failed_cleanly(chat_with(server, tmp_path), "cannot read", "not JSON")


def test_a_connection_cut_inside_a_line(server: Server, tmp_path: Path) -> None:
    server.fake.script(Turn([Text("Hal"), Bytes(cut_line(server.backend)), Disconnect()]))
    assert_failed_cleanly(chat_with(server, tmp_path), "stopped midway")


def test_an_html_error_page_is_summed_up(server: Server, tmp_path: Path) -> None:
    server.fake.script(error(500, HTML_500))
    result = chat_with(server, tmp_path)
    assert_failed_cleanly(result, "HTTP 500: 502 Bad Gateway")
    assert "<" not in result.stderr


def test_garbage_in_the_stream(server: Server, tmp_path: Path) -> None:
    server.fake.script(Turn([Bytes(b"\x00\xff\xfe garbage \x89PNG\r\n\x1a\n")], done=False))
    assert_failed_cleanly(chat_with(server, tmp_path), "cannot read")


def test_json_nested_too_deep_for_the_decoder(server: Server, tmp_path: Path) -> None:
    prefix = b"" if server.backend == "ollama" else b"data: "
    server.fake.script(Turn([Text("Hal"), Bytes(prefix + b"[" * 200_000 + b"\n\n")], done=False))
    assert_failed_cleanly(chat_with(server, tmp_path), "cannot read", "not JSON")


def test_a_server_that_does_not_speak_http(server: Server, tmp_path: Path) -> None:
    server.fake.script(Turn([Bytes(b"220 mail.example.com ESMTP ready\r\n\r\n")]))
    assert_failed_cleanly(chat_with(server, tmp_path), "not an HTTP answer")


def test_a_huge_single_line_is_refused_once_past_the_cap(server: Server, tmp_path: Path) -> None:
    server.fake.script(Turn([Text("Hal"), Bytes(b"x" * (3 << 20))], done=False))
    assert_failed_cleanly(chat_with(server, tmp_path), "a line longer than 1,048,576 bytes")


def test_connection_refused(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    result = studio_chat(tmp_path, "--url", url, "--model", TOOL_MODEL)
    assert_failed_cleanly(result, f"No model server is answering at {url}", "ollama serve")


def test_a_connection_that_is_never_accepted_runs_out_of_connect_time(tmp_path: Path) -> None:
    """A listening socket with a full backlog: the kernel drops the next SYN, as a firewall does."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        host, port = listener.getsockname()
        fillers = [socket.socket() for _ in range(4)]
        try:
            for filler in fillers:
                filler.setblocking(False)
                filler.connect_ex((host, port))
            # The backlog is full once the first filler's handshake is done: wait for it (on a
            # loaded machine the chat's connection could otherwise take the free place).
            _, connected, _ = select.select([], fillers[:1], [], 30)
            assert connected, "the first filler never connected"
            result = studio_chat(tmp_path, "--url", f"http://{host}:{port}", "--model", TOOL_MODEL,
                                 "--connect-timeout", "0.5")
        finally:
            for filler in fillers:
                filler.close()
    assert_failed_cleanly(result, "within 0.5 s (the connect timeout)", "--connect-timeout")


def test_a_url_without_a_scheme_gets_http_and_says_so(tmp_path: Path) -> None:
    with FakeOllama(OLLAMA_MODELS) as fake:
        fake.script(reply("Hi there."))
        address = fake.url.removeprefix("http://")
        result = studio_chat(tmp_path, "--url", address, "--model", TOOL_MODEL)
    assert result.returncode == 0, result
    assert f"--url {address} has no scheme; using http://{address}" in result.stderr
    assert result.stdout == "Hi there.\n"


@pytest.mark.parametrize("url", ["ftp://127.0.0.1:11434", "http://", "http://127.0.0.1:99999"])
def test_a_url_that_cannot_name_a_server(tmp_path: Path, url: str) -> None:
    result = studio_chat(tmp_path, "--url", url, "--model", TOOL_MODEL)
    assert_failed_cleanly(result, f"The server URL {url!r} cannot be used")


@pytest.mark.parametrize(
    "tags",
    [
        {"models": [{"name": TOOL_MODEL, "details": "gguf"}]},
        {"models": [{"name": TOOL_MODEL, "details": ["gguf"]}]},
        {"models": [{"model": TOOL_MODEL}]},
        {"models": "none"},
        ["not", "a", "mapping"],
    ],
    ids=["details-text", "details-list", "no-name", "models-text", "a-list"],
)
def test_a_malformed_model_list(tmp_path: Path, tags: object) -> None:
    with FakeOllama(OLLAMA_MODELS) as fake:
        fake.tags = tags
        result = studio_chat(tmp_path, "--url", fake.url)
    assert_failed_cleanly(result, "/api/tags sent a reply this app cannot read")


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf"])
def test_timeouts_must_be_positive_numbers(tmp_path: Path, value: str) -> None:
    result = studio_chat(tmp_path, "--idle-timeout", value)
    assert result.returncode == 2
    assert "--idle-timeout" in result.stderr
    assert "Traceback" not in result.stderr
