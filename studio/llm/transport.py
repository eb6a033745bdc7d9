"""What the HTTP clients share: timeouts, turning httpx failures into `LLMError`s, and streaming
a response line by line so that closing the stream closes the connection."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from studio.llm.errors import (
    BadResponse,
    HTTPError,
    LLMError,
    ServerNotRunning,
    StreamInterrupted,
    Timeout,
)

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 300.0

StatusMapper = Callable[[int, str], LLMError]


def server_text(body: bytes) -> str:
    """The human part of an error body: the message inside common JSON shapes, else the text."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
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


class HTTPTransport:
    """One server's HTTP access for a client: the base URL, the shared `httpx.AsyncClient` (closed
    only if this object created it), the timeouts and the advice for a server that is not running."""

    def __init__(
        self,
        base_url: str,
        http: httpx.AsyncClient | None,
        *,
        start_hint: str,
        connect_timeout: float = CONNECT_TIMEOUT,
        read_timeout: float = READ_TIMEOUT,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.start_hint = start_hint
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.headers = dict(headers or {})
        self._owns_http = http is None
        self.http = http if http is not None else httpx.AsyncClient()
        self.timeout = httpx.Timeout(
            connect=connect_timeout, read=read_timeout, write=connect_timeout, pool=connect_timeout
        )

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()

    def url(self, path: str) -> str:
        return self.base_url + path

    @asynccontextmanager
    async def translated(self, url: str) -> AsyncIterator[None]:
        """Turn httpx's exceptions raised inside the block into `LLMError`s about `url`."""
        try:
            yield
        except httpx.ConnectTimeout as exc:
            raise Timeout(url, self.connect_timeout, "connect") from exc
        except httpx.ConnectError as exc:
            raise ServerNotRunning(self.base_url, self.start_hint) from exc
        except (httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout) as exc:
            raise Timeout(url, self.read_timeout, "read") from exc
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise StreamInterrupted(url, _describe(exc)) from exc
        except httpx.HTTPError as exc:
            raise StreamInterrupted(url, _describe(exc)) from exc

    async def get_json(self, path: str, on_status: StatusMapper) -> Any:
        return await self.request_json("GET", path, None, on_status)

    async def request_json(self, method: str, path: str, body: Any, on_status: StatusMapper) -> Any:
        url = self.url(path)
        async with self.translated(url):
            response = await self.http.request(
                method, url, json=body, headers=self.headers, timeout=self.timeout
            )
        if response.status_code >= 400:
            raise on_status(response.status_code, server_text(response.content))
        try:
            return response.json()
        except ValueError as exc:
            raise BadResponse(url, f"not JSON: {response.text[:200]!r}", self.wrong_server_hint) from exc

    @property
    def wrong_server_hint(self) -> str:
        return f"Check that {self.base_url} is the right address for this backend."

    async def stream_lines(self, path: str, body: Any, on_status: StatusMapper) -> AsyncGenerator[str, None]:
        """POST `body` and yield the response's lines as they arrive. Closing this generator (or
        cancelling the task iterating it) closes the HTTP response at once."""
        url = self.url(path)
        async with (
            self.translated(url),
            self.http.stream("POST", url, json=body, headers=self.headers, timeout=self.timeout) as response,
        ):
            if response.status_code >= 400:
                raise on_status(response.status_code, server_text(await response.aread()))
            async for line in response.aiter_lines():
                yield line


def _describe(exc: Exception) -> str:
    text = str(exc).strip()
    return text or type(exc).__name__


def default_status_error(url: str) -> StatusMapper:
    def mapper(status: int, text: str) -> LLMError:
        return HTTPError(url, status, text)

    return mapper
