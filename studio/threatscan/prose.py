"""Instructions that hide or lie, in SKILL.md (its description too) and every Markdown file:
text a person reading the rendered page does not see but the model reads (HTML comments, link
titles, image alt text, text pushed off screen by a long run of spaces, base64 inside prose),
and text that tells the model to conceal, to trust a claimed authority or to act unseen (the
phrase model, `phrases.py`). Code quoted in fenced blocks is handed to the code rules instead."""

from __future__ import annotations

import base64
import binascii
import bisect
import re
from collections.abc import Iterator

from studio.skills import codes
from studio.threatscan import phrases
from studio.threatscan.findings import Finding, excerpt
from studio.threatscan.registry import rule
from studio.threatscan.shellrules import shell_findings
from studio.threatscan.source import FENCE_KINDS, Source

HIDDEN_TEXT = codes.HIDDEN_TEXT
ENCODED_PROSE = codes.ENCODED_PROSE
DECEPTIVE = codes.DECEPTIVE

_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)
_TOOL_COMMENT = re.compile(
    r"\s*(?:toc|/toc|end ?toc|prettier-ignore[\w-]*|markdownlint[\w-]*|vale [\w.-]+|"
    r"cspell:[^\n]*|lint[\w-]*|omit in toc|more|truncate|#region[^\n]*|#endregion)\s*\Z", re.I)
_ALT = re.compile(r"!\[([^\]\n]{1,2000})\]\(")
_TITLE = re.compile(r"\]\(\s*<?[^\s)>]*>?\s+(\"[^\"\n]{1,2000}\"|'[^'\n]{1,2000}')\s*\)")
_REF_TITLE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*\S+\s+(\"[^\"\n]+\"|'[^'\n]+'|\([^)\n]+\))", re.M)
_WHITESPACE = re.compile(r"[ \t\u00a0\u3000]{120,}(?=\S)")
_BLOB = re.compile(r"[A-Za-z0-9+/]{48,}={0,2}(?![A-Za-z0-9+/=_-])")
_BLOB_NEIGHBOUR = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")
_SHELL_LIKE = re.compile(r"^\s*(?:\$\s+)?(?:sudo\s+)?(?:curl|wget|bash|sh|echo|rm|crontab|cat|"
                         r"base64|python3?|node|npm|pip3?|chmod|nc|dd)\b", re.M)
_DESCRIPTION = re.compile(r"^description:[ \t]*(.*(?:\n[ \t]+.*)*)", re.M)


def _blank(text: str) -> str:
    """`text` with every character but the line ends made a space: offsets and lines kept."""
    return "\n".join(map(" ".__mul__, map(len, text.split("\n"))))


_OPENING = re.compile(r"( {0,3})(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n")


def _opening(text: str, at: int, marks: list[int]) -> re.Match[str] | None:
    """The first fence opening a code block on a line starting at `at` or later. Only the
    places holding three backticks or tildes are tried: a pattern anchored at every line start
    of a long text costs more than the whole of the rest of this rule. `marks` holds the next
    place of each fence (-1: none left), kept between calls so the text is searched once."""
    while True:
        for index, fence in enumerate(("```", "~~~")):
            if marks[index] != -1 and marks[index] < at:
                marks[index] = text.find(fence, at)
        found = min(marks) if -1 not in marks else max(marks)
        if found == -1:
            return None
        start = text.rfind("\n", 0, found) + 1
        if start >= at and found - start <= 3 and text[start:found] == " " * (found - start):
            opening = _OPENING.match(text, start)
            if opening is not None:
                return opening
        end = text.find("\n", found)
        if end == -1:
            return None
        at = end + 1


