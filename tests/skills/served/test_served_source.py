"""`mcp+` addresses: what each names, and the ones refused before anything starts."""

from __future__ import annotations

import pytest

from studio.skills.served import is_served
from studio.skills.served.source import ServedError, parse_served


def test_http_and_stdio_addresses() -> None:
    http = parse_served("mcp+http://127.0.0.1:8000/mcp")
    assert http.url == "http://127.0.0.1:8000/mcp" and http.argv == ()
    stdio = parse_served("mcp+stdio:npx -y 'my server' --flag=$(rm -rf ~);x")
    # Split as a shell would split words, never run by one: `$(...)` and `;` are plain text.
    assert stdio.argv == ("npx", "-y", "my server", "--flag=$(rm", "-rf", "~);x")
    assert stdio.url == "" and len(stdio.key) == 32 and stdio.key.isalnum()


def test_paths_are_not_servers() -> None:
    assert is_served("mcp+http://x/")
    assert not is_served("./mcp+http:/x") and not is_served("skills")


@pytest.mark.parametrize(("spec", "said"), [
    ("mcp+stdio:", "no command"),
    ("mcp+stdio:'unclosed", "quotes"),
    ("mcp+http:///mcp", "no host"),
    ("mcp+http://h:port/mcp", "port"),
    ("mcp+http://user:secret@h/mcp", "password"),
    ("mcp+ftp://h/", "not an MCP server address"),
    ("mcp+stdio:a\nb", "line break"),
    ("mcp+stdio:" + "a" * 5000, "characters"),
])
def test_bad_addresses_say_what_is_wrong(spec: str, said: str) -> None:
    with pytest.raises(ServedError, match=said):
        parse_served(spec)
