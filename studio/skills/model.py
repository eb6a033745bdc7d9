"""The one `Skill` model that the library, the editor, the validator and the agent all read.

Lines and columns are 1-based everywhere, as editors and compilers print them. Offsets are indexes
into `Skill.source`, the file's text exactly as decoded (BOM and line endings kept), so a fix can
rewrite only the characters it must.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

SKILL_FILE = "SKILL.md"
LOWERCASE_SKILL_FILE = "skill.md"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Span(NamedTuple):
    """A region of the source: where it starts and ends, and the offsets of both ends.

    A named tuple rather than a frozen dataclass: a parse makes about ten of them per skill, and
    a tuple is built several times faster."""

    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace `source[start:end]` with `new_text`."""

    start: int
    end: int
    new_text: str


class Fix:
    """A machine-applicable change: text edits to SKILL.md and/or renaming the skill's folder.

    Its title says what it does. Its edits may be given, or planned: built on first use by
    `plan`, since validating a library offers thousands of fixes and nearly none is taken.

    Attributes:
        title: what the fix does, in a few words.
        rename_directory_to: the folder's new name, when the fix renames it.
        edits: the text edits (built on first use when planned).
    """

    __slots__ = ("_edits", "_plan", "rename_directory_to", "title")

    def __init__(
        self, title: str, edits: tuple[TextEdit, ...] = (),
        rename_directory_to: str | None = None, *,
        plan: Callable[[], tuple[TextEdit, ...]] | None = None,
    ) -> None:
        self.title = title
        self.rename_directory_to = rename_directory_to
        self._edits = edits
        self._plan = plan

    @property
    def edits(self) -> tuple[TextEdit, ...]:
        if self._plan is not None:
            self._edits, self._plan = self._plan(), None
        return self._edits

    def _key(self) -> tuple[str, tuple[TextEdit, ...], str | None]:
        return self.title, self.edits, self.rename_directory_to

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fix) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        planned = ", planned" if self._plan is not None else ""
        return (f"Fix({self.title!r}, {self._edits!r}, {self.rename_directory_to!r}{planned})")


class Diagnostic(NamedTuple):
    """A finding: its code, how bad it is, what it says, where, and a fix where one is clear.

    A named tuple, like `Span`: validating a library makes and copies a few of them per skill,
    and a tuple is built several times faster than a frozen dataclass."""

    code: str
    severity: Severity
    message: str
    line: int = 1
    column: int = 1
    fix: Fix | None = None
    end_line: int | None = None
    end_column: int | None = None
    file: str = SKILL_FILE
    field: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "file": self.file,
        }
        if self.field is not None:
            data["field"] = self.field
        if self.fix is not None:
            data["fix"] = self.fix.title
        return data


class RootNotice(NamedTuple):
    """A finding about a root rather than about one skill (a link the walk did not follow).

    Attributes:
        code: its code (`SK3xx`).
        path: the file or folder it is about.
        message: what happened and what to do.
    """

    code: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}


class FieldSpans(NamedTuple):
    """Where a top-level frontmatter field's key and value stand in the source."""

    key: Span
    value: Span


@dataclass(slots=True)
class Frontmatter:
    """The YAML between the `---` lines: its raw text, what it parsed to, and where each field is.

    `flow` is set when the whole mapping is written `{...}` on its own, where line-based edits
    (adding or moving a field) do not apply.
    """

    raw: str
    data: dict[str, Any]
    spans: dict[str, FieldSpans]
    span: Span
    duplicate_keys: list[tuple[str, Span]] = field(default_factory=list)
    flow: bool = False


class SkillFile(NamedTuple):
    """A file inside a skill folder, by its path relative to the folder (POSIX separators).

    The path is kept as text: a skill can have thousands of files, a validation only compares
    their paths as text, and a PurePosixPath costs more to build than the file's stat. A named
    tuple, like `Span`: a library scan makes one per file, a dozen per skill."""

    relative: str
    # None where a library scan did not read them (`list_skill_files` without sizes).
    size: int | None
    executable: bool | None
    has_shebang: bool | None = None

    @property
    def path(self) -> PurePosixPath:
        return PurePosixPath(self.relative)


@dataclass(slots=True)
class Skill:
    """A parsed skill: its SKILL.md text, frontmatter, body and the files beside it.

    Attributes:
        path: the SKILL.md file (inside a zip: `archive.zip/dir/SKILL.md`).
        directory: the skill's folder.
        dir_name: the folder's name, which `name:` must equal.
        source: the file's text as decoded, or "" when it could not be read as text.
        source_bytes: the UTF-8 bytes `source` was decoded from (b"" when built without them):
            the threat rule looks for hidden characters in them without encoding the text again.
        frontmatter: the parsed frontmatter, or None when it is missing or unparseable.
        body: the Markdown after the frontmatter.
        body_span: where the body starts and ends.
        problems: what went wrong while reading and parsing (the validator adds the rest).
        files: the other files of the skill, for link checks and the agent's file list.
        read_only: whether the skill lives in an archive.
        evals_entry: whether the skill's folder holds an entry named `evals`, as the listing
            that found the skill saw it; None when no listing was at hand. Most skills have no
            eval files, and a library scan learns so from the listing without a `stat`.
    """

    path: Path
    directory: Path
    dir_name: str
    source: str
    frontmatter: Frontmatter | None
    body: str
    body_span: Span
    problems: list[Diagnostic] = field(default_factory=list)
    files: tuple[SkillFile, ...] = ()
    read_only: bool = False
    evals_entry: bool | None = None
    source_bytes: bytes = b""

    @property
    def fields(self) -> dict[str, Any]:
        return self.frontmatter.data if self.frontmatter is not None else {}

    def text_field(self, key: str) -> str | None:
        value = self.fields.get(key)
        return value if isinstance(value, str) else None

    @property
    def name(self) -> str | None:
        value = self.text_field("name")
        return value.strip() if value is not None else None

    @property
    def display_name(self) -> str:
        return self.name or self.dir_name

    @property
    def description(self) -> str | None:
        return self.text_field("description")

    @property
    def license(self) -> str | None:
        return self.text_field("license")

    @property
    def compatibility(self) -> str | None:
        return self.text_field("compatibility")

    @property
    def allowed_tools(self) -> list[str] | None:
        """`allowed-tools` as a list of tool patterns, whether written as a string or a list."""
        value = self.fields.get("allowed-tools")
        if isinstance(value, str):
            return value.split()
        if isinstance(value, list):
            return [str(item) for item in value]
        return None

    @property
    def metadata(self) -> dict[str, Any]:
        value = self.fields.get("metadata")
        return value if isinstance(value, dict) else {}

    @property
    def skill_file_name(self) -> str:
        return self.path.name

    def field_spans(self, key: str) -> FieldSpans | None:
        if self.frontmatter is None:
            return None
        return self.frontmatter.spans.get(key)
