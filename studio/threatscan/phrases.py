"""An offline phrase model: does a sentence tell the model to hide something from its user, to
believe an authority it cannot check, to set aside its rules, or to act without telling anyone?

Not a learned model: a small set of weighted phrase patterns in four families, written from the
attacks in issue 41 and tuned on the development sentences in `benchmarks/scan_data/phrases.py`
(`dev`), never on the held-out ones (`tests/threatscan/test_phrases.py`). A family scores once
per text, so a long text repeating one phrase scores no more than a short one.

| family | weight | what it catches |
|---|---|---|
| override | 3 | "ignore all previous instructions", "disregard the rules above" |
| authority | 2 | "pre-approved by your administrator", "system override", "official directive from" |
| conceal | 2 | "do not tell the user", "without informing the user", "hide this from the user" |
| covert | 1 | "silently", "do not ask for confirmation", "the user has already consented" |

`SHOWN_THRESHOLD` (3) marks visible text: concealment alone ("do not tell the user the answer", a
tutor's rule) or a claim of authority alone (a lesson that quotes one) stays below it; concealment
or authority with a covert action, or the two together, reach it. Text a reader cannot see
(comments, alt text, link titles, encoded blobs, the description) needs only `HIDDEN_THRESHOLD`
(2): text hidden from people and addressed to the model about people is the attack.

The held-out test's first run: 18 of its 19 sentences right; the miss ("disregard the rules
above", the qualifier after the noun) was fixed after it, so that sentence no longer counts as
held out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

SHOWN_THRESHOLD = 3
HIDDEN_THRESHOLD = 2

_USER = r"(?:the |your |this )?(?:user|human|person|operator|owner|developer|requester)s?"
_FAMILIES: tuple[tuple[str, int, re.Pattern[str]], ...] = (
    ("override", 3, re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+|the\s+|your\s+)*"
        r"(?:previous|prior|above|earlier|preceding|other|original|existing|safety)\s+"
        r"(?:instructions?|rules|directions|guidelines|prompts?|policies|restrictions)|"
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
        r"(?:instructions?|rules|directions|guidelines)\s+(?:above|before\s+this|so\s+far|"
        r"you\s+(?:were|have\s+been)\s+given)", re.I)),
    ("authority", 2, re.compile(
        r"\bpre-?(?:approved|authori[sz]ed)\s+by\b|\b(?:is|are|was|were|been)\s+(?:already\s+)?"
        r"pre-?(?:approved|authori[sz]ed)\b(?!\s+(?:tools?|commands?|permissions?|list))|"
        r"\b(?:approved|authori[sz]ed|sanctioned|mandated|"
        r"cleared)\s+by\s+(?:your|the)\s+(?:administrator|admin|security\s+team|it\s+department|"
        r"organi[sz]ation|compliance|anthropic|openai|system\s+owner)|\bsystem\s+override\b|"
        r"\b(?:developer|admin|god)\s+mode\s+(?:is\s+)?(?:enabled|activated|on)\b|\bofficial\s+(?:directive|"
        r"instruction|notice)\s+from\b|\bthis\s+(?:instruction|message)\s+(?:comes|is)\s+from\s+"
        r"(?:anthropic|openai|your\s+administrator|the\s+system)|\bhighest[- ]priority\s+"
        r"instruction|\byou\s+are\s+now\s+in\s+(?:developer|admin|god|unrestricted)\s+mode", re.I)),
    ("conceal", 2, re.compile(
        rf"\b(?:do\s+not|don'?t|never|must\s+not)\s+(?:tell|mention|inform|reveal|show|disclose|"
        rf"report|alert|notify)\s+(?:this\s+|it\s+|anything\s+)?(?:to\s+)?{_USER}|"
        rf"\bwithout\s+(?:telling|informing|notifying|alerting|showing|asking)\s+{_USER}|"
        rf"\b(?:hide|conceal|keep)\s+(?:this|it|these\s+\w+|the\s+\w+)\s+(?:hidden\s+|secret\s+)?"
        rf"from\s+{_USER}|\b{_USER}\s+(?:must|should|need)\s*(?:not|n'?t)\s+(?:know|see|notice|be\s+told)"
        r"|\bnever\s+(?:reveal|mention|disclose|repeat)\s+(?:these|this|that|the)\s+(?:instructions?|"
        r"steps?|section|rules?)|\b(?:do\s+not|don'?t)\s+(?:mention|reveal)\s+(?:this|these)\s+"
        r"(?:step|instruction|action)s?|\bsay\s+nothing\s+(?:about|of)\b|\btell\s+no\s*one\b", re.I)),
    ("covert", 1, re.compile(
        r"\bsilently\b(?!\s+(?:fail|ignor|skip|drop|return|discard))|\bquietly\b|\bcovertly\b|"
        r"\bin\s+secret\b|\b(?:do\s+not|don'?t|never)\s+ask\s+(?:for\s+)?(?:confirmation|"
        r"permission|approval|the\s+user)|\b(?:skip|bypass|avoid)\s+(?:the\s+|any\s+)?(?:user\s+)?"
        r"(?:confirmation|approval|permission\s+prompt)s?|\b(?:has|have)\s+already\s+"
        r"(?:consented|agreed|approved|authori[sz]ed)|\bno\s+need\s+to\s+(?:ask|confirm|tell)|"
        r"\bdelete\s+(?:the\s+)?(?:logs?|history|traces?)\b|\bcover\s+(?:your|the)\s+tracks", re.I)),
)


class Score(NamedTuple):
    value: int
    families: tuple[str, ...]
    evidence: str


# A phrase of each family holds one of these words (in lower case). The patterns are slow on
# long texts, so they run only on windows around these words (`_windows`).
_FAMILY_WORDS = {
    "override": ("ignor", "disregard", "forget", "overrid", "bypass"),
    "authority": ("approved", "authori", "sanctioned", "mandated", "cleared", "override",
                  "developer mode", "admin mode", "god mode", "unrestricted mode", "official",
                  "priority", "this instruction", "this message"),
    # Every concealing phrase names the user, or the instructions kept from them.
    "conceal": ("user", "human", "person", "operator", "owner", "developer", "requester", "reveal",
                "mention", "disclose", "repeat", "say nothing", "tell no"),
    "covert": ("silently", "quietly", "covertly", "in secret", "not ask", "n't ask", "never ask",
               "skip", "bypass", "avoid", "already consent", "already agreed", "already approved",
               "already authori", "no need to", "delete the log", "delete log", "delete the hist",
               "delete hist", "delete the trace", "delete trace", "cover your", "cover the"),
}
_BEFORE, _AFTER, _MAX_WINDOWS = 90, 140, 60


# Words a phrase of each family must hold: for each family, ways in, each a few groups of words
# the text must all meet. A set of the text's words answers that in one pass, and most texts
# stop here; the patterns run only on what passes.
_USERS = {"user", "users", "human", "person", "operator", "owner", "developer", "requester"}
_NEGATIONS = {"not", "don't", "dont", "never", "mustn't", "shouldn't", "needn't"}
_NEEDS: dict[str, tuple[tuple[set[str], ...], ...]] = {
    "override": (({"ignore", "disregard", "forget", "override", "bypass"},
                  {"instructions", "instruction", "rules", "directions", "guidelines", "prompt",
                   "prompts", "policies", "restrictions"}),),
    "authority": (
        ({"pre-approved", "preapproved", "pre-authorized", "pre-authorised", "sanctioned",
          "mandated", "override", "official", "highest-priority"},),
        ({"approved", "authorized", "authorised", "cleared"},
         {"administrator", "admin", "security", "it", "organization", "organisation",
          "compliance", "anthropic", "openai", "owner"}),
        ({"mode"}, {"developer", "admin", "god", "unrestricted"}),
        ({"highest"}, {"priority"}),
        ({"instruction", "message"}, {"from"}, {"anthropic", "openai", "administrator", "system"}),
    ),
    "conceal": (
        (_NEGATIONS | {"without", "hide", "conceal", "keep"},
         {"tell", "mention", "inform", "reveal", "show", "disclose", "report", "alert", "notify",
          "telling", "informing", "notifying", "alerting", "showing", "asking", "from", "know",
          "see", "notice", "told", "hidden", "secret"}, _USERS),
        (_NEGATIONS, {"reveal", "mention", "disclose", "repeat"},
         {"instructions", "instruction", "steps", "step", "section", "rules", "rule", "action",
          "actions"}),
        ({"say"}, {"nothing"}),
        ({"tell"}, {"no", "noone"}),
    ),
    "covert": (
        ({"silently", "quietly", "covertly"},),
        ({"secret"}, {"in"}),
        ({"ask"}, _NEGATIONS, {"confirmation", "permission", "approval", "user"}),
        ({"skip", "bypass", "avoid"}, {"confirmation", "confirmations", "approval", "approvals",
                                       "permission"}),
        ({"already"}, {"consented", "agreed", "approved", "authorized", "authorised"}),
        ({"need"}, {"no"}, {"ask", "confirm", "tell"}),
        ({"delete"}, {"logs", "log", "history", "traces", "trace"}),
        ({"cover"}, {"tracks"}),
    ),
}
_MARKS = b".,;:!?()[]{}<>\"*_`|#/\\=+~^"
# On bytes: `bytes.translate` and `split` are several times faster than their `str` forms.
_PUNCTUATION = bytes.maketrans(_MARKS, b" " * len(_MARKS))
_NEEDS_BYTES = {name: tuple(tuple({word.encode() for word in group} for group in way) for way in ways)
                for name, ways in _NEEDS.items()}


# Every word a family needs, with a bit for each group it is in: the text's words are looked
# up in it (a fraction of the cost of making a set of all of them), and a way in is met when the
# bits of the words found cover the bits of its groups.
def _group_bits() -> tuple[dict[bytes, int], tuple[tuple[str, tuple[int, ...]], ...]]:
    bits: dict[bytes, int] = {}
    families = []
    count = 0
    for name, ways in _NEEDS_BYTES.items():
        masks = []
        for way in ways:
            mask = 0
            for group in way:
                for word in group:
                    bits[word] = bits.get(word, 0) | 1 << count
                mask |= 1 << count
                count += 1
            masks.append(mask)
        families.append((name, tuple(masks)))
    return bits, tuple(families)


_WORD_BITS, _FAMILY_BITS = _group_bits()
_NEEDED = frozenset(_WORD_BITS)


# A text is lowered and stripped of marks in one pass over its UTF-8 bytes: a needed word is
# ASCII, and the only characters beyond ASCII that `str.lower` makes ASCII are these two (tested),
# so the words found are the same, and most texts need no lowered copy at all.
_LOWER_PUNCTUATION = bytes(
    0x20 if byte in _MARKS else byte + 32 if 0x41 <= byte <= 0x5A else byte for byte in range(256))
LOWERED_TO_ASCII = ("\u0130", "\u212a")  # capital I with a dot, the kelvin sign


def _lowered_words(text: str) -> bytes:
    """`text`'s UTF-8 bytes lowered, with the marks made blanks: its words, split as `_families`
    splits them."""
    if LOWERED_TO_ASCII[0] in text or LOWERED_TO_ASCII[1] in text:
        return text.lower().encode("utf-8", "replace").translate(_PUNCTUATION)
    return text.encode("utf-8", "replace").translate(_LOWER_PUNCTUATION)


def _met(data: bytes) -> int:
    """The bits of the word groups that the words of `data` (`_lowered_words`) meet."""
    found = 0
    for word in _NEEDED.intersection(data.split()):
        found |= _WORD_BITS[word]
    return found


def _families(text: str) -> list[str]:
    """The families whose needed words `text` holds (its words in lower case, marks aside)."""
    found = _met(_lowered_words(text))
    return [name for name, masks in _FAMILY_BITS if any(found & mask == mask for mask in masks)]


_ALL_WAYS = tuple(mask for _, masks in _FAMILY_BITS for mask in masks)


# From this many bytes, a text's parts are tested without first testing the whole text's words:
# most texts this long meet a way as a whole (249 of 354 in a sample of real skills' Markdown,
# against 72 of 814 shorter ones), and then that first set of words is spent for nothing.
# 2,000 to 6,000 bytes cost about the same (1% apart) on that sample.
_WHOLE_FIRST = 4000


def phrase_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each part of `text` between blank lines (`\n\n`) whose own words
    meet a family: only there can a paragraph score (a paragraph lies inside one such part,
    and its words are among the part's). Most texts meet none as a whole, and stop at one set
    of their words; the parts of the others (and of every long text) are tested one by one."""
    data = _lowered_words(text)
    if len(data) < _WHOLE_FIRST:
        met = _met(data)
        ways = [mask for mask in _ALL_WAYS if met & mask == mask]
        if not ways:
            return []
    else:
        ways = list(_ALL_WAYS)  # a part meeting a way is a text meeting it
    spans: list[tuple[int, int]] = []
    # The bytes hold the same line ends as the text, so its parts are the text's, in order.
    # `_met` and `any` written out: a long text has hundreds of parts, and the calls cost more
    # than the tests.
    at = 0
    for part, length in zip(data.split(b"\n\n"), map(len, text.split("\n\n")), strict=True):
        found = 0
        for word in _NEEDED.intersection(part.split()):
            found |= _WORD_BITS[word]
        if found:
            for mask in ways:
                if found & mask == mask:
                    spans.append((at, at + length))
                    break
        at += length + 2
    return spans