def _closing(text: str, body: int, indent: str, fence: str) -> tuple[int, int]:
    """Where the block whose code starts at `body` ends (the start of its closing line) and
    where that line ends; the end of the text for a block never closed. A closing line is the
    fence (or a longer run), indented as the opening or not at all, then only blanks."""
    at = text.find(fence, body)
    while at != -1:
        start = text.rfind("\n", body, at) + 1 or body
        if at == start or text[start:at] == indent:
            end = text.find("\n", at)
            end = len(text) if end == -1 else end
            if not text[at + len(fence):end].rstrip(" \t").lstrip("`~"):
                return start, end
        at = text.find(fence, at + 1)
    return len(text), len(text)


def _fenced_blocks(text: str) -> Iterator[tuple[int, int, int, int, str]]:
    """Each fenced code block: (where its opening line starts, where its code starts, where it
    ends, where the block ends, its language). CommonMark's rules as far as the scanner
    needs them: an opening of three or more backticks or tildes indented by at most three
    spaces, closed by the same fence (or longer) or by the end of the text."""
    at = 0
    marks = [text.find("```"), text.find("~~~")]
    while True:
        opening = _opening(text, at, marks)
        if opening is None:
            return
        code_end, end = _closing(text, opening.end(), opening.group(1), opening.group(2))
        yield opening.start(), opening.end(), code_end, end, opening.group(3)
        at = end


_MASKED: dict[int, tuple[str, str, list[tuple[int, int, str, str]]]] = {}


def _masked(text: str) -> tuple[str, list[tuple[int, int, str, str]]]:
    """The text with fenced code blocks blanked out (offsets kept), and the blocks: (start of
    the code, end, fence language, code). The prose rule and `fenced_sources` both ask for the
    same text in turn: the last answer is kept."""
    kept = _MASKED.get(id(text))
    if kept is not None and kept[0] is text:
        return kept[1], kept[2]
    blocks: list[tuple[int, int, str, str]] = []
    if "```" not in text and "~~~" not in text:
        masked = text
    else:
        parts: list[str] = []
        last = 0
        for start, code_start, code_end, end, language in _fenced_blocks(text):
            blocks.append((code_start, code_end, language.lower(), text[code_start:code_end]))
            parts.append(text[last:start])
            parts.append(_blank(text[start:end]))
            last = end
        parts.append(text[last:])
        masked = "".join(parts)
    _MASKED.clear()
    _MASKED[id(text)] = (text, masked, blocks)
    return masked, blocks


def fenced_sources(source: Source) -> list[Source]:
    """Code quoted in the Markdown, as sources of their own: a block marked with a language the
    code rules read, or unmarked and looking like commands."""
    _, blocks = _masked(source.text)
    found = []
    # A block's line counted from the one before: most files need no other line number, and
    # counting costs less than the table of every line's start `Source.position` makes.
    line, counted = source.line_base, 0
    for start, _end, language, code in blocks:
        kind = FENCE_KINDS.get(language)
        if kind is None and not language and _SHELL_LIKE.search(code):
            kind = "shell"
        if kind is not None:
            line += source.text.count("\n", counted, start)
            counted = start
            if kind == "shell":
                code = re.sub(r"^(\s*)[$#>] ", r"\1", code, flags=re.M)
            found.append(Source(source.file, code, kind, line, True))
    return found


def _phrase(source: Source, text: str, offset: int, where: str, hidden: bool) -> Iterator[Finding]:
    found = phrases.score(text, shown=not hidden)
    threshold = phrases.HIDDEN_THRESHOLD if hidden else phrases.SHOWN_THRESHOLD
    if found.value >= threshold:
        line, column = source.position(offset)
        yield Finding(DECEPTIVE, "high", min(0.95, 0.4 + 0.1 * found.value), source.file, line, column,
                      f"{where} tells the model to {_told(found.families)}: "
                      f"\"{excerpt(found.evidence, 60)}\"", excerpt(text, 120))
    elif found.value >= 2 and not hidden:
        line, column = source.position(offset)
        yield Finding(DECEPTIVE, "medium", 0.4, source.file, line, column,
                      f"{where} tells the model to {_told(found.families)}: "
                      f"\"{excerpt(found.evidence, 60)}\"; check that the user is meant to know",
                      excerpt(text, 120))


