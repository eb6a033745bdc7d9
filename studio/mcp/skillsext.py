"""The Skills extension (SEP-2640) on the official SDK: the capability
(`io.modelcontextprotocol/skills` with `directoryRead`), `skills/list` (paged), `skills/get`,
`resources/directory/read`, and every served file as a resource that `resources/list` pages
through and `resources/read` sends as the very bytes its manifest digested.

The SDK's `Extension` declares the capability and binds the three methods; the file resources are
answered on demand from `ServedSkills` (`SkillServer.read_resource`), not registered one object
per file, so a library of 100,000 skills starts as fast as one of ten and no listing is one
message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.shared.exceptions import MCPError
from mcp_types import ListResourcesResult, PaginatedRequestParams, RequestParams
from pydantic import AnyUrl

from studio.mcp.served import ServedSkills, Unserved
from studio.skills import mcpwire as wire

# How long a client may keep a listing or an entry before asking again: the files can change on
# disk at any time, and a stale entry only costs the client a `skills/get` (digests mismatch).
TTL_MS = 60_000


class GetSkillParams(RequestParams):
    uri: str


class DirectoryReadParams(PaginatedRequestParams):
    uri: str


class SkillsExtension(Extension):
    """`skills/list`, `skills/get` and `resources/directory/read` over `served`."""

    identifier = wire.EXTENSION_ID

    def __init__(self, served: ServedSkills) -> None:
        self._served = served

    def settings(self) -> dict[str, Any]:
        return {wire.DIRECTORY_READ_SETTING: True}

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding(wire.LIST, PaginatedRequestParams, self._list),
            MethodBinding(wire.GET, GetSkillParams, self._get),
            MethodBinding(wire.DIRECTORY_READ, DirectoryReadParams, self._directory),
        )

    async def _list(self, _ctx: ServerRequestContext[Any, Any],
                    params: PaginatedRequestParams) -> dict[str, Any]:
        entries, cursor = await _answer(self._served.page, params.cursor)
        result = _cacheable({"skills": [entry.to_wire() for entry in entries]})
        if cursor is not None:
            result["nextCursor"] = cursor
        return result

    async def _get(self, _ctx: ServerRequestContext[Any, Any],
                   params: GetSkillParams) -> dict[str, Any]:
        def entry() -> wire.SkillEntry:
            return self._served.entry(self._served.skill_at(params.uri))

        found = await _answer(lambda _: entry(), None)
        return _cacheable({"skill": found.to_wire()})

    async def _directory(self, _ctx: ServerRequestContext[Any, Any],
                         params: DirectoryReadParams) -> dict[str, Any]:
        children = await _answer(self._served.directory, params.uri)
        # A skill's folder has a few dozen children at most: one page always holds them.
        return {"resultType": "complete", "resources": children}


def _cacheable(result: dict[str, Any]) -> dict[str, Any]:
    return {"resultType": "complete", **result, "ttlMs": TTL_MS, "cacheScope": "private"}


async def _answer(call: Any, argument: Any) -> Any:
    """`call(argument)` off the event loop (it reads files); Unserved becomes -32602."""
    try:
        return await asyncio.to_thread(call, argument)
    except Unserved as exc:
        raise MCPError(code=wire.INVALID_PARAMS, message=str(exc)) from None


class SkillServer(MCPServer):
    """An MCPServer whose `skill://` resources are the served skills' files, paged in
    `resources/list` and read on demand."""

    def __init__(self, served: ServedSkills, **kwargs: Any) -> None:
        self._served = served
        super().__init__(extensions=[SkillsExtension(served)], **kwargs)

    async def _handle_list_resources(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        cursor = params.cursor if params is not None else None
        listed, following = await _answer(self._served.resources_page, cursor)
        return ListResourcesResult.model_validate(
            {"resources": listed, "nextCursor": following})

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Any, Any] | None = None
    ) -> Any:
        text = str(uri)
        if not text.startswith(f"{wire.SCHEME}://"):
            return await super().read_resource(uri, context)
        data, mime = await _answer(self._served.read, text)
        return list(_contents(data, mime))


def _contents(data: bytes, mime: str) -> Iterable[ReadResourceContents]:
    """Text when the bytes are UTF-8 (the client's `text.encode()` gives them back exactly),
    else a blob: either way the bytes the manifest digested."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [ReadResourceContents(content=data, mime_type=mime)]
    return [ReadResourceContents(content=text, mime_type=mime)]
