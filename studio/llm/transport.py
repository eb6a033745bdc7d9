"""What the HTTP clients share: the server's URL checked, deadlines, turning httpx failures into
`LLMError`s, and streaming a response line by line (each line capped, so a server cannot make the
client hold an endless line in memory) so that closing the stream closes the connection.

Two deadlines bound every exchange. The connect timeout is httpx's. The idle timeout is our own
`IdleClock`: the parser moves it on only when a piece of the answer arrives, so a server that
keeps the connection busy with blank lines, keep-alive comments or empty chunks still runs out of
time; httpx's read timeout would be reset by every byte.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import AsyncExitStack, aclosing, asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import httpx

from studio.llm.errors import (
    BadResponse,
    BadURL,
    LLMError,
    ServerNotRunning,
    StreamInterrupted,
    Timeout,
)

CONNECT_TIMEOUT = 10
# A cold model on a small machine: Ollama loads it on the first request, then reads the whole
# prompt (the skills' catalog included) before the first token; minutes on two cores.
IDLE_TIMEOUT = 180
MAX_LINE = 1 << 20
MAX_BODY = 16 << 20
MAX_ERROR_BODY = 64 << 10

StatusMapper = Callable[[int, str], LLMError]


def checked_url(url: str) -> str:
    """`url` ready to use, with `http://` added when it has no scheme (`localhost:11434`, as
    OLLAMA_HOST is often written). Raises BadURL for what cannot address an HTTP server."""
    text = url.strip()
    if not text:
        raise BadURL(url, "it is empty")
    if any(char.isspace() or ord(char) < 32 for char in text):
        raise BadURL(url, "it contains spaces or control characters")
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - reading it is what checks the port
    except ValueError as exc:
        raise BadURL(url, str(exc)) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise BadURL(url, f"{parts.scheme}:// is not http:// or https://")
    if not parts.hostname:
        raise BadURL(url, "it names no host")
    return text


class IdleClock:
    """How long an answer may go without progress: `seconds` of waiting for the server, counted
    from the start and again from each `progressed()` (a piece of the answer, as the parser sees
    it). Only time spent waiting on the server counts, not the consumer's time between pieces."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._waited = 0.0

    def progressed(self) -> None:
        self._waited = 0.0

    def waited(self, seconds: float) -> None:
        self._waited += seconds

    def remaining(self) -> float:
        return self.seconds - self._waited


_HTML_CODE = re.compile(r"<(script|style)\b", re.IGNORECASE)
# `[^<>]` rather than `[^>]`: a page of unclosed `<` would make every match scan to the end.
_HTML_TAG = re.compile(r"<[^<>]*>")


def _without_code(text: str, lowered: str) -> str:
    """`text` without its scripts and style sheets; one pass, however the tags are (un)closed."""
    kept = []
    position = 0
    while (found := _HTML_CODE.search(text, position)) is not None:
        kept.append(text[position : found.start()])
        closing = lowered.find("</" + found.group(1).lower(), found.end())
        if closing < 0:
            return "".join(kept)
        after = lowered.find(">", closing)
        position = len(text) if after < 0 else after + 1
    kept.append(text[position:])
    return "".join(kept)


def _html_summary(text: str) -> str:
    """A page's title, else its visible text: what a proxy's or web server's error page says.
    Only the page's start is read, and in linear time, whatever the server sent."""
    text = text[:MAX_ERROR_BODY]
    lowered = text.lower()
    title = lowered.find("<title")
    opened = lowered.find(">", title) if title >= 0 else -1
    closed = lowered.find("</title", opened) if opened >= 0 else -1
    visible = (text[opened + 1 : closed] if closed >= 0
               else _HTML_TAG.sub(" ", _without_code(text, lowered)))
    summary = " ".join(html.unescape(visible).split())
    return (summary[:300] + "…" if len(summary) > 300 else summary) or "an HTML page"


def _looks_like_html(text: str) -> bool:
    head = text[:200].lstrip().lower()
    return head.startswith(("<!doctype html", "<html", "<head", "<body")) or "<html" in head


