"""What a server's `skills/list` says of a skill, checked before anything else is asked of it.

An entry is `{uri, frontmatter, resources: [{uri, digest, size}] | "dynamic", _meta}` (SEP-2640).
Everything in it comes from the server, so each part is checked against what is known to be
safe, and bounded: the name is the Agent Skills name (lowercase letters, digits and single
hyphens) and the last segment of the skill's URI; every file's URI lies inside the skill's, its
path is made of plain segments (no `.`, `..`, separators, controls or empty parts), each path once
(also ignoring case, as a Mac or Windows disk would); the digest is `sha256:` and 64 hex digits;
counts and sizes stay under `Limits`. A skill served as "dynamic" has no manifest to verify and
is not used.

A file `X/SKILL.md` inside a skill is a nested skill: its folder is left out of the parent, so
it never reaches a model under the parent's consent; the server lists it as a skill of its own
when it means it to be one."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from studio.skills.served.source import ServedError

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
SKILL_FILE = "SKILL.md"


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one server may hand the studio.

    Attributes:
        pages: `skills/list` pages read at most (a server that pages forever is cut off here).
        skills: skills listed at most.
        files: files in one skill's manifest at most.
        skill_bytes: the bytes of one skill's files together at most.
        total_bytes: the bytes fetched from one server at most.
        entry_bytes: the JSON of one entry's frontmatter at most.
        uri_chars: the length of one URI at most.
        seconds: how long one server may take to answer everything.
    """

    pages: int = 100
    skills: int = 1000
    files: int = 512
    skill_bytes: int = 16 * 1024 * 1024
    total_bytes: int = 64 * 1024 * 1024
    entry_bytes: int = 64 * 1024
    uri_chars: int = 2048
    seconds: float = 120.0


@dataclass(frozen=True, slots=True)
class ServedFile:
    """One file of a served skill, as the manifest promises it.

    Attributes:
        path: its path inside the skill's folder (POSIX, plain segments).
        uri: the resource to read it from.
        size: its size in bytes.
        digest: `sha256:` and the hex digest of its bytes.
    """

    path: str
    uri: str
    size: int
    digest: str


