"""The body's file mentions (SK203): the one search for bare paths finds exactly what one search
per folder, with `_BARE` tried at each place, found; `reference_mentions` is that earlier code,
kept here as the oracle. The paths may enter the mapping in another order (the body's, not
folder by folder): the rule's findings, sorted by offset, are the same, in the same order."""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from studio.skills.checks import bodyrules
from studio.skills.checks.bodyrules import _mentions, missing_files_rule
from studio.skills.model import SkillFile
from studio.skills.parse import parse_skill

_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE = re.compile(r"`([^`\s]+)`")
_BARE = re.compile(r"(?<![\w/.~-])((?:\./)?(?:scripts|references|assets)/[\w@%+=:,./-]*[\w/-])")
_FILE_LIKE = re.compile(r"^(?:\./)?[\w.-]*[A-Za-z_][\w.-]*(?:/[\w.@-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}$")


def reference_mentions(body: str) -> dict[str, int]:
    """The mentions as the rule found them before: links, code spans, then each folder's name
    found with `str.find` and `_BARE` tried there."""
    targets: dict[str, int] = {}
    linked: set[int] = set()
    for match in _LINK.finditer(body):
        start, end = match.span(1)
        linked.add(start)
        targets.setdefault(body[start:end], start)
    for match in _CODE.finditer(body):
        target = match.group(1)
        if target in targets or _BARE.fullmatch(target) or _FILE_LIKE.fullmatch(target):
            offset = match.start(1)
            if offset < targets.get(target, offset + 1):
                targets[target] = offset
    for folder in ("scripts/", "references/", "assets/"):
        position = body.find(folder)
        while position != -1:
            start = position - 2 if body[position - 2 : position] == "./" else position
            if start not in linked and (found := _BARE.match(body, start)) is not None:
                start, end = found.span(1)
                target = body[start:end]
                if start < targets.get(target, start + 1):
                    targets[target] = start
            position = body.find(folder, position + len(folder))
    return targets


# Pieces that meet at the edges of every pattern: the folders with and without `./`, what may
# stand before a path (the look-behind's characters, and those only a path may hold), links,
# code spans, titles, and letters beyond ASCII.
PIECES = (
    "scripts/", "references/", "assets/", "./", "s/", "scripts", "assets", "ts/", "/", ".", "~",
    "-", "_", "@", "%", "+", "=", ":", ",", "#", "?", "'", '"', " ", "\n", "\t", "`", "](", ")",
    "[", "]", "<", ">", "a", "run.py", "x.md", "é", "١", "ß", "${", "..", "*",
)
bodies = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)

TABLE = [
    "",
    "Run scripts/run.py, then read references/guide.md and assets/logo.png.",
    "Run ./scripts/run.py or a./scripts/x.py or x/scripts/y.py or -scripts/z.py",
    "See [guide](references/guide.md) and references/guide.md again.",
    "See [guide](./references/guide.md \"title](scripts/t.py)\") then `scripts/t.py`.",
    "A path inside a path: scripts/a:references/b.md and scripts/a@./assets/c.png",
    "Trailing: scripts/ and scripts/x. and scripts/x-, assets/y,",
    "Code `2.3.0`, `file.md`, `references/x`, `scripts/run.py` and `a b`.",
    "Link [x](scripts/a'b) then `scripts/a'b` at the same place as the bare path.",
    "é scripts/x.py ١scripts/y.py ßassets/z.png ~assets/w.png _scripts/v.py",
    "scripts/scripts/x.py references/references/ assets/./assets/y",
    "Twice: scripts/run.py scripts/run.py [r](scripts/run.py) scripts/run.py",
    "A word in code first: `guide` then [g](guide) and `guide.md#x` then [g](guide.md#x).",
    # Links where the search from `]` to `]` meets its edges: a link first and last, `]` as
    # the last character, `]` runs and links inside links, line breaks of both kinds, letters
    # beyond ASCII before and inside.
    "](scripts/a.py)",
    "[a](references/b.md)",
    "x]",
    "]",
    "]]](scripts/a.py) ]](](assets/b.png) [x](](c.md) [y]( d.md ) [z](<e.md> \"t\")",
    "[a]\r\n(scripts/a.py) [b](scripts/b.py)\r\n[c](\r\nscripts/c.py)\r\n",
    "é [ü](références/é.md) ١](scripts/١.py) [ß](assets/ß.png)]",
    "[unclosed](scripts/a.py [closed](scripts/b.py) ](",
]


