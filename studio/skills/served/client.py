"""Talking to an MCP server that serves skills, with the official MCP SDK (`mcp`, already the
studio's dependency for `studio mcp`): it speaks Streamable HTTP and stdio, and lets a client
advertise an extension and send the extension's own requests. The three requests a client of
the Skills extension needs (`skills/list`, `skills/get`, `resources/read`) are sent here, their
answers read as plain JSON, then checked by `studio.skills.served.manifest`: nothing a server
says is trusted to fit a schema, and every bound is ours.

One connection per use: the skills are listed, the user is asked about them (the server waits;
the time limits cover the server's answers, not the user's thinking), and the ones agreed to are
fetched, asking `skills/get` for each first. A manifest that changed since the listing is
refused, so what reaches a model is what the user saw."""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

import anyio
import mcp_types
from mcp.client import Client, advertise
from mcp.client.stdio import StdioServerParameters, stdio_client
from pydantic import BaseModel, ConfigDict

from studio.skills.served.manifest import Limits, ServedFile, ServedSkill, check_entry
from studio.skills.served.source import ServedError, ServedSource

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"


class _Answer(BaseModel):
    """An answer as it came, every key kept (`model_extra`): none is trusted to fit a schema."""

    model_config = ConfigDict(extra="allow")


async def _ask(client: Client, request: mcp_types.Request[Any, Any]) -> dict[str, Any]:
    answer = await client.session.send_request(request, _Answer)
    return dict(answer.model_extra or {})


class _ListParams(mcp_types.PaginatedRequestParams):
    pass