def server_text(body: bytes) -> str:
    """The human part of an error body: the message inside common JSON shapes, an HTML page's
    title, else the text."""
    text = body.decode("utf-8", errors="replace").strip()
    if _looks_like_html(text):
        return _html_summary(text)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return message_of(data) or text


def message_of(data: Any) -> str:
    """The error message in `{"error": "..."}`, `{"error": {"message": ...}}`, `{"message"}`,
    `{"detail"}`; empty when there is none."""
    if not isinstance(data, dict):
        return ""
    error = data.get("error")
    if isinstance(error, str):
        return error
    if isinstance(error, dict):
        inner = error.get("message")
        return inner if isinstance(inner, str) else json.dumps(error)
    for key in ("message", "detail"):
        value = data.get(key)
        if isinstance(value, str):
            return value
    return ""


def _split_lines(data: bytes) -> list[str]:
    text = data.decode("utf-8", errors="replace")
    return text[:-1].split("\r") if text.endswith("\r") else text.split("\r")


async def _lines(
    chunks: AsyncIterator[bytes], max_line: int, too_long: LLMError
) -> AsyncGenerator[str, None]:
    """The lines of a byte stream (ended by LF, CRLF or CR, as server-sent events may be), none
    longer than `max_line` bytes: a longer one raises `too_long` before it is held whole."""
    buffer = bytearray()
    async for chunk in chunks:
        buffer += chunk
        start = 0
        # Only the new bytes can end the line that was pending.
        end = buffer.find(b"\n", len(buffer) - len(chunk))
        while end >= 0:
            if end - start > max_line:
                raise too_long
            for line in _split_lines(bytes(buffer[start:end])):
                yield line
            start = end + 1
            end = buffer.find(b"\n", start)
        del buffer[:start]
        if len(buffer) > max_line:
            raise too_long
    if buffer:
        for line in _split_lines(bytes(buffer)):
            yield line


def json_body(body: Any) -> bytes | None:
    """A request's JSON as UTF-8; text holding bytes that are not UTF-8 (a model's `\\udcff`
    in a tool call it made, sent back to it with the history) goes as `\\udcNN` escapes."""
    if body is None:
        return None
    text = json.dumps(body, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body).encode("ascii")