def _paths(mentions: dict[str, int]) -> dict[str, int]:
    """The mentions the rule can report: a target without a dot or a slash never is one (a
    code span like that is not even looked at any more)."""
    return {target: at for target, at in mentions.items() if "." in target or "/" in target}


def same_findings(body: str) -> None:
    """The same mentions, and the rule's findings, in order, the same as with the oracle's."""
    assert _paths(_mentions(body)) == _paths(reference_mentions(body))
    skill = parse_skill(f"---\nname: demo\n---\n{body}".encode("utf-8", "surrogatepass"),
                        Path("/x/demo/SKILL.md"), max_bytes=None)
    skill.files = (SkillFile("scripts/run.py", None, None), SkillFile("references/x.md", None, None))
    found = list(missing_files_rule(skill))
    with mock.patch.object(bodyrules, "_mentions", reference_mentions):
        assert found == list(missing_files_rule(skill))


@pytest.mark.parametrize("body", TABLE)
def test_table(body: str) -> None:
    same_findings(body)


@settings(max_examples=3000)
@given(bodies)
@example("x`scripts/a`scripts/b.py")
@example("./scripts/a:./assets/b")
@example("[l](scripts/a~b) `scripts/a~b` assets/x references/y ./assets/x scripts/run.py")
def test_same_as_one_search_per_folder(body: str) -> None:
    same_findings(body)


@given(st.text(max_size=60))
def test_same_on_any_text(body: str) -> None:
    same_findings(body)


# What a code span may hold where `_file_like` cuts: dots, slashes, `./`, what only a later part
# may hold (`@`), letters beyond ASCII (a word character, but no extension's letter), digits
# beyond ASCII, and extensions at and past their eight characters.
NAME_PIECES = (
    ".", "/", "./", "..", "@", "-", "_", "a", "Z", "7", "py", "md", "x1", "abcdefgh", "abcdefghi",
    "1", "é", "١", "ß", ":", "(", ")", "~", "#", "\n", "values", "Capacity", "scripts/",
)
names = st.lists(st.sampled_from(NAME_PIECES), max_size=14).map("".join)

FILE_NAMES = [
    "", ".", "./", ".py", "./.py", "./x.py", ".//x.py", "x.py", "1.py", "_.py", "é.py", "éa.py",
    "a.é", "a.1py", "a.py1", "a.abcdefgh", "a.abcdefghi", "a/.py", "a//b.py", "/a.py", "a/b.py",
    "a/@b.py", "@a/b.py", "a@b.py", "2.3.0", "1.5e3", "v1.2.3a", "scripts/run.py", "./scripts/run.py",
    "file.go:45", "models.generateContentStream()", "a.py\n", "a\n.py", "x.tar.gz", "a-b.c_d/e.f",
    "values.volumeAvailableCapacityForImportantUsage", "docs/", "medium.com", "١.py", "a/١.py",
]


@pytest.mark.parametrize("name", FILE_NAMES)
def test_file_like_table(name: str) -> None:
    assert bodyrules._file_like(name) == (_FILE_LIKE.fullmatch(name) is not None), name


@settings(max_examples=3000)
@given(names)
def test_file_like_is_the_pattern(name: str) -> None:
    """Cut at the last dot, the two patterns decide as the one pattern in one piece did."""
    assert bodyrules._file_like(name) == (_FILE_LIKE.fullmatch(name) is not None)


@given(st.one_of(names, st.text(max_size=30)))
def test_bare_paths_start_as_asked(name: str) -> None:
    """The prefixes asked before `_BARE` turn away only texts it would not match whole."""
    if _BARE.fullmatch(name) is not None:
        assert name.startswith(bodyrules._BARE_STARTS)
