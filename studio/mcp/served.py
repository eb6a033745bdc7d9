"""The skills `studio mcp` serves through the Skills extension (SEP-2640): each at a URI of its
own, its files, their bytes, and its entry with the manifest. No MCP here: `skillsext.py` puts
these on the wire.

Which skills: those the library validated (no errors), and a skill nested in one of them when it
too validates; same-name skills all, each at its own path. Their URIs: `skill://` and the skill's
folder relative to its root (`tide-tables`, `team-a/refunds`, a nested `outer/sub/inner`); a
skill whose path another root already gives is put under a label naming its root
(`skills-1a2b3c4d/refunds`), so URIs stay the same from one run to the next.

Which files: an allowlist. What the library itself reads of a skill (`list_skill_files`: regular
files, no link out of the folder, not under `.git` or `node_modules`, 8 folders deep at most), and
of those only the ones whose every path part is a plain name (letters, digits, `_ . - + @ ( ) =
, ~` and spaces, not starting with a dot) and does not look like a key or credentials file.

Every digest and size is of the bytes the server sends for that file: one function (`_bytes`)
gives both the bytes a read serves and the bytes a manifest digests.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import mimetypes
import os
import re
import zipfile
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from studio.errors import StudioError
from studio.skills import (
    SkillSummary,
    codes,
    list_skill_files,
    load_skill,
    load_zip_skills,
    open_regular,
    parse_skill,
)
from studio.skills import mcpwire as wire
from studio.skills.checks import validate_skill
from studio.skills.scan import enclosing_zip
from studio.textshow import shown_line
from studio.threatscan import scan_skill

# A page of `skills/list` holds this many skills, fewer once their manifests reach PAGE_FILES
# entries (one skill at least): a library of any size answers in messages of bounded size.
PAGE_SKILLS = 50
PAGE_FILES = 2000

_PLAIN_PART = re.compile(r"\w[\w.+@()=,~ -]*")
# Private keys, key stores and credential files: never served even in a skill's folder.
_CREDENTIALS = re.compile(
    r"(?i)(id_(rsa|dsa|ecdsa|ed25519)|.*\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|gpg|asc)"
    r"|credentials(\..*)?|secrets?\.(json|ya?ml|toml|env|ini|txt)|.*\.secret)"
)


class Unserved(LookupError, StudioError):
    """A URI or cursor this server does not serve; the message says what and why."""


@dataclass(frozen=True, slots=True)
class ServedSkill:
    """A skill at its path (`("team-a", "refunds")`); the last segment is its name."""

    path: tuple[str, ...]
    summary: SkillSummary

    @property
    def uri(self) -> str:
        return wire.skill_uri(self.path)

    @property
    def name(self) -> str:
        return self.path[-1]


# A skill with a finding at this severity or above is not served: a client hands what it is
# served to its agent, which cannot see the scanner's findings (docs/mcp.md).
REFUSE_AT = "high"


def threat_refusal(summary: SkillSummary) -> str | None:
    """Why `summary`'s skill is not served for what the scanner (`studio scan`) finds in its files:
    the worst finding at `REFUSE_AT` or above, where it is, and how many more there are; None when
    there is none. A skill inside a zip archive is scanned as a folder is."""
    worst = [f for f in scan_skill(summary.directory).findings if f.at_least(REFUSE_AT)]
    if not worst:
        return None
    first = worst[0]
    more = f" (and {len(worst) - 1} more at {REFUSE_AT} or above)" if len(worst) > 1 else ""
    # Shown, never obeyed: a client may print it to a terminal, and the skill wrote its parts.
    return (f"{first.code} ({first.severity}) in {shown_line(first.file)}:{first.line}: "
            f"{shown_line(first.message)}{more}")


def shareable(relative: str) -> bool:
    """Whether a file at `relative` (inside a skill's folder) may be served: every part a plain,
    visible name, and the file not a key or credentials file."""
    parts = relative.split("/")
    return (all(_PLAIN_PART.fullmatch(part) for part in parts)
            and _CREDENTIALS.fullmatch(parts[-1]) is None)


def mime_type(relative: str) -> str:
    """The MIME type by the file's name alone, so a listing and a read agree."""
    if relative.endswith(".md"):
        return "text/markdown"
    return mimetypes.guess_type(relative, strict=False)[0] or "text/plain"


class ServedSkills:
    """The skills served, in the order of their URIs, with their files read on demand.

    Attributes:
        skills: every skill served.
        refused: (folder, why) of each skill considered and not served.
    """

    def __init__(self, summaries: Sequence[SkillSummary],
                 report: Callable[[str], None] = lambda _line: None) -> None:
        self._report = report
        self._reported: set[str] = set()
        self.refused: list[tuple[Path, str]] = []
        by_path: dict[tuple[str, ...], ServedSkill] = {}
        queue: list[tuple[SkillSummary, tuple[str, ...] | None]] = [
            (summary, None) for summary in summaries if summary.valid and summary.name]
        while queue:
            summary, inside = queue.pop(0)
            path = _path_of(summary, inside, by_path)
            by_path[path] = ServedSkill(path, summary)
            queue.extend((nested, path) for nested in self._nested(summary))
        self.skills = sorted(by_path.values(), key=lambda skill: skill.uri)
        self._keys = [skill.uri for skill in self.skills]
        self._by_path = by_path

    def _nested(self, summary: SkillSummary) -> list[SkillSummary]:
        """The valid skills in folders below `summary`'s (the library never lists them)."""
        found: list[SkillSummary] = []
        if summary.read_only:
            return found
        for diagnostic in summary.diagnostics:
            if diagnostic.code != codes.NESTED_SKILL or not diagnostic.file:
                continue
            folder = summary.directory / PurePosixPath(diagnostic.file).parent
            result = validate_skill(load_skill(folder), fixes=False)
            nested = result.summary(summary.root)
            if nested.valid and nested.name:
                found.append(nested)
            else:
                why = result.errors[0] if result.errors else None
                self.refused.append((folder, f"{why.code}: {why.message}" if why else "no name"))
        return found

    def _refuse(self, skill: ServedSkill, why: str) -> None:
        line = f"{skill.summary.directory} is not served over the Skills extension: {why}"
        if line not in self._reported:
            self._reported.add(line)
            self._report(line)

    # -- lookups ----------------------------------------------------------------------------

    def skill_at(self, uri: str) -> ServedSkill:
        """The skill whose SKILL.md is at `uri`."""
        try:
            segments = wire.split_uri(uri)
        except wire.WireError as exc:
            raise Unserved(str(exc)) from None
        skill = self._by_path.get(segments[:-1]) if segments[-1] == wire.SKILL_FILE else None
        if skill is None:
            raise Unserved(f"no skill is served at {uri}")
        return skill

    def _owner(self, uri: str) -> tuple[ServedSkill, str]:
        """The innermost skill whose folder holds `uri`, and the path inside that folder."""
        try:
            segments = wire.split_uri(uri)
        except wire.WireError as exc:
            raise Unserved(str(exc)) from None
        for cut in range(len(segments), 0, -1):
            skill = self._by_path.get(segments[:cut])
            if skill is not None:
                return skill, "/".join(segments[cut:])
        raise Unserved(f"{uri} is not inside any skill served here")

    # -- files ------------------------------------------------------------------------------

    def files(self, skill: ServedSkill) -> list[str]:
        """The skill's files served (SKILL.md first), relative to its folder."""
        summary = skill.summary
        if summary.read_only:
            listed = list(_zipped_files(summary))
        else:
            listed = [file.relative for file in list_skill_files(summary.directory)]
        return [wire.SKILL_FILE, *sorted(path for path in listed if shareable(path))]

    def _bytes(self, skill: ServedSkill, relative: str, base: str | None = None) -> bytes:
        """The bytes served for a file of `skill`: what a read sends and a manifest digests.
        `base` is the skill's folder resolved, when the caller has it already."""
        summary = skill.summary
        if summary.read_only:
            return _zip_bytes(summary, relative)
        if relative == wire.SKILL_FILE:
            target = os.path.realpath(summary.skill_file)
        else:
            target = os.path.realpath(summary.directory / relative)
        base = base or os.path.realpath(summary.directory)
        if not (target == base or target.startswith(base.rstrip(os.sep) + os.sep)):
            raise Unserved(f"{relative} leads outside the skill's folder")
        descriptor = open_regular(target)
        with open(descriptor, "rb") as handle:
            data = handle.read(wire.MAX_TOTAL_BYTES + 1)
        if len(data) > wire.MAX_TOTAL_BYTES:
            raise Unserved(f"{relative} is larger than the {wire.MAX_TOTAL_BYTES:,} bytes a "
                           "skill may hold")
        return data

    def read(self, uri: str) -> tuple[bytes, str]:
        """The bytes of the file at `uri` and its MIME type; only files a manifest would list."""
        skill, relative = self._owner(uri)
        if relative not in self.files(skill):
            raise Unserved(f"{uri} is not a file served here")
        try:
            return self._bytes(skill, relative), mime_type(relative)
        except OSError as exc:
            raise Unserved(f"{uri} cannot be read: {exc.strerror or exc}") from None

    # -- entries ----------------------------------------------------------------------------

    def entry(self, skill: ServedSkill) -> wire.SkillEntry:
        """The skill's entry: frontmatter as written, parsed from the very bytes digested.
        Raises Unserved (and says why on the report) when the skill cannot be served as it is
        now on disk."""
        try:
            return self._entry(skill)
        except (Unserved, wire.WireError) as exc:
            self._refuse(skill, str(exc))
            raise Unserved(f"{skill.uri} is not served: {exc}") from None
        except OSError as exc:
            why = f"it cannot be read: {exc.strerror or exc}"
            self._refuse(skill, why)
            raise Unserved(f"{skill.uri} is not served: {why}") from None

    def _entry(self, skill: ServedSkill) -> wire.SkillEntry:
        manifest: list[wire.ManifestFile] = []
        frontmatter: dict[str, Any] | None = None
        base = None if skill.summary.read_only else os.path.realpath(skill.summary.directory)
        for relative in self.files(skill):
            data = self._bytes(skill, relative, base)
            if relative == wire.SKILL_FILE:
                frontmatter = _frontmatter(skill, data)
            manifest.append(wire.ManifestFile(
                wire.skill_uri(skill.path, relative), wire.digest(data), len(data)))
        over = wire.over_limits(file.size for file in manifest)
        if over:
            raise Unserved(f"it {over}")
        assert frontmatter is not None
        return wire.SkillEntry(skill.uri, frontmatter, tuple(manifest))

    def page(self, cursor: str | None) -> tuple[list[wire.SkillEntry], str | None]:
        """One page of `skills/list` from `cursor` (None: the first), and the next cursor."""
        start = self._start(cursor)
        entries: list[wire.SkillEntry] = []
        files = 0
        at = start
        while at < len(self.skills) and len(entries) < PAGE_SKILLS and files < PAGE_FILES:
            try:
                entry = self.entry(self.skills[at])
            except Unserved:
                at += 1
                continue
            entries.append(entry)
            files += len(entry.resources)
            at += 1
        return entries, (_cursor(self._keys[at - 1]) if at < len(self.skills) else None)

    def resources_page(self, cursor: str | None) -> tuple[list[dict[str, Any]], str | None]:
        """One page of `resources/list`: every file of up to PAGE_SKILLS skills, each once (a
        nested skill's files under the nested skill)."""
        start = self._start(cursor)
        listed: list[dict[str, Any]] = []
        end = min(start + PAGE_SKILLS, len(self.skills))
        for skill in self.skills[start:end]:
            try:
                files = self.files(skill)
            except Unserved as exc:
                self._refuse(skill, str(exc))
                continue
            for relative in files:
                resource = self._resource(skill, relative)
                if self._owner(resource["uri"])[0] is skill:
                    listed.append(resource)
        return listed, (_cursor(self._keys[end - 1]) if end < len(self.skills) else None)

    def _resource(self, skill: ServedSkill, relative: str) -> dict[str, Any]:
        resource: dict[str, Any] = {
            "uri": wire.skill_uri(skill.path, relative),
            "name": skill.name if relative == wire.SKILL_FILE else relative.rsplit("/", 1)[-1],
            "mimeType": mime_type(relative),
        }
        if relative == wire.SKILL_FILE:
            resource["description"] = (skill.summary.description or "").strip()
        return resource

    def directory(self, uri: str) -> list[dict[str, Any]]:
        """`resources/directory/read`: the direct children of a folder of a served skill (files
        as resources, folders as `inode/directory` resources)."""
        skill, folder = self._owner(uri)
        if folder in self.files(skill):
            raise Unserved(f"{uri} is a file, not a directory resource")
        prefix = f"{folder}/" if folder else ""
        children: dict[str, dict[str, Any]] = {}
        for relative in self.files(skill):
            if not relative.startswith(prefix):
                continue
            head, _, rest = relative[len(prefix):].partition("/")
            if head in children:
                continue
            if rest:
                children[head] = {"uri": wire.directory_uri(skill.path, prefix + head),
                                  "name": head, "mimeType": wire.DIRECTORY_MIME}
            else:
                children[head] = self._resource(skill, relative)
        if not children:
            raise Unserved(f"{uri} is not a folder of a skill served here")
        return list(children.values())

    def _start(self, cursor: str | None) -> int:
        if cursor is None:
            return 0
        try:
            after = base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
        except (binascii.Error, UnicodeError, ValueError):
            raise Unserved(f"the cursor {cursor[:40]!r} was not given by this server") from None
        return bisect_right(self._keys, after)


def _cursor(after: str) -> str:
    return base64.urlsafe_b64encode(after.encode("utf-8")).decode("ascii")


def _path_of(summary: SkillSummary, inside: tuple[str, ...] | None,
             taken: dict[tuple[str, ...], ServedSkill]) -> tuple[str, ...]:
    """The skill path of `summary`: its folder below its root (or below the skill it is nested
    in), under its root's label when another root already has that path."""
    name = summary.name or summary.directory.name
    if inside is not None:
        outer = taken[inside].summary.directory
        parts = (*inside, *summary.directory.relative_to(outer).parts[:-1], name)
    else:
        try:
            below = summary.directory.relative_to(summary.root).parts
        except ValueError:
            below = ()
        parts = (*below[:-1], name)
    if parts in taken:
        parts = (_root_label(summary.root), *parts)
    while parts in taken:
        parts = (f"{parts[0]}-2", *parts[1:])
    return parts


def _root_label(root: Path) -> str:
    """A label for a root that stays the same while the root stays where it is."""
    stem = re.sub(r"[^a-z0-9-]+", "-", root.name.lower()).strip("-") or "root"
    return f"{stem}-{hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:8]}"


def _frontmatter(skill: ServedSkill, data: bytes) -> dict[str, Any]:
    parsed = parse_skill(data, skill.summary.skill_file, directory=skill.summary.directory, files=())
    if parsed.frontmatter is None or not isinstance(parsed.frontmatter.data, dict):
        raise Unserved("its SKILL.md has no frontmatter now")
    frontmatter = wire.json_frontmatter(parsed.frontmatter.data)
    if frontmatter.get("name") != skill.name:
        raise Unserved(f"its SKILL.md now names it {frontmatter.get('name')!r}, not {skill.name!r}")
    return frontmatter


def _zipped_files(summary: SkillSummary) -> tuple[str, ...]:
    """The files of a skill in an archive, from a listing of the archive made once per version
    of it (a read asks for them each time, and an archive can hold thousands of skills)."""
    archive, _inner = _archive_of(summary)
    try:
        info = archive.stat()
    except OSError as exc:
        raise Unserved(f"{archive} cannot be read: {exc.strerror or exc}") from None
    files = _archive_listing(archive, info.st_mtime_ns, info.st_size).get(summary.directory)
    if files is None:
        raise Unserved(f"{summary.directory} is no longer in its archive")
    return files


@functools.lru_cache(maxsize=16)
def _archive_listing(archive: Path, _mtime_ns: int, _size: int) -> dict[Path, tuple[str, ...]]:
    try:
        skills = load_zip_skills(archive)
    except (OSError, zipfile.BadZipFile) as exc:
        raise Unserved(f"{archive} cannot be read as a zip archive: {exc}") from None
    return {skill.directory: tuple(file.relative for file in skill.files) for skill in skills}


def _archive_of(summary: SkillSummary) -> tuple[Path, PurePosixPath]:
    found = enclosing_zip(summary.skill_file)
    if found is None:
        raise Unserved(f"cannot find the archive holding {summary.directory}")
    archive, member = found
    return archive, member.parent


def _zip_bytes(summary: SkillSummary, relative: str) -> bytes:
    archive_path, inner = _archive_of(summary)
    name = summary.skill_file.name if relative == wire.SKILL_FILE else relative
    member = str(PurePosixPath(inner, name))
    with zipfile.ZipFile(archive_path) as archive:
        try:
            info = archive.getinfo(member)
        except KeyError:
            raise Unserved(f"there is no file {relative} in {summary.directory}") from None
        if info.file_size > wire.MAX_TOTAL_BYTES:
            raise Unserved(f"{relative} is larger than a skill may hold")
        with archive.open(info) as handle:
            return handle.read(wire.MAX_TOTAL_BYTES + 1)
