"""What the library keeps of each skill: enough to list, filter and report it without the text.

One parse feeds both: the full `Skill` for the editor and the validator, and its `SkillSummary`
(`ValidationResult.summary`) for the library, the catalog and the agent. How a scan carries a
summary between processes and in its cache is the scan's own affair (`studio.skills.scan`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from studio.skills.model import Diagnostic, Severity, Skill

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
            before validating it: `studio.skills.scan.listed_first`); then `valid` says
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


def provenance(skill: Skill, key: str) -> str | None:
    """A provenance entry of `metadata:` as text (YAML may have read a time unquoted as one)."""
    value = skill.metadata.get(key)
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, datetime | date):
        return value.isoformat()
    return None
