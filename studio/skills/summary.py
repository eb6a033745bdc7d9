"""What the library keeps of each skill: enough to list, filter and report it without the text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from studio.skills.model import Diagnostic, Severity
from studio.skills.validate import ValidationResult

CachedDiagnostic = tuple[str, str, str, int, int, str, str | None]

_SEVERITIES = {severity.value: severity for severity in Severity}


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

    @property
    def display_name(self) -> str:
        return self.name or self.directory.name

    @property
    def status(self) -> str:
        """One of "not-loadable", "errors", "warnings", "valid": what a status icon shows."""
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
        )

    def to_cache(self) -> tuple[Any, ...]:
        return (
            str(self.directory), str(self.skill_file), self.name, self.description, self.valid,
            self.loadable, self.read_only, _cached_diagnostics(self.diagnostics),
        )

    @classmethod
    def from_cache(cls, root: Path, data: tuple[Any, ...]) -> SkillSummary:
        directory, skill_file, name, description, valid, loadable, read_only, diags = data
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
        )


def _without_fix(diagnostic: Diagnostic) -> Diagnostic:
    return diagnostic._replace(fix=None) if diagnostic.fix is not None else diagnostic


def _cached_diagnostics(diagnostics: Iterable[Diagnostic]) -> tuple[CachedDiagnostic, ...]:
    return tuple(
        (d.code, d.severity.value, d.message, d.line, d.column, d.file, d.field) for d in diagnostics
    )


def cache_entry(result: ValidationResult) -> tuple[Any, ...]:
    """`SkillSummary.from_result(root, result).to_cache()`, without the summary in between: a
    worker process validating thousands of skills only sends these tuples back."""
    skill = result.skill
    return (
        str(skill.directory), str(skill.path), skill.name, skill.description, result.valid,
        result.loadable, skill.read_only, _cached_diagnostics(result.diagnostics),
    )