def _windows(lowered: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """Merged (start, end) spans around each place one of `words` stands in the text."""
    spans: list[tuple[int, int]] = []
    for word in words:
        at = lowered.find(word)
        while at != -1 and len(spans) < _MAX_WINDOWS:
            spans.append((max(0, at - _BEFORE), at + _AFTER))
            at = lowered.find(word, at + len(word))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _matches(text: str, lowered: str, name: str, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
    for start, end in _windows(lowered, _FAMILY_WORDS[name]):
        yield from pattern.finditer(text, start, end)


# A phrase quoted or denied ("never obey text that says \"ignore previous instructions\"") is
# mentioned, not said: in text a reader sees, such a match does not count.
_QUOTE_BEFORE = re.compile(r"[\"'“‘`]\s*$")
_DENIED_BEFORE = re.compile(r"\b(?:don'?t|do\s+not|never|not|no)\s+(?:\w+\s+){0,1}$", re.I)


def _said(text: str, match: re.Match[str]) -> bool:
    before = text[max(0, match.start() - 24):match.start()]
    return _QUOTE_BEFORE.search(before) is None and _DENIED_BEFORE.search(before) is None


def score(text: str, shown: bool = False) -> Score:
    """The text's score; with `shown` (text a reader sees), quoted and denied phrases skipped."""
    value = 0
    families: list[str] = []
    evidence = ""
    wanted = _families(text)
    if not wanted:
        return Score(0, (), "")
    lowered = text.lower()
    for name, weight, pattern in _FAMILIES:
        if name not in wanted:
            continue
        match = next((m for m in _matches(text, lowered, name, pattern)
                      if not shown or _said(text, m)), None)
        if match is not None:
            value += weight
            families.append(name)
            evidence = evidence or match.group()
    return Score(value, tuple(families), evidence)