def _told(families: tuple[str, ...]) -> str:
    words = {"override": "set aside its rules", "authority": "trust an authority it cannot check",
             "conceal": "keep something from the user", "covert": "act without telling anyone"}
    return " and ".join(words[f] for f in families)


def prose_findings(source: Source) -> Iterator[Finding]:
    text = source.text
    masked, _ = _masked(text)
    if source.kind == "skill" and text.startswith("---"):
        end = text.find("\n---", 3)
        head = text[:end] if end != -1 else ""
        for match in _DESCRIPTION.finditer(head):
            yield from _phrase(source, match.group(1), match.start(1),
                               "the description (read by the agent to choose the skill)", True)
    if "<!--" in masked:
        for match in _COMMENT.finditer(masked):
            inside = match.group(1)
            if _TOOL_COMMENT.match(inside):
                continue
            hits = list(_phrase(source, inside, match.start(), "an HTML comment (hidden on the "
                                "rendered page)", True))
            yield from hits
            if not hits and len(re.findall(r"[^\W\d_]{2,}", inside)) >= 5:
                line, column = source.position(match.start())
                yield Finding(codes.HIDDEN_INSTRUCTIONS, "low", 0.3, source.file, line, column,
                              "an HTML comment holds text a model reads and a rendered page hides",
                              excerpt(inside, 100))
    # Each pattern runs only where the text holds the mark it starts from.
    hidden_places = [(pattern, where) for pattern, where, mark in (
        (_ALT, "image alt text", "!["), (_TITLE, "a link title", "]("), (_REF_TITLE, "a link title", "]:"))
        if mark in masked]
    for pattern, where in hidden_places:
        for match in pattern.finditer(masked):
            inside = match.group(1)
            hits = list(_phrase(source, inside, match.start(1), where + " (hidden on the page)", True))
            yield from hits
            if not hits and len(inside.split()) >= 25:
                line, column = source.position(match.start(1))
                yield Finding(HIDDEN_TEXT, "low", 0.3, source.file, line, column,
                              f"{where} holds a long text a reader does not see", excerpt(inside, 100))
    # A line of the masked text is the file's own or blanked out whole (a code block's, spaces
    # only): a file with no long run of blanks gives the masked text none to look for.
    for match in _blank_runs(masked) if _long_blank(text) else ():
        end = masked.find("\n", match.end())
        rest = masked[match.end(): end if end != -1 else len(masked)]
        hits = list(_phrase(source, rest, match.end(), "text after a long run of spaces (off "
                            "screen)", True))
        yield from hits
        if not hits and len(rest.split()) >= 3:
            line, column = source.position(match.end())
            yield Finding(HIDDEN_TEXT, "medium", 0.5, source.file, line, column,
                          f"text after {match.end() - match.start()} spaces, off the screen of a "
                          "reader", excerpt(rest, 100))
    yield from _blobs(source, masked)
    visible = _COMMENT.sub(lambda m: _blank(m.group()), masked) if "<!--" in masked else masked
    if source.kind == "skill" and text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            visible = _blank(visible[:end + 4]) + visible[end + 4:]
    shown = 0
    spans = phrases.phrase_spans(visible)
    if not spans:
        return
    ends = [end for _, end in spans]
    for start, paragraph in _paragraphs(visible):
        # Only a paragraph whose own words meet a family can score: one inside such a part.
        index = bisect.bisect_right(ends, start)  # the spans are in order
        if index == len(spans) or spans[index][0] > start:
            continue
        for finding in _phrase(source, paragraph, start, "this text", False):
            yield finding
            shown += 1
        if shown >= 5:
            break


def _long_blank(text: str) -> bool:
    """Whether `text` may hold a run of 120 blanks: any such run holds 30 of them in a row that
    are one of four kinds, or mixes kinds (which needs a tab, a no-break or ideographic space)."""
    return ("                              " in text or "\t" in text or "\u00a0" in text
            or "\u3000" in text)


