"""Advice on the body and the files of a skill: length, links to missing files, scripts that
cannot run. All warnings: none of them makes a skill invalid."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from operator import attrgetter, itemgetter

import studio.skills.codes as codes
from studio.skills.checks.nested import nested_skills_rule
from studio.skills.model import Diagnostic, Severity, Skill
from studio.skills.yaml.textpos import position_in

MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5000
CHARS_PER_TOKEN = 4

_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# Possessive: a run of code characters is never worth giving back (what ends it is no `), and
# the fences' backticks fail sooner.
_CODE = re.compile(r"`([^`\s]++)`")
_BARE = re.compile(r"(?<![\w/.~-])((?:\./)?(?:scripts|references|assets)/[\w@%+=:,./-]*[\w/-])")
_FOLDERS = ("scripts/", "references/", "assets/")
# What a text `_BARE` matches whole starts with: asked first, in one C call.
_BARE_STARTS = _FOLDERS + tuple("./" + folder for folder in _FOLDERS)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# A file name with a letter-led extension, so that `2.3.0` or `1.5e3` in backticks is not a file
# (see `_file_like`): the text after the last dot, and the stem before it, whose first part
# holds a letter or an underscore and whose parts are not empty.
_EXTENSION = re.compile(r"[A-Za-z][A-Za-z0-9]{0,7}")
_STEM = re.compile(r"(?=[\w.-]*[A-Za-z_])[\w.-]++(?:/[\w.@-]++)*+")



def _slashed(folders: tuple[str, ...]) -> tuple[re.Pattern[str], tuple[int, ...]]:
    """`_BARE` as one search that a C loop runs over the body: each folder ends in `s/`, a
    literal the search skips to; look-behinds there find which folder (with `./` or without),
    and `_BARE`'s own look-behind before it; a look-ahead reads the rest of the path. Each
    alternative ends with an empty marker group, so `lastindex` says which one matched; the
    path's end is the group before it. Nothing is consumed past `s/`, so a folder's name
    inside a path is found too, as `_BARE` tried each one. At most one alternative can match
    at a place (the folders end differently, and `./` before a folder fails the look-behind of
    the folder alone), so the folders without `./`, the common form, are tried first.

    Returns the pattern, and by marker group how far before the match's end the path starts."""
    alternatives, back = [], [0]
    for prefix in ("", "./"):
        for folder in folders:
            mentioned = re.escape(prefix + folder)
            alternatives.append(
                rf"(?<=(?<![\w/.~-]){mentioned})(?=([\w@%+=:,./-]*[\w/-]))()"
            )
            back += [0, len(prefix + folder)]
    assert all(folder.endswith("s/") for folder in folders)
    return re.compile("/(?<=s/)(?:" + "|".join(alternatives) + ")"), tuple(back)


_SLASHED, _SLASHED_BACK = _slashed(_FOLDERS)


def body_length_rule(skill: Skill) -> list[Diagnostic]:
    """A list, as the other rules that nearly always find nothing (see
    `studio.skills.checks.rules.Rule`)."""
    body = skill.body
    if not body:
        return []
    span = skill.body_span
    # Without a CR the body's line breaks are its `\n`s, which the parse already counted for
    # the span's end: counting them again would read the whole body once more.
    breaks = span.end_line - span.line if "\r" not in body else body.count("\n")
    lines = breaks + (0 if body.endswith("\n") else 1)
    tokens = len(body) // CHARS_PER_TOKEN
    if lines <= MAX_BODY_LINES and tokens <= MAX_BODY_TOKENS:
        return []
    found = []
    if lines > MAX_BODY_LINES:
        found.append(Diagnostic(
            codes.BODY_TOO_MANY_LINES, Severity.WARNING,
            f"the body is {lines} lines long; keep it under {MAX_BODY_LINES} and move detail "
            "into references/",
            skill.body_span.line + MAX_BODY_LINES, 1, file=skill.skill_file_name,
        ))
    if tokens > MAX_BODY_TOKENS:
        found.append(Diagnostic(
            codes.BODY_TOO_MANY_TOKENS, Severity.WARNING,
            f"the body is about {tokens:,} tokens; keep it under about {MAX_BODY_TOKENS:,} so it "
            "loads cheaply, and move detail into references/",
            skill.body_span.line, 1, file=skill.skill_file_name,
        ))
    return found


def _mentions(body: str) -> dict[str, int]:
    """Relative paths the body points at (Markdown links, code spans and bare skill-folder paths),
    each with the offset of its first mention. (A long body can mention dozens of paths: the
    loops below keep to C calls and slices.)"""
    targets: dict[str, int] = {}
    first = targets.get
    linked: set[int] = set()
    # Links from one `]` to the next: `str.find` of one character skips to it with memchr,
    # where the regex search steps over every character (a third of this pass on a
    # collection's bodies). A `]` not followed by `(` starts no link; tried where one is, the
    # pattern finds what `finditer` found, in order. (A needle of two characters would be no
    # faster than the regex: `str.find` has no memchr for it.)
    link_at, keep_first = linked.add, targets.setdefault
    find, link = body.find, _LINK.match
    at = find("]")
    while at != -1:
        if body[at + 1 : at + 2] == "(" and (match := link(body, at)) is not None:
            start, end = match.span(1)
            link_at(start)
            keep_first(body[start:end], start)  # links come in order: the first one stays
            at = find("]", match.end())
        else:
            at = find("]", at + 1)
    if "`" in body:
        # Most code spans are words, flags or names: a path the rule checks holds a dot or a
        # slash (see `missing_files_rule`), and two lookups in C spare the patterns' calls.
        for match in _CODE.finditer(body):
            target = match.group(1)
            if ("." in target or "/" in target) and (
                target in targets
                or (target.startswith(_BARE_STARTS) and _BARE.fullmatch(target))
                or _file_like(target)
            ):
                offset = match.start(1)
                if offset < first(target, offset + 1):
                    targets[target] = offset
    # Bare paths in the body's order: the rule reports each path at its first mention, sorted
    # by offset, so the order in which paths enter `targets` never shows (two bare paths never
    # start at one place).
    back = _SLASHED_BACK
    for match in _SLASHED.finditer(body):
        marker = match.lastindex
        assert marker is not None  # each alternative ends with its marker group
        start = match.end() - back[marker]
        if start not in linked:
            target = body[start : match.end(marker - 1)]
            if start < first(target, start + 1):
                targets[target] = start
    return targets