@dataclass(frozen=True, slots=True)
class ServedSkill:
    """One skill a server lists, checked.

    Attributes:
        name: its name (the frontmatter's, equal to the last segment of its URI).
        description: the frontmatter's description, as the server wrote it (untrusted text).
        uri: its SKILL.md's URI.
        files: every file of it, SKILL.md among them, sorted by path.
        left_out: paths of nested skills' files kept out of this one.
        frontmatter: the frontmatter as served.
    """

    name: str
    description: str
    uri: str
    files: tuple[ServedFile, ...]
    left_out: tuple[str, ...]
    frontmatter: dict[str, Any]

    @property
    def size(self) -> int:
        return sum(file.size for file in self.files)

    @property
    def manifest_digest(self) -> str:
        """The hash of what the user consents to: the URI, the frontmatter and every file's
        path, size and digest. Any change to any of them asks again."""
        data = {
            "uri": self.uri, "frontmatter": self.frontmatter,
            "files": [[f.path, f.size, f.digest] for f in self.files],
        }
        text = json.dumps(data, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def _segments(uri: str, limits: Limits, where: str) -> tuple[str, str, tuple[str, ...]]:
    """A URI's scheme, authority and decoded path segments, each checked."""
    if not isinstance(uri, str) or not uri or len(uri) > limits.uri_chars:
        raise ServedError(f"{where}: a URI is missing or over {limits.uri_chars} characters")
    parts = urlsplit(uri)
    if not parts.scheme or parts.query or parts.fragment:
        raise ServedError(f"{where}: {uri!r} is not a plain resource URI (scheme, no query)")
    authority = unquote(parts.netloc)
    if authority:
        _check_segment(authority, uri, where)
    raw = parts.path.split("/")
    if raw and raw[0] == "":
        raw = raw[1:]
    segments = tuple(unquote(segment) for segment in raw)
    for segment in segments:
        _check_segment(segment, uri, where)
    return parts.scheme.lower(), authority, segments


def _check_segment(segment: str, uri: str, where: str) -> None:
    bad = (
        segment in ("", ".", "..") or "/" in segment or "\\" in segment or ":" in segment
        or len(segment.encode("utf-8", "surrogatepass")) > 255
        or any(unicodedata.category(c)[0] in "CZ" and c != " " for c in segment)
        or segment != segment.strip()
    )
    if bad:
        raise ServedError(f"{where}: {uri!r} has a path segment that cannot be a file name "
                          "(empty, `.`, `..`, a separator, a control character or spaces at "
                          "an end)")


def check_entry(entry: object, server: str, limits: Limits) -> ServedSkill:
    """One `skills/list` entry as a `ServedSkill`. Raises ServedError naming the server and
    the skill, with what is wrong."""
    if not isinstance(entry, dict):
        raise ServedError(f"{server}: a skills/list entry is not an object")
    uri = entry.get("uri")
    where = f"{server}: skill {uri!r}"[:300]
    scheme, authority, segments = _segments(uri if isinstance(uri, str) else "", limits, where)
    assert isinstance(uri, str)
    if not segments or segments[-1] != SKILL_FILE:
        raise ServedError(f"{where}: its URI does not end in /{SKILL_FILE}")
    base = (authority, *segments[:-1]) if authority else segments[:-1]
    if not base:
        raise ServedError(f"{where}: its URI names no folder for the skill")
    frontmatter = entry.get("frontmatter")
    if not isinstance(frontmatter, dict):
        raise ServedError(f"{where}: no frontmatter object")
    try:
        encoded = json.dumps(frontmatter, allow_nan=False)
    except (TypeError, ValueError):
        raise ServedError(f"{where}: its frontmatter is not plain JSON") from None
    if len(encoded) > limits.entry_bytes:
        raise ServedError(f"{where}: its frontmatter is over {limits.entry_bytes // 1024} KiB")
    name, description = frontmatter.get("name"), frontmatter.get("description")
    if not isinstance(name, str) or len(name) > 64 or not _NAME.fullmatch(name):
        raise ServedError(f"{where}: its name {str(name)[:80]!r} is not a skill name (lowercase "
                          "letters, digits and single hyphens, at most 64)")
    if name != base[-1]:
        raise ServedError(f"{where}: it is named {name!r} but its URI's folder is {base[-1]!r}")
    if not isinstance(description, str) or not description.strip():
        raise ServedError(f"{where}: it has no description")
    resources = entry.get("resources")
    if resources == "dynamic":
        raise ServedError(f"{where}: the server serves it as \"dynamic\", with no manifest of "
                          "its files; the studio uses only skills whose every file it can verify")
    if not isinstance(resources, list):
        raise ServedError(f"{where}: no list of resources (its manifest)")
    if len(resources) > limits.files:
        raise ServedError(f"{where}: its manifest lists {len(resources):,} files, over the "
                          f"{limits.files:,} a skill may have")
    files = _files(resources, scheme, authority, segments[:-1], where, limits)
    if SKILL_FILE not in {file.path for file in files}:
        raise ServedError(f"{where}: its manifest does not list its {SKILL_FILE}")
    total = sum(file.size for file in files)
    if total > limits.skill_bytes:
        raise ServedError(f"{where}: its files add up to {total:,} bytes, over the "
                          f"{limits.skill_bytes:,} a skill may take")
    nested = sorted({f.path.rsplit("/", 1)[0] + "/" for f in files
                     if f.path.endswith("/" + SKILL_FILE)})
    kept = tuple(f for f in files if not any(f.path.startswith(n) for n in nested))
    left_out = tuple(f.path for f in files if f not in kept)
    return ServedSkill(name, description, uri, kept, left_out, frontmatter)


def _files(resources: list[Any], scheme: str, authority: str, folder: tuple[str, ...],
           where: str, limits: Limits) -> tuple[ServedFile, ...]:
    files: dict[str, ServedFile] = {}
    folded: set[str] = set()
    for resource in resources:
        if not isinstance(resource, dict) or set(resource) - {"uri", "digest", "size"}:
            raise ServedError(f"{where}: a manifest entry is not {{uri, digest, size}}")
        uri, digest, size = resource.get("uri"), resource.get("digest"), resource.get("size")
        their_scheme, their_authority, segments = _segments(
            uri if isinstance(uri, str) else "", limits, where)
        assert isinstance(uri, str)
        inside = (their_scheme == scheme and their_authority == authority
                  and len(segments) > len(folder) and segments[:len(folder)] == folder)
        if not inside:
            raise ServedError(f"{where}: the manifest lists {uri!r}, which is outside the "
                              "skill's folder")
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            raise ServedError(f"{where}: {uri!r} has no sha256:<64 hex digits> digest")
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= limits.skill_bytes:
            raise ServedError(f"{where}: {uri!r} has no size from 0 to {limits.skill_bytes:,}")
        path = "/".join(segments[len(folder):])
        key = unicodedata.normalize("NFC", path).casefold()
        if path in files or key in folded:
            raise ServedError(f"{where}: the manifest lists the file {path!r} twice")
        folded.add(key)
        files[path] = ServedFile(path, uri, size, digest)
    for path in files:
        folder_part = path.rsplit("/", 1)[0] if "/" in path else ""
        while folder_part:
            if folder_part in files:
                raise ServedError(f"{where}: the manifest lists {folder_part!r} both as a file "
                                  "and as a folder")
            folder_part = folder_part.rsplit("/", 1)[0] if "/" in folder_part else ""
    return tuple(files[path] for path in sorted(files))
