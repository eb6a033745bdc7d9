"""The library served over the Model Context Protocol, with the official SDK (`mcp`): the Skills
extension (`skills/list`, `skills/get`, `resources/directory/read`, every file of every served
skill a `skill://` resource: `skillsext.py`), and three tools (`search_skills`, `load_skill`,
`read_skill_file`) for clients without the extension. Nothing here runs a script: MCP clients read
skills, they do not get a shell through the studio.

The transports are the SDK's: stdio for clients that start the server themselves (Claude Desktop,
Claude Code, Codex, goose, Cursor), and streamable HTTP for clients that connect to a running one
(the window's Tools menu starts that): bound to 127.0.0.1 unless the caller asks for another
address, and guarded by a bearer token unless the caller asks for none (`studio.mcp.auth`).
"""

from __future__ import annotations

import asyncio
import socket
import threading

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from studio import __version__
from studio.mcp.auth import App, BearerGuard, new_token
from studio.mcp.library import MAX_RESULTS, SkillLibrary, SkillNotFound
from studio.mcp.skillsext import SkillServer
from studio.skills import mcpwire

SERVER_NAME = "skill-studio"
LOOPBACK = "127.0.0.1"
INSTRUCTIONS = (
    "A library of Agent Skills (folders with a SKILL.md). Call search_skills with what you need in "
    "a sentence, load_skill with the best match's name to get its instructions, and "
    "read_skill_file for a file the instructions name. Scripts are not run by this server."
)


def resource_uri(name: str, path: str) -> str:
    """The URI of a file of a skill served at the top of its root (`skill://NAME/PATH`)."""
    return mcpwire.skill_uri((name,), path)


def build_server(library: SkillLibrary) -> MCPServer:
    """An MCP server over `library`; the caller runs it (`serve_stdio`, `serve_http`) or hands it
    to an in-process client."""
    server: MCPServer = SkillServer(
        library.served, name=SERVER_NAME, version=__version__, instructions=INSTRUCTIONS,
        log_level="WARNING",
    )

    @server.tool(description=(
        "Find skills by what you need (words or a sentence). Returns the best matches, each with "
        "its name and description; load one with load_skill."))
    async def search_skills(query: str, limit: int = 5) -> str:
        try:
            result = await asyncio.to_thread(library.search, query, min(limit, MAX_RESULTS))
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        if not result.hits:
            return f"no skill matches {query!r}; try other words"
        lines = [f"- {hit.name}: {hit.description}" for hit in result.hits]
        lines.append(f"(ranked {result.ranking}" + (f"; {result.note})" if result.note else ")"))
        return "\n".join(lines)

    @server.tool(description=(
        "Load a skill's full SKILL.md (its frontmatter and instructions) and the list of its "
        "files, by the skill's name."))
    async def load_skill(name: str) -> str:
        try:
            return await asyncio.to_thread(library.load, name)
        except SkillNotFound as exc:
            raise ToolError(str(exc)) from None

    @server.tool(description=(
        "Read a file inside a skill's folder, e.g. references/guide.md, by its path relative to "
        "that folder. Nothing outside the skill's folder can be read."))
    async def read_skill_file(skill: str, path: str) -> str:
        try:
            return await asyncio.to_thread(library.read, skill, path)
        except SkillNotFound as exc:
            raise ToolError(str(exc)) from None
    return server


async def serve_stdio(server: MCPServer) -> None:
    await server.run_stdio_async()


def bind_loopback(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: a free port the system picks)."""
    return bind_address(LOOPBACK, port)


def bind_address(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port`, bound before the server starts so the address it
    reports is the one it serves, with no race for the port."""
    family, kind, _proto, _name, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


def http_app(server: MCPServer, sock: socket.socket, token: str | None) -> App:
    """The streamable HTTP app for `sock`; every request must carry `token` (None: no token, the
    caller's explicit choice). On loopback the SDK also refuses other Host and Origin headers, so
    a web page cannot reach the server by rebinding a name to 127.0.0.1."""
    host = sock.getsockname()[0]
    app: App = server.streamable_http_app(host=host)
    return app if token is None else BearerGuard(app, token)


async def serve_http(server: MCPServer, sock: socket.socket, token: str | None) -> None:
    """Streamable HTTP at http://HOST:PORT/mcp on `sock` (from `bind_address`), until cancelled."""
    import uvicorn

    config = uvicorn.Config(http_app(server, sock, token), log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock])


def http_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/mcp"


class LoopbackService:
    """The library served over streamable HTTP on 127.0.0.1 from a thread of its own, for a caller
    that has its own event loop to keep responsive (the window): `start` binds and returns at once,
    `stop` ends the server and waits for its thread.

    Attributes:
        url: where clients connect (http://127.0.0.1:PORT/mcp), known from the moment it is made.
        token: what clients send as `Authorization: Bearer TOKEN` (new for each service).
    """

    def __init__(self, server: MCPServer, port: int = 0) -> None:
        import uvicorn

        self._socket = bind_loopback(port)
        self.url = http_url(self._socket)
        self.token = new_token()
        app = http_app(server, self._socket, self.token)
        self._uvicorn = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="studio-mcp", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            asyncio.run(self._uvicorn.serve(sockets=[self._socket]))
        except BaseException as exc:
            self.error = exc

    def stop(self, patience: float = 30.0) -> None:
        """End the server: open connections are closed, the port is free when this returns."""
        self._uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(patience)
        self._socket.close()
