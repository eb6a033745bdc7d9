"""A small HTTP/1.1 server for scripted fakes: asyncio in its own thread, so it serves clients on
any event loop (pytest-asyncio's, qasync's) and plain blocking clients alike.

One request per connection (`Connection: close`); streamed bodies use chunked transfer encoding.
Subclasses implement `respond(request, exchange)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from dataclasses import dataclass
from typing import Any

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


class ClientGone(Exception):
    """The client closed the connection while the server was still answering."""


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    client_gone: bool = False

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


async def _read_request(reader: asyncio.StreamReader) -> Request | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = lines[0].split(" ", 2)
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0") or 0)
    body = await reader.readexactly(length) if length else b""
    return Request(method, target.split("?", 1)[0], headers, body)


class Exchange:
    """The server's side of one request: send a whole response, or stream one chunk at a time."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def _write(self, data: bytes) -> None:
        if self.writer.is_closing():
            raise ClientGone
        self.writer.write(data)
        try:
            await self.writer.drain()
        except ConnectionError as exc:
            raise ClientGone from exc

    def _head(self, status: int, content_type: str, extra: str) -> bytes:
        reason = _REASONS.get(status, "Status")
        return (
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n{extra}Connection: close\r\n\r\n"
        ).encode("latin-1")

    async def send(self, status: int, body: Any) -> None:
        """A whole response: a dict or list as JSON, a str as text (HTML when it starts with <)."""
        if isinstance(body, str):
            kind = "html" if body.lstrip().startswith("<") else "plain"
            data, content_type = body.encode(), f"text/{kind}; charset=utf-8"
        else:
            data, content_type = json.dumps(body).encode(), "application/json"
        await self._write(self._head(status, content_type, f"Content-Length: {len(data)}\r\n") + data)

    async def write_raw(self, data: bytes) -> None:
        """Bytes on the wire as they are, with no HTTP framing."""
        await self._write(data)

    async def start_stream(self, content_type: str) -> None:
        await self._write(self._head(200, content_type, "Transfer-Encoding: chunked\r\n"))

    async def chunk(self, data: bytes) -> None:
        if data:
            await self._write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    async def end_stream(self) -> None:
        await self._write(b"0\r\n\r\n")

    async def pause(self, seconds: float) -> None:
        """Wait, but notice at once if the client hangs up meanwhile."""
        try:
            data = await asyncio.wait_for(self.reader.read(1), seconds)
        except TimeoutError:
            return
        if not data:
            raise ClientGone

    async def hang(self) -> None:
        """Send nothing more; return (as ClientGone) only when the client hangs up."""
        while await self.reader.read(1024):
            pass
        raise ClientGone

    def drop(self) -> None:
        """Cut the connection without finishing the response."""
        transport = self.writer.transport
        transport.abort()


class ScriptedHTTPServer:
    """Base of the fakes: start()/stop() (or use as a context manager), `url`, `requests` (every
    request received, in order) and `disconnected` (set when a client hung up mid-answer)."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.disconnected = threading.Event()
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ScriptedHTTPServer:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            try:
                server = loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                return
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            server.close()
            for task in list(self._tasks):
                task.cancel()
            loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
            loop.run_until_complete(server.wait_closed())
            loop.close()

        self._thread = threading.Thread(target=run, name=type(self).__name__, daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop = None
        self._thread = None

    def __enter__(self) -> ScriptedHTTPServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_disconnected(self, timeout: float = 10.0) -> bool:
        """Block until a client has hung up mid-answer (True) or `timeout` passes (False)."""
        return self.disconnected.wait(timeout)

    def requests_to(self, path: str) -> list[Request]:
        with self._lock:
            return [request for request in self.requests if request.path == path]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        request: Request | None = None
        try:
            request = await _read_request(reader)
            if request is None:
                return
            with self._lock:
                self.requests.append(request)
            await self.respond(request, Exchange(reader, writer))
        except ClientGone:
            if request is not None:
                request.client_gone = True
            self.disconnected.set()
        except asyncio.CancelledError:
            # stop() while still answering (a hang, a large body): ending quietly keeps asyncio
            # from logging the cancelled connection task as an error.
            pass
        finally:
            self._tasks.discard(task)
            with contextlib.suppress(Exception):
                writer.close()

    async def respond(self, request: Request, exchange: Exchange) -> None:
        raise NotImplementedError