class _ListRequest(mcp_types.Request[_ListParams, Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"
    params: _ListParams


class _GetParams(mcp_types.RequestParams):
    uri: str


class _GetRequest(mcp_types.Request[_GetParams, Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"
    params: _GetParams


@dataclass(slots=True)
class Listing:
    """What a server lists: its skills that passed the checks, and why each other was left out."""

    skills: list[ServedSkill] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Fetched:
    """The verified bytes of each skill fetched (by name, then path), and why others were not."""

    files: dict[str, dict[str, bytes]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@contextlib.asynccontextmanager
async def connected(source: ServedSource, limits: Limits, errlog: TextIO) -> AsyncIterator[Client]:
    """A client that has agreed on the Skills extension with the server. Every failure in the
    block, the server's or the connection's, comes out as a ServedError naming the server."""
    server: Any
    if source.url:
        server = source.url
    else:
        params = StdioServerParameters(command=source.argv[0], args=list(source.argv[1:]))
        server = stdio_client(params, errlog=errlog)
    client = Client(server, extensions=[advertise(SKILLS_EXTENSION)], cache=None,
                    read_timeout_seconds=limits.seconds)
    try:
        async with client:
            extensions = client.server_capabilities.extensions or {}
            if SKILLS_EXTENSION not in extensions:
                raise ServedError(
                    f"{source.shown}: the server does not declare the Skills extension "
                    f"({SKILLS_EXTENSION}); it serves no skills the studio can verify")
            yield client
    except ServedError:
        raise
    except TimeoutError:
        raise ServedError(f"{source.shown}: the server took over {limits.seconds:g} s to "
                          "answer; try again later or check the server") from None
    except BaseExceptionGroup as group:
        leaf = _first_leaf(group)
        if isinstance(leaf, ServedError):
            raise leaf from None
        raise ServedError(f"{source.shown}: {_reason(leaf)}") from None
    except Exception as exc:
        raise ServedError(f"{source.shown}: {_reason(exc)}") from None


def _first_leaf(group: BaseExceptionGroup[Any]) -> BaseException:
    leaf: BaseException = group
    while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
        leaf = leaf.exceptions[0]
    return leaf


def _reason(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return f"cannot start the server: {exc.filename or exc} was not found"
    if isinstance(exc, OSError | ConnectionError):
        return f"cannot reach the server ({exc}); check that it runs and the address"
    if isinstance(exc, TimeoutError):
        return "the server took too long to answer; try again later or check the server"
    text = str(exc).strip() or type(exc).__name__
    return f"the server failed: {text[:300]}"


async def list_served(client: Client, source: ServedSource, limits: Limits) -> Listing:
    """Every skill the server lists (all pages, bounded in count and time), checked; the first
    of two with one name is kept and the other reported."""
    with anyio.fail_after(limits.seconds):
        return await _list(client, source, limits)


async def _list(client: Client, source: ServedSource, limits: Limits) -> Listing:
    listing = Listing()
    cursor: str | None = None
    seen_cursors: set[str] = set()
    by_name: dict[str, ServedSkill] = {}
    entries = 0
    for _ in range(limits.pages):
        page = await _ask(client, _ListRequest(params=_ListParams(cursor=cursor)))
        skills = page.get("skills")
        if not isinstance(skills, list):
            raise ServedError(f"{source.shown}: its skills/list answer holds no list of skills")
        for entry in skills:
            entries += 1
            if entries > limits.skills:
                listing.problems.append(f"{source.shown}: lists over {limits.skills:,} skills; "
                                        "the rest are left out")
                listing.skills = list(by_name.values())
                return listing
            try:
                skill = check_entry(entry, source.shown, limits)
            except ServedError as exc:
                listing.problems.append(f"left out: {exc}")
                continue
            first = by_name.get(skill.name)
            if first is not None:
                listing.problems.append(
                    f"left out: {source.shown}: skill {skill.uri!r} has the name {skill.name!r} "
                    f"of {first.uri!r}, listed before it; an agent would see only one")
                continue
            by_name[skill.name] = skill
        cursor = page.get("nextCursor")
        if cursor is None:
            break
        if not isinstance(cursor, str) or cursor in seen_cursors or len(cursor) > limits.uri_chars:
            listing.problems.append(f"{source.shown}: its skills/list pages go round in a loop "
                                    "or give a bad cursor; the rest are left out")
            break
        seen_cursors.add(cursor)
    else:
        listing.problems.append(f"{source.shown}: lists over {limits.pages} pages of skills; "
                                "the rest are left out")
    listing.skills = list(by_name.values())
    return listing


async def fetch_served(client: Client, source: ServedSource, skills: list[ServedSkill],
                       limits: Limits) -> Fetched:
    """The bytes of every file of `skills`, each verified against the manifest the user agreed
    to. A skill whose manifest changed since (skills/get says otherwise) or whose file does not
    match is refused whole, with a message naming the file and the server."""
    fetched = Fetched()
    budget = [limits.total_bytes]
    with anyio.fail_after(limits.seconds):
        for skill in skills:
            try:
                fetched.files[skill.name] = await _fetch_one(client, source, skill, limits, budget)
            except ServedError as exc:
                fetched.problems.append(str(exc))
    return fetched


async def _fetch_one(client: Client, source: ServedSource, skill: ServedSkill, limits: Limits,
                     budget: list[int]) -> dict[str, bytes]:
    answer = await _ask(client, _GetRequest(params=_GetParams(uri=skill.uri)))
    now = check_entry(answer.get("skill"), source.shown, limits)
    if now.manifest_digest != skill.manifest_digest:
        raise ServedError(f"refused {skill.name} from {source.shown}: its manifest changed since "
                          "it was listed (skills/get answers another one); run again to review it")
    if skill.size > budget[0]:
        raise ServedError(f"refused {skill.name} from {source.shown}: the server's skills add "
                          f"up to over {limits.total_bytes:,} bytes")
    budget[0] -= skill.size
    files: dict[str, bytes] = {}
    for file in skill.files:
        files[file.path] = await _read_verified(client, source, skill, file)
    return files


async def _read_verified(client: Client, source: ServedSource, skill: ServedSkill,
                         file: ServedFile) -> bytes:
    where = f"refused {skill.name} from {source.shown}: the file {file.path}"
    result = await client.read_resource(file.uri)
    contents = result.contents
    if len(contents) != 1 or str(contents[0].uri) != file.uri:
        raise ServedError(f"{where} came back as {len(contents)} parts or under another URI")
    content = contents[0]
    if isinstance(content, mcp_types.TextResourceContents):
        if len(content.text) > file.size:  # each character is a byte at least
            raise ServedError(f"{where} is larger than the {file.size:,} bytes its manifest says")
        data = content.text.encode("utf-8", "surrogatepass")
    else:
        blob = content.blob
        if len(blob) > (file.size + 2) // 3 * 4 + 4:
            raise ServedError(f"{where} is larger than the {file.size:,} bytes its manifest says")
        try:
            data = base64.b64decode(blob, validate=True)
        except (binascii.Error, ValueError):
            raise ServedError(f"{where} is not valid base64") from None
    if len(data) != file.size:
        raise ServedError(f"{where} is {len(data):,} bytes; its manifest says {file.size:,}")
    if "sha256:" + hashlib.sha256(data).hexdigest() != file.digest:
        raise ServedError(f"{where} does not match its SHA-256 digest in the manifest; the "
                          "server sent other bytes than it promised")
    return data


def server_log(folder: Path, source: ServedSource) -> Path:
    """Where a stdio server's stderr goes: a file, so its banner and whatever else it prints
    never reach (or act on) the terminal."""
    return folder / f"{source.key}.log"
