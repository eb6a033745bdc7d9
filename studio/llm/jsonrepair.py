"""Mend the slightly broken JSON small models write: single-quoted strings, Python's True, False
and None, trailing commas, and an object left unclosed at the end of the answer.

Only these slips are mended; anything else stays broken, so prose with braces in it is not turned
into data by accident.
"""

from __future__ import annotations

_CLOSERS = {"{": "}", "[": "]"}
_PYTHON_WORDS = {"True": "true", "False": "false", "None": "null"}


def _drop_trailing_comma(out: list[str]) -> None:
    index = len(out) - 1
    while index >= 0 and out[index].isspace():
        index -= 1
    if index >= 0 and out[index] == ",":
        del out[index]


def repair_json(text: str, start: int = 0, end: int | None = None) -> tuple[str, int] | None:
    """The JSON object or array that begins at `text[start]` (a `{` or `[`), mended, and the index
    just past it; None when `text[start]` opens nothing or the brackets do not match.

    Within `text[start:end]`: a value still open at `end` is closed there (with an open string
    ended), as when a model stops before the last brace."""
    stop = len(text) if end is None else end
    if start >= stop or text[start] not in _CLOSERS:
        return None
    out: list[str] = []
    expected: list[str] = []
    quote: str | None = None
    index = start
    while index < stop:
        char = text[index]
        if quote is not None:
            if char == "\\" and index + 1 < stop:
                following = text[index + 1]
                # \' is no JSON escape: in a single-quoted string it means a plain apostrophe.
                out.append("'" if following == "'" else char + following)
                index += 2
                continue
            if char == quote:
                out.append('"')
                quote = None
            elif char == '"':
                out.append('\\"')
            elif char == "\n":
                out.append("\\n")
            else:
                out.append(char)
        elif char in "\"'":
            quote = char
            out.append('"')
        elif char in _CLOSERS:
            expected.append(_CLOSERS[char])
            out.append(char)
        elif char in "}]":
            if not expected or expected[-1] != char:
                return None
            _drop_trailing_comma(out)
            expected.pop()
            out.append(char)
            if not expected:
                return "".join(out), index + 1
        elif char.isalpha():
            word_end = index
            while word_end < stop and (text[word_end].isalnum() or text[word_end] == "_"):
                word_end += 1
            word = text[index:word_end]
            out.append(_PYTHON_WORDS.get(word, word))
            index = word_end
            continue
        else:
            out.append(char)
        index += 1
    if quote is not None:
        out.append('"')
    while expected:
        _drop_trailing_comma(out)
        out.append(expected.pop())
    return "".join(out), stop
