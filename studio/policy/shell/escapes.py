"""Backslash escapes, decoded once for both places bash has them: `$'...'` words (the lexer) and
the text `echo -e` and `printf` print (expansion). Also the one pattern for a shell variable name."""

from __future__ import annotations

import re

# A shell variable name, as bash reads it in `NAME=value`, `$NAME` and `${NAME}`.
NAME = r"[A-Za-z_][A-Za-z0-9_]*"

_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
}
# Only `$'...'` knows these three; echo and printf print them with their backslash.
_QUOTES = {"'": "'", '"': '"', "?": "?"}
# `$'\101'` takes one to three octal digits; `echo -e '\0101'` a zero, then up to three more.
_HEX = r"x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}"
_ANSI = re.compile(rf"\\({_HEX}|[0-7]{{1,3}}|c.|.)", re.DOTALL)
_ECHO = re.compile(rf"\\({_HEX}|0[0-7]{{0,3}}|[1-7][0-7]{{0,2}}|.)", re.DOTALL)


def decode_escapes(text: str, *, ansi: bool) -> str:
    """`text` with its escapes decoded: `ansi` for a `$'...'` body (which bash cuts at a NUL, as a
    C string), otherwise as `echo -e` and printf's format decode them."""

    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        if body in _SIMPLE:
            return _SIMPLE[body]
        if ansi and body in _QUOTES:
            return _QUOTES[body]
        if body[0] in "xuU" and len(body) > 1:
            return chr(min(int(body[1:], 16), 0x10FFFF))
        if body[0].isdigit():
            return chr(int(body, 8) & 0xFF)
        if ansi and body[0] == "c" and len(body) == 2:
            return chr(ord(body[1]) & 0x1F)
        return match.group(0)

    decoded = (_ANSI if ansi else _ECHO).sub(one, text)
    return decoded.split("\x00", 1)[0] if ansi else decoded
