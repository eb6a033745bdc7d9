"""Advice on the body and the files of a skill: length, links to missing files, scripts that
cannot run. All warnings: none of them makes a skill invalid."""

from __future__ import annotations

import re
from collections.abc import Iterator

import studio.skills.codes as codes
from studio.skills.checks.nested import nested_skills_rule
from studio.skills.model import Diagnostic, Severity, Skill
from studio.skills.yaml.textpos import position_in

MAX_BODY_LINES = 500
MAX_BODY_TOKENS = 5000
CHARS_PER_TOKEN = 4

_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE = re.compile(r"`([^`\s]+)`")
_BARE = re.compile(r"(?<![\w/.~-])((?:\./)?(?:scripts|references|assets)/[\w@%+=:,./-]*[\w/-])")
_FOLDERS = ("scripts/", "references/", "assets/")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# A file name with a letter-led extension, so that `2.3.0` or `1.5e3` in backticks is not a file.
_FILE_LIKE = re.compile(r"^(?:\./)?[\w.-]*[A-Za-z_][\w.-]*(?:/[\w.@-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}$")


def body_length_rule(skill: Skill) -> Iterator[Diagnostic]:
    body = skill.body
    if not body:
        return
    span = skill.body_span
    # Without a CR the body's line breaks are its `\n`s, which the parse already counted for
    # the span's end: counting them again would read the whole body once more.
    breaks = span.end_line - span.line if "\r" not in body else body.count("\n")
    lines = breaks + (0 if body.endswith("\n") else 1)
    if lines > MAX_BODY_LINES:
        yield Diagnostic(
            codes.BODY_TOO_MANY_LINES, Severity.WARNING,
            f"the body is {lines} lines long; keep it under {MAX_BODY_LINES} and move detail "
            "into references/",
            skill.body_span.line + MAX_BODY_LINES, 1, file=skill.skill_file_name,
        )
    tokens = len(body) // CHARS_PER_TOKEN
    if tokens > MAX_BODY_TOKENS:
        yield Diagnostic(
            codes.BODY_TOO_MANY_TOKENS, Severity.WARNING,
            f"the body is about {tokens:,} tokens; keep it under about {MAX_BODY_TOKENS:,} so it "
            "loads cheaply, and move detail into references/",
            skill.body_span.line, 1, file=skill.skill_file_name,
        )


def _mentions(body: str) -> dict[str, int]:
    """Relative paths the body points at (Markdown links, code spans and bare skill-folder paths),
    each with the offset of its first mention. Bare paths are found with str.find first, far
    cheaper than letting a regex try every position of a long body; one that starts a link's
    target is that target, already noted. (A long body can mention dozens of paths: the loops
    below keep to C calls and slices.)"""
    targets: dict[str, int] = {}
    first = targets.get
    linked: set[int] = set()
    if "](" in body:
        link_at, keep_first = linked.add, targets.setdefault
        for match in _LINK.finditer(body):
            start, end = match.span(1)
            link_at(start)
            keep_first(body[start:end], start)  # links come in order: the first one stays
    if "`" in body:
        for match in _CODE.finditer(body):
            target = match.group(1)
            if target in targets or _BARE.fullmatch(target) or _FILE_LIKE.fullmatch(target):
                offset = match.start(1)
                if offset < first(target, offset + 1):
                    targets[target] = offset
    find, match_at = body.find, _BARE.match
    for folder in _FOLDERS:
        position = find(folder)
        while position != -1:
            start = position - 2 if body[position - 2 : position] == "./" else position
            if start not in linked and (found := match_at(body, start)) is not None:
                start, end = found.span(1)
                target = body[start:end]
                if start < first(target, start + 1):
                    targets[target] = start
            position = find(folder, position + len(folder))
    return targets


def _relative_target(target: str) -> str | None:
    target = target.split("#", 1)[0].split("?", 1)[0].rstrip(".,;:")
    if not target or _SCHEME.match(target) or target.startswith(("/", "~", "$", "{", "<")):
        return None
    if "*" in target or target.startswith(".."):
        return None
    parts = [part for part in target.split("/") if part not in (".", "")]
    return "/".join(parts) if parts else None


def _known_paths(skill: Skill) -> set[str]:
    known = {skill.path.name}
    for file in skill.files:
        path = file.relative
        known.add(path)
        slash = path.rfind("/")
        while slash > 0:
            path = path[:slash]
            if path in known:
                break
            known.add(path)
            slash = path.rfind("/")
    return known


def missing_files_rule(skill: Skill) -> Iterator[Diagnostic]:
    if not skill.body:
        return
    targets = _mentions(skill.body)
    if not targets:
        return
    known: set[str] | None = None
    first: dict[str, int] = {}
    for target, offset in targets.items():
        relative = _relative_target(target)
        if relative is None or ("/" not in relative and "." not in relative):
            continue
        known = known if known is not None else _known_paths(skill)
        if relative.rstrip("/") not in known and offset < first.get(relative, offset + 1):
            first[relative] = offset
    if not first:
        return
    for relative, offset in sorted(first.items(), key=lambda item: item[1]):
        line, column = position_in(skill.source, skill.body_span.start + offset)
        yield Diagnostic(
            codes.MISSING_FILE_MENTIONED, Severity.WARNING,
            f"the body mentions `{relative}`, which is not in the skill's folder",
            line, column, file=skill.skill_file_name,
        )


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