async def _read_body(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """At most `limit` bytes of the body, and whether there was more."""
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body += chunk
        if len(body) > limit:
            return bytes(body[:limit]), True
    return bytes(body), False


class HTTPTransport:
    """One server's HTTP access for a client: the base URL, the shared `httpx.AsyncClient` (closed
    only if this object created it), the timeouts and the advice for a server that is not running.

    Attributes:
        connect_timeout: seconds to wait for the connection.
        idle_timeout: seconds an answer may go without progress (see `IdleClock`); a whole
            non-streamed answer must arrive within it.
        max_line: the longest line of a streamed answer, in bytes.
    """

    def __init__(
        self,
        base_url: str,
        http: httpx.AsyncClient | None,
        *,
        start_hint: str,
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        headers: dict[str, str] | None = None,
        max_line: int = MAX_LINE,
    ) -> None:
        self.base_url = checked_url(base_url).rstrip("/")
        self.start_hint = start_hint
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        self.max_line = max_line
        self.headers = dict(headers or {})
        self._owns_http = http is None
        self.http = http if http is not None else httpx.AsyncClient()
        self.timeout = httpx.Timeout(
            connect=connect_timeout, read=idle_timeout, write=idle_timeout, pool=connect_timeout
        )

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()

    def url(self, path: str) -> str:
        return self.base_url + path

    def idle_clock(self) -> IdleClock:
        return IdleClock(self.idle_timeout)

    @asynccontextmanager
    async def translated(self, url: str, answered: Callable[[], bool]) -> AsyncIterator[None]:
        """Turn httpx's exceptions raised inside the block into `LLMError`s about `url`;
        `answered()` tells whether the server's response had begun."""
        try:
            yield
        except httpx.ConnectTimeout as exc:
            raise Timeout(url, self.connect_timeout, "connect") from exc
        except httpx.ConnectError as exc:
            raise ServerNotRunning(self.base_url, self.start_hint) from exc
        except (httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout) as exc:
            raise Timeout(url, self.idle_timeout, "idle") from exc
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
            raise BadURL(url, _describe(exc)) from exc
        except httpx.HTTPError as exc:
            if answered():
                raise StreamInterrupted(url, _describe(exc)) from exc
            if isinstance(exc, httpx.RemoteProtocolError) and "disconnected" not in str(exc):
                detail = f"not an HTTP answer ({_describe(exc)})"
                raise BadResponse(url, detail, self.wrong_server_hint) from exc
            raise StreamInterrupted(url, _describe(exc), before_answer=True) from exc

    @asynccontextmanager
    async def within(self, clock: IdleClock, url: str, extra: float = 0.0) -> AsyncIterator[None]:
        """Run the block within what is left of `clock` (plus `extra` seconds), else raise
        Timeout. Never spans a `yield` to the consumer: the deadline would cancel its work."""
        remaining = clock.remaining() + extra
        if remaining <= 0:
            raise Timeout(url, clock.seconds, "idle")
        started = time.monotonic()
        try:
            async with asyncio.timeout(remaining):
                yield
        except TimeoutError as exc:
            raise Timeout(url, clock.seconds, "idle") from exc
        finally:
            clock.waited(max(0.0, time.monotonic() - started - extra))

    async def get_json(self, path: str, on_status: StatusMapper) -> Any:
        return await self.request_json("GET", path, None, on_status)

    async def request_json(self, method: str, path: str, body: Any, on_status: StatusMapper) -> Any:
        url = self.url(path)
        response: httpx.Response | None = None
        async with (
            self.translated(url, lambda: response is not None),
            self.within(self.idle_clock(), url, extra=self.connect_timeout),
            AsyncExitStack() as stack,
        ):
            response = await stack.enter_async_context(
                self.http.stream(method, url, content=json_body(body),
                                 headers=self._headers_for(body), timeout=self.timeout)
            )
            limit = MAX_ERROR_BODY if response.status_code >= 400 else MAX_BODY
            content, more = await _read_body(response, limit)
        if response.status_code >= 400:
            raise on_status(response.status_code, server_text(content))
        if more:
            raise BadResponse(url, f"an answer larger than {MAX_BODY >> 20} MiB", self.wrong_server_hint)
        try:
            return json.loads(content)
        except (ValueError, RecursionError) as exc:
            raise BadResponse(url, f"not JSON: {_excerpt(content)}", self.wrong_server_hint) from exc

    def _headers_for(self, body: Any) -> dict[str, str]:
        headers = dict(self.headers)
        if body is not None:
            headers["Content-Type"] = "application/json"
        return headers

    @property
    def wrong_server_hint(self) -> str:
        return f"Check that {self.base_url} is the right address for this backend."

    async def stream_lines(
        self, path: str, body: Any, on_status: StatusMapper, clock: IdleClock
    ) -> AsyncGenerator[str, None]:
        """POST `body` and yield the response's lines as they arrive, until `clock` runs out.
        Closing this generator (or cancelling the task iterating it) closes the HTTP response at
        once."""
        url = self.url(path)
        response: httpx.Response | None = None
        async with self.translated(url, lambda: response is not None), AsyncExitStack() as stack:
            async with self.within(clock, url, extra=self.connect_timeout):
                response = await stack.enter_async_context(
                    self.http.stream("POST", url, content=json_body(body),
                                     headers=self._headers_for(body), timeout=self.timeout)
                )
            if response.status_code >= 400:
                async with self.within(clock, url):
                    content, _more = await _read_body(response, MAX_ERROR_BODY)
                raise on_status(response.status_code, server_text(content))
            too_long = BadResponse(
                url, f"a line longer than {self.max_line:,} bytes", self.wrong_server_hint
            )
            lines = _lines(response.aiter_bytes(), self.max_line, too_long)
            async with aclosing(lines):
                while True:
                    async with self.within(clock, url):
                        line = await anext(lines, None)
                    if line is None:
                        return
                    yield line


def _excerpt(content: bytes) -> str:
    text = content[:MAX_ERROR_BODY].decode("utf-8", errors="replace")
    return _html_summary(text) if _looks_like_html(text) else repr(text[:200])


def _describe(exc: Exception) -> str:
    text = str(exc).strip().rstrip(".")
    return text or type(exc).__name__