def _blank_runs(text: str) -> Iterator[re.Match[str]]:
    """The runs of 120 blanks or more followed by text: looked for only on the lines long
    enough to hold one and holding text (a code block blanked out by `_masked` is long lines of
    spaces only, where the pattern would try every place), and only when the text may hold one
    at all."""
    if not _long_blank(text):
        return
    start = 0
    for line in text.split("\n"):
        if len(line) > 120 and _long_blank(line) and not line.isspace():
            yield from _WHITESPACE.finditer(text, start, start + len(line))
        start += len(line) + 1


def _paragraphs(text: str) -> Iterator[tuple[int, str]]:
    at = 0
    for part in re.split(r"(\n\s*\n)", text):
        if part.strip():
            yield at, part
        at += len(part)


def _blob_matches(text: str, words: list[str]) -> Iterator[re.Match[str]]:
    at = 0
    for word in words:
        at = text.find(word, at)
        yield from _BLOB.finditer(text, at, at + len(word))
        at += len(word)


# A blob is 48 characters of the base64 alphabet in a row, all ASCII: in the text's UTF-8 bytes
# with those characters made `a` and every other byte a blank, 48 `a` in a row. Most texts hold
# none, and that test costs a third of splitting the text into its words.
_BASE64_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64_RUNS = bytes(0x61 if byte in _BASE64_BYTES else 0x20 for byte in range(256))
_BASE64_RUN = b"a" * 48


def _may_hold_blob(text: str) -> bool:
    return _BASE64_RUN in text.encode("utf-8", "replace").translate(_BASE64_RUNS)


def _blobs(source: Source, masked: str) -> Iterator[Finding]:
    if not _may_hold_blob(masked):
        return
    # A blob lies in a word of 48 characters or more: the pattern runs on those words only.
    long_words = [word for word in masked.split() if len(word) >= 48]
    if not long_words:
        return
    shown = 0
    for match in _blob_matches(masked, long_words):
        if match.start() and masked[match.start() - 1] in _BLOB_NEIGHBOUR:
            continue  # the tail of a longer word: a URL's path, an identifier
        blob = match.group()
        if not re.search(r"[a-z]", blob) or not re.search(r"[A-Z]", blob) or blob.count("/") > 3:
            continue  # a hash, a path or an identifier, not base64 of text
        try:
            decoded = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        text = decoded.decode("utf-8", "replace")
        printable = sum(1 for c in text if c.isprintable() or c in "\n\t")
        if not text or printable < 0.9 * len(text) or len(text.split()) < 3:
            continue
        line, column = source.position(match.start())
        hidden = list(_phrase(source, text, match.start(), "base64 inside the prose, decoded,", True))
        quoted = Source(source.file, text, "shell", line, True)
        commands = ([f for f in shell_findings(quoted) if f.at_least("high")]
                    if _SHELL_LIKE.search(text) else [])
        if hidden or commands:
            yield from hidden
            yield from commands
            if not hidden and commands:
                yield Finding(ENCODED_PROSE, "high", 0.8, source.file, line, column,
                              f"base64 inside the prose decodes to commands: \"{excerpt(text, 60)}\"",
                              excerpt(blob, 60))
        else:
            yield Finding(ENCODED_PROSE, "medium", 0.5, source.file, line, column,
                          f"base64 inside the prose decodes to text a reader does not see: "
                          f"\"{excerpt(text, 60)}\"", excerpt(blob, 60))
        shown += 1
        if shown >= 5:
            return


@rule("hidden-and-deceptive-text", ("skill", "markdown"), "text a reader does not see (comments, "
      "alt text, link titles, off-screen text, base64 in prose) and instructions to conceal, "
      "claim authority or act unseen, by the offline phrase model")
def prose_rule(source: Source) -> Iterator[Finding]:
    yield from prose_findings(source)
