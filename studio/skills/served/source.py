"""Where served skills come from: `mcp+http://HOST:PORT/PATH` (or `mcp+https://`), a server
reached over Streamable HTTP, and `mcp+stdio:COMMAND ARGS`, a server the studio starts and talks
to over its stdin and stdout.

A stdio command line is split with `shlex` (POSIX rules) and run without a shell, so a `;` or a
`$(...)` in it is an argument like any other. The studio never adds an option to it: it runs what
the user wrote, as the user, as any MCP client does with its configured servers."""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass
from urllib.parse import urlsplit

from studio.errors import StudioError

PREFIX = "mcp+"
_HTTP_SCHEMES = ("mcp+http://", "mcp+https://")
_STDIO = "mcp+stdio:"
# A command line is typed by a person: longer than this is not one.
MAX_SPEC = 4096


class ServedError(StudioError):
    """A served source that cannot be used: a bad `mcp+` address, a server that cannot be reached
    or answers outside the Skills extension, or a file that is not what its manifest says."""


def is_served(text: str) -> bool:
    """Whether a `--skills` value names an MCP server rather than a path."""
    return text.startswith(PREFIX)


@dataclass(frozen=True, slots=True)
class ServedSource:
    """One MCP server that serves skills.

    Attributes:
        spec: what the user wrote (`mcp+http://...` or `mcp+stdio:...`), the server's identity
            for consent and the cache.
        url: the Streamable HTTP address (without `mcp+`), or "" for a stdio server.
        argv: the stdio server's command and arguments, or () for an HTTP server.
    """

    spec: str
    url: str = ""
    argv: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """A short name for files about this server (the cache's zip, its record): the spec's
        hash, so no part of what the user wrote becomes a path."""
        return hashlib.sha256(self.spec.encode("utf-8", "surrogateescape")).hexdigest()[:32]

    @property
    def shown(self) -> str:
        """How messages name the server."""
        return self.spec


def parse_served(text: str) -> ServedSource:
    """The server a `mcp+...` value names. Raises ServedError saying what is wrong."""
    spec = text.strip()
    if len(spec) > MAX_SPEC:
        raise ServedError(f"the MCP server address is over {MAX_SPEC} characters; give a shorter one")
    if "\0" in spec or "\n" in spec or "\r" in spec:
        raise ServedError("an MCP server address cannot hold a NUL or a line break")
    lowered = spec.lower()
    if lowered.startswith(_HTTP_SCHEMES):
        url = spec[len(PREFIX):]
        parts = urlsplit(url)
        if not parts.hostname:
            raise ServedError(f"{spec}: no host; write mcp+http://HOST:PORT/PATH")
        try:
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number
        except ValueError:
            raise ServedError(f"{spec}: the port is not a number from 0 to 65535") from None
        if parts.username or parts.password:
            raise ServedError(f"{spec}: a password in the address would be stored with the "
                              "consent and the cache; serve without one in the URL")
        return ServedSource(spec, url=url)
    if lowered.startswith(_STDIO):
        try:
            argv = tuple(shlex.split(spec[len(_STDIO):]))
        except ValueError as exc:
            raise ServedError(f"{spec}: cannot split the command line ({exc}); check its "
                              "quotes") from None
        if not argv:
            raise ServedError(f"{spec}: no command; write 'mcp+stdio:COMMAND ARGS'")
        return ServedSource(spec, argv=argv)
    raise ServedError(f"{spec}: not an MCP server address; write mcp+http://HOST:PORT/PATH, "
                      "mcp+https://... or 'mcp+stdio:COMMAND ARGS'")
