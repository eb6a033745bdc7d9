"""A bearer token for the library served over HTTP: a port on 127.0.0.1 is open to every user of
the machine, so without one any of them reads every skill served. The token is random, shown to
the user who started the server (and written to a file only they can read), and every HTTP
request must carry it as `Authorization: Bearer TOKEN`; the comparison takes the same time
whatever the guess.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

_REFUSAL = json.dumps({
    "error": "unauthorized",
    "error_description": "send the token `studio mcp` printed at start (or the window showed) "
                         "as the header `Authorization: Bearer TOKEN`",
}).encode()


def new_token() -> str:
    return secrets.token_urlsafe(32)


class BearerGuard:
    """ASGI middleware that answers 401 to every HTTP request without `Authorization: Bearer
    TOKEN`, and passes the others (and the server's lifespan events) to the app."""

    def __init__(self, app: App, token: str) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan" and not self._carries_token(scope):
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer realm="skill-studio"'),
                (b"content-length", str(len(_REFUSAL)).encode()),
            ]})
            await send({"type": "http.response.body", "body": _REFUSAL})
            return
        await self._app(scope, receive, send)

    def _carries_token(self, scope: Scope) -> bool:
        given = b""
        for name, value in scope.get("headers", ()):
            if name.lower() == b"authorization":
                given = value
                break
        return hmac.compare_digest(given, self._expected)


def write_token(path: Path, token: str) -> None:
    """Write `token` to `path`, readable and writable by this user only (0600), all at once: a
    temp file made 0600 from the start, then renamed over the old one."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(token + "\n")
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def is_loopback(host: str) -> bool:
    """Whether every address `host` names is this machine's loopback (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(ipaddress.ip_address(entry[4][0]).is_loopback for entry in found)
