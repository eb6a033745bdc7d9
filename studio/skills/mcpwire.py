"""The MCP Skills extension's wire format (SEP-2640, `io.modelcontextprotocol/skills`), for both
ends: `studio mcp` serving a library, and the studio reading skills a server serves. Plain data
and JSON only (no MCP SDK, no Qt), so either side imports it: `from studio.skills import mcpwire`.

A skill is addressed by the URI of its SKILL.md, `skill://<skill-path>/SKILL.md`, where the
skill path's last segment is the skill's name and any segments before it are the server's own
prefix; every file of the skill is a resource under the same path. An entry (`skills/list`,
`skills/get`) carries the frontmatter as written (as JSON) and a manifest of every file with the
SHA-256 of its bytes and their length. Specification: modelcontextprotocol/ext-skills,
specification/stable/skills.mdx (base protocol revision 2026-07-28).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote, unquote, urlsplit

from studio.errors import StudioError

EXTENSION_ID = "io.modelcontextprotocol/skills"
LIST = "skills/list"
GET = "skills/get"
DIRECTORY_READ = "resources/directory/read"
# The capability's one setting: the server answers `resources/directory/read`.
DIRECTORY_READ_SETTING = "directoryRead"
SCHEME = "skill"
SKILL_FILE = "SKILL.md"
DIRECTORY_MIME = "inode/directory"
DYNAMIC = "dynamic"
# What every conforming host must accept of one skill; a server should not serve more.
MAX_FILES = 512
MAX_TOTAL_BYTES = 16 * 1024 * 1024
# JSON-RPC's code for a URI the server does not serve (as `resources/read` uses it).
INVALID_PARAMS = -32602

_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Characters a URI segment keeps as they are (RFC 3986 unreserved); others are percent-encoded.
_SEGMENT_SAFE = "-._~"


class WireError(ValueError, StudioError):
    """Something on the wire that breaks the extension's rules; the message says what and where."""


def digest(data: bytes) -> str:
    """The manifest's digest of `data`: `sha256:` and 64 lowercase hex digits."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def skill_uri(skill_path: Sequence[str], file: str = SKILL_FILE) -> str:
    """`skill://<skill-path>/<file>`: `file` is relative to the skill's folder, `/`-separated."""
    return directory_uri(skill_path, file)


def directory_uri(skill_path: Sequence[str], folder: str = "") -> str:
    """The URI of a folder of a skill (the skill's own folder when `folder` is empty), without
    a trailing slash, as directory resources are written."""
    if not skill_path:
        raise WireError("a skill path has at least one segment, the skill's name")
    parts = [*skill_path, *(part for part in folder.split("/") if part)]
    return f"{SCHEME}://" + "/".join(quote(part, safe=_SEGMENT_SAFE) for part in parts)


def split_uri(uri: str) -> tuple[str, ...]:
    """The segments of a `skill://` URI (authority first), decoded. Raises WireError for another
    scheme, a query or fragment, an empty, `.` or `..` segment, or one holding `/` or `\\`."""
    parsed = urlsplit(uri)
    if parsed.scheme.lower() != SCHEME:
        raise WireError(f"{uri!r} is not a {SCHEME}:// URI")
    if parsed.query or parsed.fragment or "?" in uri or "#" in uri:
        raise WireError(f"{uri!r} has a query or fragment; skill URIs have neither")
    raw = [parsed.netloc, *parsed.path.split("/")[1:]] if parsed.path else [parsed.netloc]
    segments = tuple(unquote(part) for part in raw)
    for part in segments:
        if part in ("", ".", "..") or "/" in part or "\\" in part or "\x00" in part:
            raise WireError(f"{uri!r} has an empty, `.`, `..` or unsafe segment")
    return segments


@dataclass(frozen=True, slots=True)
class ManifestFile:
    """One file of a skill: its resource URI, the SHA-256 of its bytes and their length."""

    uri: str
    digest: str
    size: int

    def to_wire(self) -> dict[str, Any]:
        return {"uri": self.uri, "digest": self.digest, "size": self.size}


@dataclass(frozen=True, slots=True)
class SkillEntry:
    """A skill as `skills/list` and `skills/get` give it.

    Attributes:
        uri: the URI of its SKILL.md.
        frontmatter: its SKILL.md's frontmatter as written, as JSON values.
        resources: every file (SKILL.md included, each once), or "dynamic" when the server
            cannot give stable digests.
    """

    uri: str
    frontmatter: Mapping[str, Any]
    resources: tuple[ManifestFile, ...] | Literal["dynamic"]

    @property
    def name(self) -> str:
        return str(self.frontmatter["name"])

    def to_wire(self) -> dict[str, Any]:
        resources: Any = (self.resources if isinstance(self.resources, str)
                          else [file.to_wire() for file in self.resources])
        return {"uri": self.uri, "frontmatter": dict(self.frontmatter), "resources": resources}


