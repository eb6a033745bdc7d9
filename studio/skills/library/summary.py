"""What the library keeps of each skill: enough to list, filter and report it without the text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from studio.skills.checks.validate import ValidationResult, is_loadable
from studio.skills.model import Diagnostic, Severity, Skill

CachedDiagnostic = tuple[str, str, str, int, int, str, str | None]

_SEVERITIES = {severity.value: severity for severity in Severity}
# What `created-by` / `updated-by` say when a person, not a model, made the change.
USER = "user"
PROVENANCE_KEYS = ("created-by", "created-at", "updated-by", "updated-at")


@dataclass(frozen=True, slots=True)
class SkillSummary:
    """One skill as the library lists it.

    Attributes:
        root: the root it was found under.
        directory: the skill's folder (inside a zip: `archive.zip/folder`).
        skill_file: its SKILL.md.
        name, description: the frontmatter's, when they are strings.
        valid: no errors. loadable: a lenient client would load it.
        diagnostics: everything the validator said, without fixes (open the skill for those).
        read_only: it lives in an archive.
        created_by, created_at, updated_by, updated_at: its provenance, from `metadata:` (the
            model or "user" that drafted or last changed it, and when), as text.
        checked: False while only its SKILL.md has been read (the window lists a cold library
            before validating it: `studio.skills.library.listed_first`); then `valid` says
            nothing yet, `diagnostics` is empty and the checked summary replaces it.
    """

    root: Path
    directory: Path
    skill_file: Path
    name: str | None
    description: str | None
    valid: bool
    loadable: bool
    diagnostics: tuple[Diagnostic, ...]
    read_only: bool = False
    created_by: str | None = None
    created_at: str | None = None
    updated_by: str | None = None
    updated_at: str | None = None
    # Claude Code's `disable-model-invocation` and `user-invocable`: whether the model may load
    # the skill on its own, and whether the user may invoke it by name (`/NAME`).
    model_invocable: bool = True
    user_invocable: bool = True
    checked: bool = True

    @property
    def display_name(self) -> str:
        return self.name or self.directory.name

    @property
    def drafted_by(self) -> str | None:
        """The model that created or last changed the skill, if a model did."""
        return next((who for who in (self.updated_by, self.created_by) if who and who != USER),
                    None)

    @property
    def status(self) -> str:
        """One of "checking", "not-loadable", "errors", "warnings", "valid": what a status icon
        shows."""
        if not self.checked:
            return "checking"
        if not self.loadable:
            return "not-loadable"
        if not self.valid:
            return "errors"
        if any(d.severity is Severity.WARNING for d in self.diagnostics):
            return "warnings"
        return "valid"

    @property
    def first_problem(self) -> Diagnostic | None:
        ranked = sorted(
            self.diagnostics,
            key=lambda d: ({"error": 0, "warning": 1, "info": 2}[str(d.severity)], d.line),
        )
        return ranked[0] if ranked else None

    def with_extra(self, extra: list[Diagnostic]) -> SkillSummary:
        return replace(self, diagnostics=self.diagnostics + tuple(extra))

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.directory),
            "name": self.name,
            "valid": self.valid,
            "loadable": self.loadable,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }

    @classmethod
    def from_result(cls, root: Path, result: ValidationResult) -> SkillSummary:
        skill = result.skill
        description = skill.description
        return cls(
            root=root,
            directory=skill.directory,
            skill_file=skill.path,
            name=skill.name,
            description=description,
            valid=result.valid,
            loadable=result.loadable,
            diagnostics=tuple(_without_fix(d) for d in result.diagnostics),
            read_only=skill.read_only,
            created_by=_provenance(skill, "created-by"),
            created_at=_provenance(skill, "created-at"),
            updated_by=_provenance(skill, "updated-by"),
            updated_at=_provenance(skill, "updated-at"),
            model_invocable=not flag(skill.fields.get("disable-model-invocation"), False),
            user_invocable=flag(skill.fields.get("user-invocable"), True),
        )

    def to_cache(self) -> tuple[Any, ...]:
        return (
            str(self.directory), str(self.skill_file), self.name, self.description, self.valid,
            self.loadable, self.read_only, _cached_diagnostics(self.diagnostics),
            (self.created_by, self.created_at, self.updated_by, self.updated_at,
             self.model_invocable, self.user_invocable),
        )

    @classmethod
    def from_cache(cls, root: Path, data: tuple[Any, ...]) -> SkillSummary:
        directory, skill_file, name, description, valid, loadable, read_only, diags, made = data
        folder = Path(directory)
        parent, _, file_name = skill_file.rpartition("/")
        severity = _SEVERITIES.__getitem__
        return cls(
            root,
            folder,
            folder / file_name if parent == directory else Path(skill_file),
            name,
            description,
            valid,
            loadable,
            tuple(
                Diagnostic(code, severity(sev), message, line, column, None, None, None, file, field)
                for code, sev, message, line, column, file, field in diags
            ),
            read_only,
            *made,
        )


    @classmethod
    def from_listing(cls, root: Path, data: tuple[Any, ...]) -> SkillSummary:
        """An unchecked summary from a `listing_entry` tuple."""
        directory, skill_file, name, description, loadable, made = data
        created_by, created_at, updated_by, updated_at, model_invocable, user_invocable = made
        folder = Path(directory)
        parent, _, file_name = skill_file.rpartition("/")
        path = folder / file_name if parent == directory else Path(skill_file)
        return cls(root, folder, path, name, description, False, loadable,
                   (), False, created_by, created_at, updated_by, updated_at, model_invocable,
                   user_invocable, checked=False)


# A `listing_entry` tuple has this many items; a cache tuple (`to_cache`) has nine.
LISTING_LENGTH = 6


def listing_entry(skill: Skill) -> tuple[Any, ...]:
    """What the library shows of a skill whose SKILL.md alone has been read: its name,
    description, whether a client would load it, its provenance and invocation flags, as
    `cache_entry` gives them (`SkillSummary.from_listing` reads it)."""
    return (str(skill.directory), str(skill.path), skill.name, skill.description,
            is_loadable(skill, skill.problems), _made(skill))


_TRUE_WORDS = frozenset({"true", "yes", "on"})
_FALSE_WORDS = frozenset({"false", "no", "off"})


def flag(value: Any, default: bool) -> bool:
    """A boolean field as Claude Code reads it: true/false, or yes/no/on/off as words."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    return default


