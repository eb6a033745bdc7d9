"""Advice on the body and the files of a skill: length, links to missing files, scripts that
cannot run. All warnings: none of them makes a skill invalid."""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.skills.model import Diagnostic, Severity, Skill
from studio.skills.textpos import position_in

W = Severity.WARNING
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
    lines = body.count("\n") + (0 if body.endswith("\n") else 1)
    if lines > MAX_BODY_LINES:
        yield Diagnostic(
            "SK201", W,
            f"the body is {lines} lines long; keep it under {MAX_BODY_LINES} and move detail "
            "into references/",
            skill.body_span.line + MAX_BODY_LINES, 1, file=skill.skill_file_name,
        )
    tokens = len(body) // CHARS_PER_TOKEN
    if tokens > MAX_BODY_TOKENS:
        yield Diagnostic(
            "SK202", W,
            f"the body is about {tokens:,} tokens; keep it under about {MAX_BODY_TOKENS:,} so it "
            "loads cheaply, and move detail into references/",
            skill.body_span.line, 1, file=skill.skill_file_name,
        )


def _bare_paths(body: str) -> Iterator[re.Match[str]]:
    """Bare `scripts/...`-style paths; found with str.find first, which is far cheaper than
    letting the regex try every position of a long body."""
    for folder in _FOLDERS:
        position = body.find(folder)
        while position != -1:
            start = position - 2 if body.startswith("./", position - 2) else position
            match = _BARE.match(body, start)
            if match is not None:
                yield match
            position = body.find(folder, position + len(folder))


def _mentions(body: str) -> Iterator[tuple[int, str]]:
    """Relative paths the body points at: Markdown links, code spans and bare skill-folder paths."""
    seen: set[int] = set()
    found: list[tuple[int, str]] = []
    if "](" in body:
        found.extend((m.start(1), m.group(1)) for m in _LINK.finditer(body))
    if "`" in body:
        for match in _CODE.finditer(body):
            target = match.group(1)
            if _BARE.fullmatch(target) or _FILE_LIKE.fullmatch(target):
                found.append((match.start(1), target))
    found.extend((m.start(1), m.group(1)) for m in _bare_paths(body))
    for start, target in found:
        if start not in seen:
            seen.add(start)
            yield start, target


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
        path = str(file.path)
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
    known: set[str] | None = None
    reported: set[str] = set()
    relatives: dict[str, str | None] = {}
    for offset, target in _mentions(skill.body):
        if target not in relatives:
            relatives[target] = _relative_target(target)
        relative = relatives[target]
        if relative is None or relative in reported:
            continue
        known = known if known is not None else _known_paths(skill)
        if relative.rstrip("/") in known:
            continue
        first = relative.split("/", 1)[0]
        if "/" not in relative and "." not in first:
            continue
        reported.add(relative)
        line, column = position_in(skill.source, skill.body_span.start + offset)
        yield Diagnostic(
            "SK203", W, f"the body mentions `{relative}`, which is not in the skill's folder",
            line, column, file=skill.skill_file_name,
        )


def scripts_rule(skill: Skill) -> Iterator[Diagnostic]:
    for file in skill.files:
        parts = file.path.parts
        if len(parts) < 2 or parts[0] != "scripts" or parts[-1].startswith("."):
            continue
        if file.has_shebang is False:
            yield Diagnostic(
                "SK205", W,
                f"`{file.path}` has no interpreter line; start it with e.g. "
                "`#!/usr/bin/env python3`",
                file=str(file.path),
            )
        if not file.executable and not skill.read_only:
            yield Diagnostic(
                "SK204", W, f"`{file.path}` is not executable; run `chmod +x {file.path}`",
                file=str(file.path),
            )


BODY_RULES = (body_length_rule, missing_files_rule, scripts_rule)
