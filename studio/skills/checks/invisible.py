"""Invisible characters that belong to the text they sit in (SK501 leaves them alone).

Each is accepted only in the one context where writing needs it; anywhere else, and anywhere
in a script (code a reviewer reads in an editor, where any of them can hide a change), it stays
a finding:
- ZWNJ (U+200C) between two Arabic-script characters: Persian and Urdu write it inside words
  (`می‌خواهم`), never inside a URL;
- ZWJ (U+200D) between two emoji, which it joins into one (a family, a rainbow flag);
- bidirectional isolates (U+2066-U+2068) each closed by a PDI (U+2069) on the same line, as the
  W3C advises for text of the other direction; an unclosed opener or a lone PDI is a finding;
- tag characters of an emoji subdivision flag: U+1F3F4, a region and subdivision code in tag
  lowercase letters and digits (2 letters and 1-4 more, as `gbsct`), then CANCEL TAG (U+E007F).
  Any other run of tags can spell text a model reads and a person does not see.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_ZWNJ, _ZWJ, _PDI = "\u200c", "\u200d", "\u2069"
_ISOLATES = "\u2066\u2067\u2068"
# Arabic, Arabic Supplement, Arabic Extended-A/B and the presentation forms (without U+FEFF).
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufefc]")
_EMOJI = re.compile("[\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
_FLAG = re.compile("\U0001f3f4[\U000e0061-\U000e007a]{2}"
                   "[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,4}\U000e007f")


def _between(text: str, offset: int, pattern: re.Pattern[str]) -> bool:
    return (0 < offset < len(text) - 1 and pattern.match(text, offset - 1) is not None
            and pattern.match(text, offset + 1) is not None)


def _in_url(text: str, offset: int) -> bool:
    start = max(text.rfind(" ", 0, offset), text.rfind("\n", 0, offset)) + 1
    end = min((at for at in (text.find(" ", offset), text.find("\n", offset)) if at != -1),
              default=len(text))
    word = text[start:end]
    return "://" in word or "www." in word


def _after_emoji(text: str, offset: int) -> bool:
    # A variation selector (U+FE0F) may sit between the emoji and the joiner; a skin tone is
    # itself in the emoji range.
    start = offset - 1 if offset > 0 and text[offset - 1] == "\ufe0f" else offset
    return start > 0 and _EMOJI.match(text, start - 1) is not None


def _balanced(text: str, offsets: list[int]) -> set[int]:
    """The isolates and PDIs among `offsets` that pair up, line by line."""
    paired: set[int] = set()
    opened: list[int] = []
    line = -1
    for offset in offsets:
        start = text.rfind("\n", 0, offset)
        if start != line:
            line, opened = start, []
        if text[offset] in _ISOLATES:
            opened.append(offset)
        elif opened:
            paired.update((opened.pop(), offset))
    return paired


def accepted(text: str, offsets: Iterable[int]) -> set[int]:
    """Which of the invisible characters at `offsets` in a text (not a script) belong to it."""
    ordered = sorted(offsets)
    ok = _balanced(text, [at for at in ordered if text[at] in _ISOLATES or text[at] == _PDI])
    if "\U0001f3f4" in text:
        for match in _FLAG.finditer(text):
            ok.update(range(match.start() + 1, match.end()))
    for at in ordered:
        char = text[at]
        joins = (char == _ZWNJ and _between(text, at, _ARABIC)) or (
            char == _ZWJ and _after_emoji(text, at) and _EMOJI.match(text, at + 1) is not None)
        if joins and not _in_url(text, at):
            ok.add(at)
    return ok
