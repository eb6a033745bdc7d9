"""Text a model, a tool or a skill controls, made safe to show: what would act on a terminal or
hide from a reader becomes a visible marker, and everything else is left exactly as it was.

A terminal obeys escape sequences (OSC 52 writes the clipboard, OSC 0 the window's title, CSI 2J
clears the screen), a carriage return or a backspace overwrites what was shown, and bidi controls
and zero-width characters make text read differently from what it holds (`\\e[2K\\r` or U+202E in
a command shows another command). None of these is needed to read prose, so each is replaced,
character by character, with a marker that says what it was:

- C0 and C1 controls (Unicode category Cc) but the newline and the tab: `\\e` (ESC), `\\a`,
  `\\b`, `\\r`, `\\x00`, `\\x9b`, ...; an escape sequence so reads `\\e]52;c;...\\a`, and since
  its ESC is replaced, no part of it can act, whatever chunks it arrives in;
- format characters (Cf: bidi embeddings, overrides, isolates and marks, zero-width characters,
  the BOM, tags) and the line and paragraph separators: `<U+202E>`.

`shown` is for what must be seen exactly (a command, a path, a skill's name): every such
character is marked. `shown_prose` is for what is read (a model's answer, a tool's output): a
CR before a newline stays (Windows line ends), and so do the joiners that belong to the writing
itself, a zero-width joiner or non-joiner between two visible characters (emoji sequences,
Persian and Indic words) and the tags of a subdivision flag (🏴 + tags + cancel tag).

Text with nothing to mark (most of it) is returned as it is after one pass of `str.isprintable`,
which is C and marks every Cc, Cf, Zl and Zp character unprintable; the rest goes through one
precompiled regular expression.
"""

from __future__ import annotations

import re

# Cc but \t and \n, then Cf, Zl and Zp (a test checks this against `unicodedata` for every code
# point; the ranges include the format characters of Unicode versions newer than this Python's).
_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # but \t, \n and \r
_FORMATS = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
_MARKED = _CONTROLS + "\r" + _FORMATS
_JOINERS = "\u200c\u200d"
_FLAG = "\U0001f3f4"
_TAGS = "\U000e0020-\U000e007e"
_CANCEL_TAG = "\U000e007f"

_NAMED = {"\x1b": "\\e", "\x07": "\\a", "\x08": "\\b", "\r": "\\r", "\x0b": "\\v", "\x0c": "\\f"}

_EXACT = re.compile(f"[{_MARKED}]")
# In prose a CR before a LF is a line end, left out of the match rather than judged one by one.
_PROSE = re.compile(f"\r(?!\n)|[{_CONTROLS}{_FORMATS}]")
_FLAG_SEQUENCE = re.compile(f"{_FLAG}[{_TAGS}]+{_CANCEL_TAG}")
# A subdivision flag is a handful of tags; a longer run is not a flag.
_LONGEST_FLAG = 32
# What the end of a streamed piece may hold whose meaning depends on what comes next.
_UNDECIDED_TAIL = re.compile(f"(?:\r|[{_JOINERS}]|{_FLAG}[{_TAGS}]*)\\Z")


class _Markers(dict[str, str]):
    """Each marked character's marker, made the first time it is met."""

    def __missing__(self, char: str) -> str:
        self[char] = made = marker(char)
        return made


_MARKERS = _Markers()


def marker(char: str) -> str:
    """The visible stand-in for one marked character."""
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0xA0:
        return f"\\x{code:02x}"
    return f"<U+{code:04X}>"


def _plain(text: str) -> bool:
    """True when `text` holds nothing to mark; False may still be nothing (a no-break space is
    not printable either), and the expression decides."""
    return text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable()


def _mark(match: re.Match[str]) -> str:
    return _MARKERS[match.group()]


def _visible(char: str) -> bool:
    return bool(char) and not char.isspace() and _EXACT.match(char) is None


