"""`studio mcp --http` is for the user who started it: every request carries the token printed
at start (also in a 0600 file), the port is on loopback unless asked otherwise, and `--no-auth`
serves without a token only when asked, with a warning."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx
import httpx2
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp.skills import SkillsClientExtension
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from studio.paths import runtime_dir

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "probe", "version": "1"}}}
ACCEPT = {"accept": "application/json, text/event-stream"}


class Served(NamedTuple):
    url: str
    token: str | None
    said: str


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "library" / "invoice-total"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: invoice-total\ndescription: Adds up the lines of "
                                     "an invoice and checks the total.\n---\nAdd them.\n")
    return folder.parent


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def _studio_mcp(library: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "studio", "mcp", "--skills", str(library), "--no-embed", "--http",
         *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=_environment(),
    )


@contextmanager
def _serving(library: Path, *extra: str) -> Iterator[Served]:
    server = _studio_mcp(library, *extra)
    assert server.stderr is not None
    try:
        said = ""
        while " at http://" not in said:
            line = server.stderr.readline()
            assert line, said
            said += line
        url = said.split(" at http://", 1)[1].split()[0]
        token = None
        if "--no-auth" not in extra:
            line = server.stderr.readline()
            said += line
            token = re.search(r"Authorization: Bearer ([\w-]+)`", line).group(1)  # type: ignore[union-attr]
        yield Served(f"http://{url}", token, said)
    finally:
        server.terminate()
        server.wait(timeout=60)
        server.stderr.close()


async def _load(url: str, token: str | None) -> str:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers) as http, \
            Client(streamable_http_client(url, http_client=http)) as client:
        loaded = await client.call_tool("load_skill", {"name": "invoice-total"})
    return str(loaded.content[0].text)


async def test_with_the_token_a_client_reads_the_library(library_dir: Path) -> None:
    with _serving(library_dir) as served:
        assert served.url.startswith("http://127.0.0.1:")
        assert served.token is not None and len(served.token) >= 43
        assert "Adds up the lines of an invoice" in await _load(served.url, served.token)


async def test_over_http_with_the_token_fastmcp_reads_skills_through_the_extension(
        library_dir: Path) -> None:
    with _serving(library_dir) as served:
        client = FastMCPClient(served.url, auth=served.token, extensions=[SkillsClientExtension()])
        async with client:
            skills = await client.list_skills()
            whole = await client.read_skill("skill://invoice-total/SKILL.md")
    assert [skill.uri for skill in skills] == ["skill://invoice-total/SKILL.md"]
    assert whole.files["SKILL.md"] == (library_dir / "invoice-total" / "SKILL.md").read_bytes()


def test_without_the_token_every_request_is_refused(library_dir: Path) -> None:
    with _serving(library_dir) as served:
        for header in (None, "Bearer wrong", "Bearer", "Basic abc", f"bearer {served.token}",
                       f"Bearer {served.token}x", f"Bearer  {served.token}"):
            headers = dict(ACCEPT)
            if header is not None:
                headers["authorization"] = header
            answer = httpx.post(served.url, json=INITIALIZE, headers=headers, timeout=60)
            assert answer.status_code == 401, header
            assert answer.headers["www-authenticate"].startswith("Bearer")
            assert "Authorization: Bearer TOKEN" in answer.json()["error_description"]
        good = httpx.post(served.url, json=INITIALIZE, timeout=60,
                          headers={**ACCEPT, "authorization": f"Bearer {served.token}"})
        assert good.status_code == 200


def test_the_token_is_in_a_file_only_the_user_can_read_until_the_server_stops(library_dir: Path) -> None:
    with _serving(library_dir) as served:
        port = served.url.rsplit(":", 1)[1].split("/")[0]
        token_file = runtime_dir() / f"mcp-{port}.token"
        assert f"also in {token_file}" in served.said
        assert token_file.read_text() == f"{served.token}\n"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
    assert not token_file.exists()


async def test_no_auth_serves_without_a_token_and_warns(library_dir: Path) -> None:
    with _serving(library_dir, "--no-auth") as served:
        assert "warning: --no-auth: every user of this machine can read" in served.said
        assert "Adds up the lines of an invoice" in await _load(served.url, None)


@pytest.mark.parametrize(("extra", "message"), [
    (["--host", "0.0.0.0"], "is not this machine's loopback, so other machines could connect; "
                            "add --allow-remote"),
    (["--host", "0.0.0.0", "--allow-remote", "--no-auth"], "--no-auth with --host 0.0.0.0"),
])
def test_an_address_other_machines_reach_needs_an_explicit_flag_and_the_token(
        library_dir: Path, extra: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "studio", "mcp", "--skills", str(library_dir), "--no-embed",
         "--http", *extra],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=_environment(), timeout=120,
    )
    assert done.returncode == 2
    assert message in done.stderr


def test_a_loopback_address_by_name_needs_no_flag(library_dir: Path) -> None:
    with _serving(library_dir, "--host", "localhost") as served:
        answer = httpx.post(served.url, json=INITIALIZE, timeout=60,
                            headers={**ACCEPT, "authorization": f"Bearer {served.token}"})
        assert answer.status_code == 200