def entry_from_wire(value: object) -> SkillEntry:
    """A skill entry read from the wire and checked against the extension's rules (the URI ends
    in `<name>/SKILL.md`, the manifest is complete, inside the skill, without repeats, with
    well-formed digests and sizes, within the limits). Raises WireError saying what is wrong."""
    if not isinstance(value, Mapping):
        raise WireError("a skill entry must be an object")
    uri, frontmatter, resources = value.get("uri"), value.get("frontmatter"), value.get("resources")
    if not isinstance(uri, str):
        raise WireError("a skill entry has no `uri`")
    segments = split_uri(uri)
    if len(segments) < 2 or segments[-1] != SKILL_FILE:
        raise WireError(f"{uri!r} does not name a skill's {SKILL_FILE}")
    if not isinstance(frontmatter, Mapping):
        raise WireError(f"the entry for {uri} has no `frontmatter` object")
    name, description = frontmatter.get("name"), frontmatter.get("description")
    if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > 64:
        raise WireError(f"the entry for {uri} has no valid `name` in its frontmatter")
    if name != segments[-2]:
        raise WireError(f"{uri!r} must end in `{name}/{SKILL_FILE}`, the skill's name")
    if not isinstance(description, str) or not description.strip():
        raise WireError(f"the entry for {uri} has no `description` in its frontmatter")
    if resources == DYNAMIC:
        return SkillEntry(uri, dict(frontmatter), "dynamic")
    if not isinstance(resources, list):
        raise WireError(f"the entry for {uri} has no `resources` list (nor \"dynamic\")")
    files = tuple(_file_from_wire(item, uri) for item in resources)
    check_manifest(uri, files)
    return SkillEntry(uri, dict(frontmatter), files)


def _file_from_wire(value: object, skill: str) -> ManifestFile:
    if not isinstance(value, Mapping):
        raise WireError(f"a resource of {skill} is not an object")
    uri, found, size = value.get("uri"), value.get("digest"), value.get("size")
    if not isinstance(uri, str):
        raise WireError(f"a resource of {skill} has no `uri`")
    if not isinstance(found, str) or not _DIGEST.fullmatch(found):
        raise WireError(f"{uri} has no digest of the form sha256:<64 lowercase hex digits>")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise WireError(f"{uri} has no size in bytes")
    return ManifestFile(uri, found, size)


def check_manifest(skill: str, files: Sequence[ManifestFile]) -> None:
    """Raise WireError unless `files` is a manifest of the skill at `skill` (its SKILL.md URI):
    SKILL.md listed, every file inside the skill's folder and listed once, within the limits."""
    root = split_uri(skill)[:-1]
    seen: set[str] = set()
    for file in files:
        if file.uri in seen:
            raise WireError(f"{file.uri} is listed twice in the manifest of {skill}")
        seen.add(file.uri)
        inside = split_uri(file.uri)
        if len(inside) <= len(root) or inside[:len(root)] != root:
            raise WireError(f"{file.uri} is not inside the folder of {skill}")
    if skill not in seen:
        raise WireError(f"the manifest of {skill} does not list its {SKILL_FILE}")
    over = over_limits(file.size for file in files)
    if over:
        raise WireError(f"{skill} {over}")


def over_limits(sizes: Iterable[int]) -> str | None:
    """What a skill of files of these sizes exceeds ("has 600 files, over 512"), or None."""
    listed = list(sizes)
    if len(listed) > MAX_FILES:
        return f"has {len(listed)} files, over the {MAX_FILES} a host must accept"
    total = sum(listed)
    if total > MAX_TOTAL_BYTES:
        return f"holds {total:,} bytes, over the {MAX_TOTAL_BYTES:,} a host must accept"
    return None


class NotJson(WireError):
    """A frontmatter value JSON cannot carry as written (a date, an infinite number, ...)."""


def json_frontmatter(data: Mapping[Any, Any]) -> dict[str, Any]:
    """The frontmatter as the JSON object an entry carries, unchanged. Raises NotJson naming the
    field whose value JSON has no form for (a YAML date, `.inf`, a key that is not text): such a
    value cannot be carried "as written", so the caller does not serve the skill."""
    return _json_value(dict(data), "")  # type: ignore[no-any-return]


def _json_value(value: Any, where: str) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJson(f"`{where}` is {value}, a number JSON cannot carry; quote it")
        return value
    if isinstance(value, list):
        return [_json_value(item, f"{where}[{at}]") for at, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJson(f"`{where}` has the key {key!r}, which is not text; quote it")
            out[key] = _json_value(item, f"{where}.{key}" if where else key)
        return out
    raise NotJson(f"`{where}` is a YAML {type(value).__name__} ({value}), which JSON has no form "
                  "for; quote it to make it text")
