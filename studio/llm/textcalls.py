"""Recognise tool calls a model wrote as text instead of as native calls.

Small local models often answer with `{"name": "activate_skill", "arguments": {"name": "pdf"}}`
in the text, bare, in a ```json fence, or inside `<tool_call>...</tool_call>` tags. Only objects that
name a tool in the known set count, so ordinary JSON in an answer stays text. JSON with the slips
`jsonrepair` mends (single quotes, trailing commas, a last brace missing) counts too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from studio.llm.jsonrepair import repair_json
from studio.llm.types import ToolCall, new_call_id

_NAME_KEYS = ("name", "tool", "tool_name", "function", "function_name")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input", "tool_input", "params")
_WRAPPER_KEYS = ("tool_call", "tool_calls", "function_call", "calls")

_TAG = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_FENCE = re.compile(r"```[ \t]*(?:json|tool_call|tool|javascript)?[ \t]*\n(.*?)```", re.DOTALL)
_EMPTY_FENCE = re.compile(r"```[ \t]*(?:json|tool_call|tool|javascript)?\s*```")
_DECODER = json.JSONDecoder()
# Mending walks to the end of the text: a few tries, over a window, keep a long answer full of
# stray braces from costing quadratic time.
_MAX_MENDS = 8
_MEND_WINDOW = 65_536
_CALL_START = re.compile(r"\{\s*[\"']")


def _calls_from(value: Any, known: set[str]) -> list[ToolCall]:
    """The calls a decoded JSON value stands for; empty when it is not (only) calls."""
    if isinstance(value, list):
        calls = [call for item in value for call in _calls_from(item, known)]
        return calls if calls and len(calls) == len(value) else []
    if not isinstance(value, dict):
        return []
    for key in _WRAPPER_KEYS:
        if key in value and len(value) <= 2:
            inner = value[key]
            if isinstance(inner, dict | list):
                return _calls_from(inner, known)
    if value.get("type") == "function" and isinstance(value.get("function"), dict):
        return _calls_from(value["function"], known)
    for key in _NAME_KEYS:
        name = value.get(key)
        if isinstance(name, dict) and key == "function":
            return _calls_from(name, known)
        if isinstance(name, str) and name in known:
            raw = next((value[k] for k in _ARGUMENT_KEYS if k in value), None)
            call_id = value.get("id")
            return [ToolCall.parse(call_id if isinstance(call_id, str) else None, name, raw)]
    if len(value) == 1:
        ((name, raw),) = value.items()
        if name in known and isinstance(raw, dict):
            return [ToolCall(new_call_id(), name, raw)]
    return []


def _scan(text: str, start: int, end: int, known: set[str]) -> list[tuple[int, int, list[ToolCall]]]:
    """Bare JSON calls in text[start:end], as (start, end, calls)."""
    found: list[tuple[int, int, list[ToolCall]]] = []
    mends = 0
    i = text.find("{", start, end)
    while i != -1:
        try:
            value, stop = _DECODER.raw_decode(text, i)
        except (ValueError, RecursionError):
            mended = None
            if mends < _MAX_MENDS and _CALL_START.match(text, i):
                mends += 1
                mended = _mended(text, i, min(end, i + _MEND_WINDOW))
            if mended is None:
                i = text.find("{", i + 1, end)
                continue
            value, stop = mended
        if stop > end:
            break
        calls = _calls_from(value, known)
        if calls:
            found.append((i, stop, calls))
            i = text.find("{", stop, end)
        else:
            i = text.find("{", i + 1, end)
    return found


def _mended(text: str, start: int, end: int) -> tuple[Any, int] | None:
    """The value of the slightly broken JSON at text[start], and where it ends; None if unmendable."""
    repaired = repair_json(text, start, end)
    if repaired is None:
        return None
    try:
        return json.loads(repaired[0]), repaired[1]
    except (ValueError, RecursionError):
        return None


def _whole(content: str, known: set[str]) -> list[ToolCall]:
    try:
        value = json.loads(content)
    except (ValueError, RecursionError):
        mended = _mended(content, 0, len(content))
        if mended is None or content[mended[1]:].strip():
            return []
        value = mended[0]
    return _calls_from(value, known)


def _overlaps(start: int, end: int, spans: list[tuple[int, int, list[ToolCall]]]) -> bool:
    return any(start < s_end and s_start < end for s_start, s_end, _ in spans)


def extract_tool_calls(text: str, known: Iterable[str]) -> tuple[list[ToolCall], str]:
    """Return the tool calls written in `text` (in order) and the text left once they are taken out.

    With no known tools, or no call found, the text comes back unchanged.
    """
    names = set(known)
    if not names or "{" not in text:
        return [], text
    spans: list[tuple[int, int, list[ToolCall]]] = []
    for match in _TAG.finditer(text):
        calls = _whole(match.group(1).strip(), names) or [
            call for _, _, found in _scan(text, match.start(1), match.end(1), names) for call in found
        ]
        if calls:
            spans.append((match.start(), match.end(), calls))
    for match in _FENCE.finditer(text):
        if _overlaps(match.start(), match.end(), spans):
            continue
        calls = _whole(match.group(1).strip(), names)
        if calls:
            spans.append((match.start(), match.end(), calls))
    position = 0
    for start, end, _ in sorted(spans, key=lambda span: span[0]):
        spans.extend(_scan(text, position, start, names))
        position = end
    spans.extend(_scan(text, position, len(text), names))
    if not spans:
        return [], text
    spans.sort(key=lambda span: span[0])
    pieces: list[str] = []
    position = 0
    for start, end, _ in spans:
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    rest = _EMPTY_FENCE.sub("", "".join(pieces))
    rest = re.sub(r"\n{3,}", "\n\n", rest).strip()
    return [call for _, _, calls in spans for call in calls], rest