def _in_flag(text: str, index: int) -> bool:
    """Whether the tag at `index` belongs to a subdivision flag: 🏴, tags, a cancel tag."""
    start = index
    while start > 0 and index - start < _LONGEST_FLAG and "\U000e0020" <= text[start - 1] <= "\U000e007e":
        start -= 1
    if start == 0 or text[start - 1] != _FLAG:
        return False
    flag = _FLAG_SEQUENCE.match(text, start - 1)
    return flag is not None and flag.end() > index


def _mark_prose(match: re.Match[str]) -> str:
    char = match.group()
    if char in _JOINERS:
        text, index = match.string, match.start()
        if index > 0 and _visible(text[index - 1]) and _visible(text[index + 1:index + 2]):
            return char
    elif "\U000e0020" <= char <= "\U000e007f" and _in_flag(match.string, match.start()):
        return char
    return _MARKERS[char]


def shown(text: str) -> str:
    """`text` with every control, format, bidi and zero-width character as a visible marker
    (newlines and tabs stay): for commands, paths, names, anything that must be seen exactly."""
    if _plain(text):
        return text
    return _EXACT.sub(_mark, text)


def shown_line(text: str) -> str:
    """`text` as `shown` makes it, on one line: a newline is marked too (`\\n`), so a value
    from a file (a file's name, a quoted line) cannot start a line of its own in a report."""
    return shown(text).replace("\n", "\\n")


def shown_prose(text: str) -> str:
    """`text` as `shown` makes it, but keeping what belongs to the writing: CR LF line ends,
    joiners between visible characters and subdivision flags."""
    if _plain(text):
        return text
    return _PROSE.sub(_mark_prose, text)


def _mark_prose_html(match: re.Match[str]) -> str:
    shown = _mark_prose(match)
    return shown.replace("<", "&lt;").replace(">", "&gt;")


def shown_in_html(markup: str) -> str:
    """HTML (as a Markdown renderer writes it) with each marked character of its text replaced as
    `shown_prose` would, the marker itself escaped (`&lt;U+202E&gt;`): a bidi override in a
    model's answer shows, and no marker is read as a tag."""
    if _plain(markup):
        return markup
    return _PROSE.sub(_mark_prose_html, markup)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def shown_json(text: str) -> str:
    """JSON text (as `json.dumps(..., ensure_ascii=False)` writes it) with each marked character
    written as its `\\u` escape: a terminal shows it, `json.loads` gives back the same strings."""
    if _plain(text):
        return text
    return _EXACT.sub(_json_escape, text)


def has_marked(text: str) -> bool:
    """Whether `shown` would change `text`."""
    return not _plain(text) and _EXACT.search(text) is not None


class ProseStream:
    """`shown_prose` for text that arrives in pieces (a model's streamed answer): what a piece
    ends with and the next piece may change (a CR before a LF, a joiner, a flag's tags) is held
    back until that piece comes, or `end` says none will.

    The first character of a piece is judged with the last one shown before it, so a joiner
    split from its left neighbour is kept exactly as it would be in one piece.
    """

    def __init__(self) -> None:
        self._held = ""
        self._before = ""

    def feed(self, piece: str) -> str:
        text = self._held + piece
        start = max(0, len(text) - _LONGEST_FLAG - 1)
        tail = _UNDECIDED_TAIL.search(text, start)
        cut = tail.start() if tail is not None else len(text)
        self._held = text[cut:]
        return self._show(text[:cut])

    def end(self) -> str:
        """What is still held, shown as the end of the text."""
        text, self._held = self._held, ""
        return self._show(text)

    def _show(self, text: str) -> str:
        if not text:
            return ""
        before, self._before = self._before, text[-1]
        if _plain(text):
            return text
        joined = before + text
        parts: list[str] = []
        last = len(before)
        for match in _PROSE.finditer(joined, len(before)):
            parts.append(joined[last:match.start()])
            parts.append(_mark_prose(match))
            last = match.end()
        parts.append(joined[last:])
        return "".join(parts)