def _file_like(target: str) -> bool:
    r"""Whether `target` reads as a file's path: `(\./)?[\w.-]*[A-Za-z_][\w.-]*(?:/[\w.@-]+)*`
    then a dot and a letter-led extension of at most 8 letters and digits, matched whole.

    The extension holds no dot, so the dot before it is the last one; the stem's parts are
    split by slashes, which no part holds. Cut there, each side matches without giving
    anything back, where the pattern in one piece backtracked through every way of splitting
    a dotted name (`values.volumeAvailableCapacityForImportantUsage` took 86 µs). With `./`
    in front the first part would be `.`, which holds no letter: the stem must lose it."""
    stem, dot, extension = target.rpartition(".")
    return (
        bool(dot) and _EXTENSION.fullmatch(extension) is not None
        and _STEM.fullmatch(stem.removeprefix("./")) is not None
    )


# Skills of one collection mention the same few paths (`scripts/run.py`): a worker meets
# each target again and again.
@lru_cache(maxsize=4096)
def _relative_target(target: str) -> str | None:
    target = target.split("#", 1)[0].split("?", 1)[0].rstrip(".,;:")
    if not target or _SCHEME.match(target) or target.startswith(("/", "~", "$", "{", "<")):
        return None
    if "*" in target or target.startswith(".."):
        return None
    parts = [part for part in target.split("/") if part not in (".", "")]
    return "/".join(parts) if parts else None


def _known_paths(skill: Skill) -> set[str]:
    """SKILL.md's name, every file's path and every folder above one, without the slash: a level
    of folders at a time, each a set built in C."""
    known = {file.relative for file in skill.files}
    folders = {path.rpartition("/")[0] for path in known}
    while folders:
        folders.discard("")
        folders -= known
        known |= folders
        folders = {path.rpartition("/")[0] for path in folders}
    known.add(skill.path.name)
    return known


_relative = attrgetter("relative")


def _known_test(skill: Skill) -> Callable[[str], bool]:
    """Whether a path (relative, without empty parts) is SKILL.md, a file of the skill or a
    folder above one: `_known_paths`, without building the set. The files' paths go into one
    string, each after a NUL, which no file name holds; a path is then a file's when NUL, the
    path and NUL stand in it, and a folder's when NUL, the path and a slash do: two searches
    in C for each of the few paths a body mentions."""
    files = skill.files
    inner = "\0".join(map(_relative, files))
    if inner.count("\0") != max(len(files) - 1, 0):
        return _known_paths(skill).__contains__  # a path holds a NUL (an archive's might)
    joined, name = f"\0{inner}\0", skill.path.name

    def known(relative: str) -> bool:
        return relative == name or ("\0" not in relative and (
            f"\0{relative}\0" in joined or f"\0{relative}/" in joined))

    return known


def missing_files_rule(skill: Skill) -> Iterator[Diagnostic]:
    if not skill.body:
        return
    targets = _mentions(skill.body)
    if not targets:
        return
    known: Callable[[str], bool] | None = None
    first: dict[str, int] = {}
    for target, offset in targets.items():
        relative = _relative_target(target)
        if relative is None or ("/" not in relative and "." not in relative):
            continue
        known = known if known is not None else _known_test(skill)
        if not known(relative.rstrip("/")) and offset < first.get(relative, offset + 1):
            first[relative] = offset
    if not first:
        return
    source, start = skill.source, skill.body_span.start
    # In offset order: each line counted from the last mention's, when no CR makes a line break.
    line, counted, has_cr = skill.body_span.line, start, "\r" in source
    # The file's name asked once (a Path property), and every argument given in order (a
    # keyword slows the named tuple's Python-level constructor): most skills get a finding or
    # two here.
    file, warning = skill.skill_file_name, Severity.WARNING
    for relative, offset in sorted(first.items(), key=_offset):
        at = start + offset
        if has_cr:
            line, column = position_in(source, at)
        else:
            line += source.count("\n", counted, at)
            counted, column = at, at - source.rfind("\n", 0, at)
        yield Diagnostic(
            codes.MISSING_FILE_MENTIONED, warning,
            f"the body mentions `{relative}`, which is not in the skill's folder",
            line, column, None, None, None, file,
        )


_offset = itemgetter(1)


def scripts_rule(skill: Skill) -> Iterator[Diagnostic]:
    for file in skill.files:
        relative = file.relative
        if not relative.startswith("scripts/") or relative.rpartition("/")[2].startswith("."):
            continue
        if file.has_shebang is False:
            yield Diagnostic(
                codes.SCRIPT_WITHOUT_INTERPRETER, Severity.WARNING,
                f"`{relative}` has no interpreter line; start it with e.g. "
                "`#!/usr/bin/env python3`",
                file=relative,
            )
        if not file.executable and not skill.read_only:
            yield Diagnostic(
                codes.SCRIPT_NOT_EXECUTABLE, Severity.WARNING,
                f"`{relative}` is not executable; run `chmod +x {relative}`",
                file=relative,
            )


BODY_RULES = (body_length_rule, missing_files_rule, scripts_rule, nested_skills_rule)
