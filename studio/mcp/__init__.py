"""The library over the Model Context Protocol (`studio mcp`, the window's Tools menu): what other
packages use of it."""

from studio.mcp.auth import is_loopback, new_token, write_token
from studio.mcp.library import Found, SearchResult, SkillLibrary, SkillNotFound
from studio.mcp.server import (
    LoopbackService,
    bind_address,
    build_server,
    http_url,
    resource_uri,
    serve_http,
    serve_stdio,
)

__all__ = [
    "Found",
    "LoopbackService",
    "SearchResult",
    "SkillLibrary",
    "SkillNotFound",
    "bind_address",
    "build_server",
    "http_url",
    "is_loopback",
    "new_token",
    "resource_uri",
    "serve_http",
    "serve_stdio",
    "write_token",
]