def _provenance(skill: Skill, key: str) -> str | None:
    """A provenance entry of `metadata:` as text (YAML may have read a time unquoted as one)."""
    value = skill.metadata.get(key)
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, datetime | date):
        return value.isoformat()
    return None


def _without_fix(diagnostic: Diagnostic) -> Diagnostic:
    return diagnostic._replace(fix=None) if diagnostic.fix is not None else diagnostic


# A severity's value by a dict lookup: `Severity.value` is a Python-level descriptor, and a
# library scan asks it of every diagnostic.
_VALUES = {severity: severity.value for severity in Severity}


def _cached_diagnostics(diagnostics: Iterable[Diagnostic]) -> tuple[CachedDiagnostic, ...]:
    values = _VALUES
    return tuple([
        (d.code, values[d.severity], d.message, d.line, d.column, d.file, d.field)
        for d in diagnostics
    ])


def cache_entry(result: ValidationResult) -> tuple[Any, ...]:
    """`SkillSummary.from_result(root, result).to_cache()`, without the summary in between: a
    worker process validating thousands of skills only sends these tuples back."""
    skill = result.skill
    return (
        str(skill.directory), str(skill.path), skill.name, skill.description, result.valid,
        result.loadable, skill.read_only, _cached_diagnostics(result.diagnostics), _made(skill),
    )


def _made(skill: Skill) -> tuple[Any, ...]:
    """The provenance and the invocation flags, as a cache tuple keeps them."""
    fields = skill.fields
    # Most skills keep no provenance: one look at `metadata` spares four.
    made = (*(_provenance(skill, key) for key in PROVENANCE_KEYS),) if fields.get("metadata") \
        else _NO_PROVENANCE
    # Most skills set neither flag: a missing one is its default without a call.
    model_only = fields.get("disable-model-invocation")
    user = fields.get("user-invocable")
    return (*made, model_only is None or not flag(model_only, False),
            user is None or flag(user, True))


_NO_PROVENANCE = (None,) * len(PROVENANCE_KEYS)
