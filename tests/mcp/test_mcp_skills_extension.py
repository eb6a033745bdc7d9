"""`studio mcp` speaks the Skills extension (SEP-2640): tried with FastMCP's client over stdio against
the command in a subprocess, and with the official SDK's client in process."""

from __future__ import annotations

import base64
import hashlib
import os
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp_types
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp.client.transports import StdioTransport
from fastmcp.skills import SkillsClientExtension
from mcp import Client
from mcp.shared.exceptions import MCPError

from studio.mcp import SkillLibrary, build_server
from studio.mcp.served import PAGE_SKILLS
from studio.skills import mcpwire

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"


def _skill(folder: Path, name: str, description: str, extra: str = "",
           body: str = "Do the thing.\n") -> Path:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}", encoding="utf-8")
    return folder


@pytest.fixture
def roots(tmp_path: Path) -> list[Path]:
    first, second = tmp_path / "first", tmp_path / "second"
    tides = _skill(first / "tide-tables", "tide-tables",
                   "Reads tide tables for a harbour. Use when the user asks about tides.",
                   "license: MIT\nmetadata:\n  author: harbour-office\n  version: \"2\"\n",
                   "Read references/harbours.md, then answer.\r\nUnicode: é ✓\n")
    (tides / "references").mkdir()
    (tides / "references" / "harbours.md").write_text("# Harbours\n\n- Brest\n- Dover\n")
    (tides / "assets").mkdir()
    (tides / "assets" / "chart.png").write_bytes(PNG)
    (tides / ".env").write_text("TOKEN=hunter2\n")
    (tides / "keys").mkdir()
    (tides / "keys" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (tmp_path / "secret.txt").write_text("not for clients\n")
    (tides / "references" / "escape.md").symlink_to(tmp_path / "secret.txt")
    outer = _skill(first / "team" / "refunds", "refunds",
                   "Handles refund requests. Use when a customer asks for money back.")
    _skill(outer / "policies" / "chargebacks", "chargebacks",
           "Answers chargeback disputes. Use when a bank reverses a payment.")
    _skill(first / "broken", "broken", "[unclosed\n")
    _skill(second / "tide-tables", "tide-tables", "Another harbour office's tide tables. Use for tides.")
    return [first, second]


EXPECTED = {
    "skill://tide-tables/SKILL.md", "skill://team/refunds/SKILL.md",
    "skill://team/refunds/policies/chargebacks/SKILL.md",
}


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def _stdio(roots: list[Path], log: Path) -> FastMCPClient[Any]:
    args = ["-m", "studio", "mcp", "--no-embed"]
    for root in roots:
        args += ["--skills", str(root)]
    transport = StdioTransport(command=sys.executable, args=args, env=_environment(), log_file=log)
    return FastMCPClient(transport, extensions=[SkillsClientExtension()])


async def _read_bytes(client: FastMCPClient[Any], uri: str) -> bytes:
    (content,) = await client.read_resource(uri)
    if isinstance(content, mcp_types.TextResourceContents):
        return content.text.encode("utf-8")
    return base64.b64decode(content.blob)


async def test_fastmcp_lists_every_valid_skill_and_each_file_matches_its_digest(
        roots: list[Path], tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    async with _stdio(roots, log) as client:
        skills = await client.list_skills()
        uris = {skill.uri for skill in skills}
        read: dict[str, bytes] = {}
        for skill in skills:
            assert isinstance(skill.resources, list)
            for resource in skill.resources:
                data = await _read_bytes(client, resource.uri)
                assert len(data) == resource.size
                assert f"sha256:{hashlib.sha256(data).hexdigest()}" == resource.digest
                read[resource.uri] = data
            # FastMCP's own verifying read: every digest, every size, and the frontmatter.
            whole = await client.read_skill(skill.uri)
            assert whole.name == skill.frontmatter.name
        got = await client.get_skill("skill://tide-tables/SKILL.md")
        listing = await client.session.send_request(
            _Request(method="resources/directory/read", params={"uri": "skill://tide-tables"}),
            _AnyResult)
    second = [uri for uri in uris if uri.endswith("/tide-tables/SKILL.md") and uri not in EXPECTED]
    assert uris == EXPECTED | set(second) and len(second) == 1
    tides = next(skill for skill in skills if skill.uri == "skill://tide-tables/SKILL.md")
    assert tides.frontmatter.root == {
        "name": "tide-tables",
        "description": "Reads tide tables for a harbour. Use when the user asks about tides.",
        "license": "MIT", "metadata": {"author": "harbour-office", "version": "2"}}
    assert isinstance(tides.resources, list)
    assert {r.uri for r in tides.resources} == {
        "skill://tide-tables/SKILL.md", "skill://tide-tables/references/harbours.md",
        "skill://tide-tables/assets/chart.png"}
    assert read["skill://tide-tables/assets/chart.png"] == PNG
    assert read["skill://tide-tables/SKILL.md"] == (roots[0] / "tide-tables" / "SKILL.md").read_bytes()
    assert got == tides
    children = {(child["uri"], child["mimeType"]) for child in listing.model_dump()["resources"]}
    assert children == {("skill://tide-tables/SKILL.md", "text/markdown"),
                        ("skill://tide-tables/references", mcpwire.DIRECTORY_MIME),
                        ("skill://tide-tables/assets", mcpwire.DIRECTORY_MIME)}
    said = log.read_text()
    assert f"{roots[0] / 'broken'} is not served: SK012" in said


async def test_pagination_walks_a_library_bigger_than_one_page(tmp_path: Path) -> None:
    count = PAGE_SKILLS * 2 + 7
    for at in range(count):
        _skill(tmp_path / "lib" / f"skill-{at:03d}", f"skill-{at:03d}",
               f"Skill number {at}. Use when testing pages.")
    pages: list[list[str]] = []
    async with _stdio([tmp_path / "lib"], tmp_path / "stderr.txt") as client:
        cursor = None
        while True:
            page = await client.list_skills_mcp(cursor=cursor)
            pages.append([skill.uri for skill in page.skills])
            cursor = page.next_cursor
            if cursor is None:
                break
    walked = [uri for page in pages for uri in page]
    assert len(pages) == 3 and all(len(page) <= PAGE_SKILLS for page in pages)
    assert sorted(walked) == sorted(f"skill://skill-{at:03d}/SKILL.md" for at in range(count))
    assert len(set(walked)) == count


# --- the official SDK's client, in process ---------------------------------------------------


class _AnyResult(mcp_types.Result):
    model_config = mcp_types.Result.model_config | {"extra": "allow"}


class _Request(mcp_types.Request[dict[str, Any], str]):
    method: str
    params: dict[str, Any] | None = None


@pytest.fixture
def library(roots: list[Path]) -> Iterator[SkillLibrary]:
    served = SkillLibrary(roots)
    yield served
    served.close()


async def _call(client: Client, method: str, **params: Any) -> dict[str, Any]:
    result = await client.session.send_request(_Request(method=method, params=params), _AnyResult)
    return result.model_dump(by_alias=True)


async def test_the_sdk_client_sees_the_capability_and_the_three_methods(library: SkillLibrary) -> None:
    async with Client(build_server(library)) as client:
        extensions = client.server_capabilities.extensions or {}
        resources = client.server_capabilities.resources
        first = await _call(client, "skills/list")
        got = await _call(client, "skills/get", uri="skill://team/refunds/SKILL.md")
        folder = await _call(client, "resources/directory/read", uri="skill://team/refunds/policies")
        tools = {tool.name for tool in (await client.list_tools()).tools}
    assert extensions[mcpwire.EXTENSION_ID] == {"directoryRead": True}
    assert resources is not None
    assert first["resultType"] == "complete" and "ttlMs" in first and "cacheScope" in first
    entries = [mcpwire.entry_from_wire(entry) for entry in first["skills"]]
    refunds = mcpwire.entry_from_wire(got["skill"])
    assert refunds in entries
    # The enclosing skill's manifest lists the nested skill's files too (the spec's completeness).
    assert isinstance(refunds.resources, tuple)
    assert "skill://team/refunds/policies/chargebacks/SKILL.md" in {f.uri for f in refunds.resources}
    assert folder["resources"] == [{"uri": "skill://team/refunds/policies/chargebacks",
                                    "name": "chargebacks", "mimeType": mcpwire.DIRECTORY_MIME}]
    assert tools == {"search_skills", "load_skill", "read_skill_file"}


@pytest.mark.parametrize(("method", "uri"), [
    ("skills/get", "skill://broken/SKILL.md"),
    ("skills/get", "skill://tide-tables/references/harbours.md"),
    ("skills/get", "skill://nowhere/SKILL.md"),
    ("resources/directory/read", "skill://tide-tables/SKILL.md"),
    ("resources/directory/read", "skill://tide-tables/keys"),
    ("resources/directory/read", "skill://nowhere"),
    ("resources/read", "skill://tide-tables/.env"),
    ("resources/read", "skill://tide-tables/keys/id_rsa"),
    ("resources/read", "skill://tide-tables/references/escape.md"),
    ("resources/read", "skill://tide-tables/../broken/SKILL.md"),
    ("resources/read", "skill://tide-tables/references/%2E%2E/%2E%2E/broken/SKILL.md"),
    ("resources/read", "skill://broken/SKILL.md"),
])
async def test_what_is_not_served_is_invalid_params(library: SkillLibrary, method: str, uri: str) -> None:
    async with Client(build_server(library)) as client:
        with pytest.raises(MCPError) as raised:
            if method == "resources/read":
                await client.read_resource(uri)
            else:
                await _call(client, method, uri=uri)
    assert raised.value.error.code == mcpwire.INVALID_PARAMS
    assert "hunter2" not in str(raised.value) and "not for clients" not in str(raised.value)


async def test_a_cursor_the_server_did_not_give_is_invalid_params(library: SkillLibrary) -> None:
    async with Client(build_server(library)) as client:
        with pytest.raises(MCPError) as raised:
            await _call(client, "skills/list", cursor="not base64 at all!")
    assert raised.value.error.code == mcpwire.INVALID_PARAMS


async def test_resources_list_pages_and_names_each_file_once(library: SkillLibrary) -> None:
    async with Client(build_server(library)) as client:
        listed = [str(resource.uri) for resource in (await client.list_resources()).resources]
    assert len(listed) == len(set(listed))
    assert "skill://tide-tables/assets/chart.png" in listed
    assert not any(".env" in uri or "id_rsa" in uri or "escape" in uri for uri in listed)


def test_a_skill_whose_frontmatter_json_cannot_carry_is_not_served_and_said(tmp_path: Path) -> None:
    _skill(tmp_path / "lib" / "dated", "dated", "Has a date. Use when testing dates.",
           "metadata:\n  created: 2026-01-01\n")
    said: list[str] = []
    served = SkillLibrary([tmp_path / "lib"], report=said.append)
    try:
        skill = served.served.skills[0]
        with pytest.raises(LookupError):
            served.served.entry(skill)
        assert served.served.page(None) == ([], None)
    finally:
        served.close()
    assert said and "metadata.created" in said[0] and "quote it" in said[0]


async def test_a_zipped_skill_is_served_from_its_archive(tmp_path: Path) -> None:
    archive = tmp_path / "skills.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped/SKILL.md", "---\nname: zipped\ndescription: Zipped. Use when "
                        "testing archives.\n---\nRead references/r.md.\n")
        zipped.writestr("zipped/references/r.md", "# r\n")
        zipped.writestr("zipped/.netrc", "machine x password y\n")
    served = SkillLibrary([archive])
    try:
        async with Client(build_server(served)) as client:
            got = mcpwire.entry_from_wire(
                (await _call(client, "skills/get", uri="skill://zipped/SKILL.md"))["skill"])
            read = await client.read_resource("skill://zipped/references/r.md")
    finally:
        served.close()
    assert isinstance(got.resources, tuple)
    assert [(f.uri, f.digest) for f in got.resources] == [
        ("skill://zipped/SKILL.md", mcpwire.digest(zipfile.ZipFile(archive).read("zipped/SKILL.md"))),
        ("skill://zipped/references/r.md", mcpwire.digest(b"# r\n"))]
    assert read.contents[0].text == "# r\n"


def test_same_name_skills_get_distinct_uris_that_stay_the_same(roots: list[Path]) -> None:
    def uris() -> list[str]:
        served = SkillLibrary(roots)
        try:
            return [skill.uri for skill in served.served.skills]
        finally:
            served.close()

    first = uris()
    tides = [uri for uri in first if uri.endswith("/tide-tables/SKILL.md")]
    assert len(tides) == 2 and len(set(first)) == len(first)
    assert uris() == first


async def test_a_file_changed_on_disk_gets_the_digest_of_the_bytes_now_served(
        library: SkillLibrary, roots: list[Path]) -> None:
    harbours = roots[0] / "tide-tables" / "references" / "harbours.md"
    uri = "skill://tide-tables/references/harbours.md"
    async with Client(build_server(library)) as client:
        before = await _call(client, "skills/get", uri="skill://tide-tables/SKILL.md")
        harbours.write_text("# Harbours\n\n- Brest\n- Dover\n- Calais\n")
        after = await _call(client, "skills/get", uri="skill://tide-tables/SKILL.md")
        read = (await client.read_resource(uri)).contents[0]
    def listed(result: dict[str, Any]) -> dict[str, Any]:
        return next(file for file in result["skill"]["resources"] if file["uri"] == uri)
    assert isinstance(read, mcp_types.TextResourceContents)
    served = read.text.encode("utf-8")
    assert listed(after) == {"uri": uri, "digest": mcpwire.digest(served), "size": len(served)}
    assert listed(before)["digest"] != listed(after)["digest"]


def test_a_nested_skill_with_errors_is_refused_and_stays_a_file_of_the_outer(tmp_path: Path) -> None:
    outer = _skill(tmp_path / "lib" / "outer", "outer", "Outer. Use when testing nesting.")
    _skill(outer / "inner", "wrong-name", "Inner. Use when testing nesting.")
    served = SkillLibrary([tmp_path / "lib"])
    try:
        entry = served.served.entry(served.served.skills[0])
        refused = served.refused
    finally:
        served.close()
    assert [skill.uri for skill in served.served.skills] == ["skill://outer/SKILL.md"]
    assert isinstance(entry.resources, tuple)
    assert "skill://outer/inner/SKILL.md" in {file.uri for file in entry.resources}
    assert [(folder, why.split(":")[0]) for folder, why in refused] == [(outer / "inner", "SK108")]
