"""Making text that holds file names safe to print: one line per finding, valid UTF-8 always.

A file name on Linux is bytes; Python reads the bytes that are not UTF-8 as lone surrogates
(U+DC80 to U+DCFF, its `surrogateescape` scheme), which cannot be written as UTF-8. A name can
also hold a newline or another control character, which would split a finding over two lines.
"""

from __future__ import annotations

import io
import re
from typing import TextIO

from studio.textshow import shown_prose

_SURROGATE = re.compile("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", '"': '\\"'}


def _escape(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # the byte that was not UTF-8
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown_path(path: str) -> str:
    """`path` as it is when every character prints; otherwise in double quotes, with `\\n`,
    `\\t`, `\\xNN` (a control character, or a byte that is not UTF-8) and `\\uNNNN` escapes, so
    the finding it heads stays on one line."""
    if path.isprintable():
        return path
    return '"' + "".join(c if c.isprintable() and c not in _NAMED else _escape(c) for c in path) + '"'


def one_line(text: str) -> str:
    """`text` with every character that does not print (a newline, a byte that is not UTF-8)
    written as an escape, unquoted."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def utf8_json(text: str) -> str:
    """JSON text whose strings may hold lone surrogates, with each written as a `\\udcNN`
    escape instead: valid UTF-8, and `json.loads` then `os.fsencode` give back the name's
    original bytes."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text


def utf8_text(text: str) -> str:
    """Text with each lone surrogate written as the `\\xNN` escape of the byte it stands for."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda match: _escape(match.group()), text)
    return text


class ShownWriter(io.TextIOBase):
    """A text stream that shows what is written to it instead of letting it act: every control,
    escape, bidi and zero-width character becomes a visible marker (`studio.textshow`). For the
    commands whose messages quote what a source, an index or a lock file said (a skill's name, a
    git error line): one guard on the stream rather than one call at each message. An escape
    split over two writes cannot pass either: its ESC is marked wherever it falls."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self._out = out

    def write(self, text: str) -> int:
        self._out.write(shown_prose(text))
        return len(text)

    def flush(self) -> None:
        self._out.flush()

    def isatty(self) -> bool:
        return self._out.isatty()

    def fileno(self) -> int:
        return self._out.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._out, "encoding", "utf-8")
