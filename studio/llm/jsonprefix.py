"""Whether streamed text is still on its way to being one JSON object.

A forced or constrained call is read as it streams: once the text can no longer become valid JSON,
or the object is whole, reading on only burns tokens (a small model forced into a call can write
on for thousands of them), so the stream is stopped there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_LITERALS = ("true", "false", "null")
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?\Z")
_ESCAPES = frozenset('"\\/bfnrtu')

Status = Literal["partial", "complete", "invalid"]


@dataclass(frozen=True, slots=True)
class PrefixState:
    """`status`: "partial" (can still become an object), "complete" (an object ends at `end`;
    what follows is not part of it) or "invalid" (cannot become JSON; `end` is where it broke)."""

    status: Status
    end: int


def object_prefix(text: str) -> PrefixState:
    """How far `text` (leading whitespace allowed) is from being one JSON object."""
    stack: list[str] = []
    expect = "object"  # object, value, key, key_or_end, colon, comma_or_end, value_or_end
    in_string = escaped = is_key = False
    token = ""  # a number or literal being read
    index = 0
    while index < len(text):
        char = text[index]
        if in_string:
            if escaped:
                if char not in _ESCAPES:
                    return PrefixState("invalid", index)
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                expect = "colon" if is_key else "comma_or_end"
            elif char < " ":
                return PrefixState("invalid", index)
            index += 1
            continue
        if token:
            if char.isalpha() or char in _NUMBER_CHARS:
                token += char
                if not _token_prefix_ok(token):
                    return PrefixState("invalid", index)
                index += 1
                continue
            if token not in _LITERALS and not _NUMBER.match(token):
                return PrefixState("invalid", index)
            token, expect = "", "comma_or_end"
            continue
        if char.isspace():
            index += 1
            continue
        if expect == "object":
            if char != "{":
                return PrefixState("invalid", index)
            stack.append("{")
            expect = "key_or_end"
        elif expect in ("value", "value_or_end"):
            if char == "]" and expect == "value_or_end":
                stack.pop()
                expect = "comma_or_end"
                if not stack:
                    return PrefixState("complete", index + 1)
            elif char in "{[":
                stack.append(char)
                expect = "key_or_end" if char == "{" else "value_or_end"
            elif char == '"':
                in_string, is_key = True, False
            elif char.isalpha() or char in "-0123456789":
                token = char
                if not _token_prefix_ok(token):
                    return PrefixState("invalid", index)
            else:
                return PrefixState("invalid", index)
        elif expect in ("key", "key_or_end"):
            if char == '"':
                in_string, is_key = True, True
            elif char == "}" and expect == "key_or_end":
                stack.pop()
                expect = "comma_or_end"
                if not stack:
                    return PrefixState("complete", index + 1)
            else:
                return PrefixState("invalid", index)
        elif expect == "colon":
            if char != ":":
                return PrefixState("invalid", index)
            expect = "value"
        elif char == ",":
            expect = "key" if stack[-1] == "{" else "value"
        elif char in "}]" and {"}": "{", "]": "["}[char] == stack[-1]:
            stack.pop()
            if not stack:
                return PrefixState("complete", index + 1)
        else:
            return PrefixState("invalid", index)
        index += 1
    return PrefixState("partial", len(text))


def _token_prefix_ok(token: str) -> bool:
    if token[0].isalpha():
        return any(literal.startswith(token) for literal in _LITERALS)
    return all(char in _NUMBER_CHARS for char in token)
