"""Running every rule over a skill, and what the result means: valid, and loadable."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any

from studio.skills.checks.bodyrules import BODY_RULES
from studio.skills.checks.clients import frontmatter_rules
from studio.skills.checks.evalrules import eval_files_rule
from studio.skills.checks.threats import threats_rule
from studio.skills.clients import SPEC
from studio.skills.codes import MISSING_SKILL_FILE
from studio.skills.model import Diagnostic, Severity, Skill
from studio.skills.parse import UNREADABLE_CODES
from studio.skills.summary import SkillSummary, flag, provenance


@dataclass(slots=True)
class ValidationResult:
    skill: Skill
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        # A C loop: a library scan asks this of every skill.
        return Severity.ERROR not in map(_severity, self.diagnostics)

    @property
    def loadable(self) -> bool:
        return is_loadable(self.skill, self.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.skill.directory),
            "name": self.skill.name,
            "valid": self.valid,
            "loadable": self.loadable,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }

    def summary(self, root: Path) -> SkillSummary:
        """What the library keeps of the skill found under `root`: its findings without their
        fixes (open the skill for those)."""
        skill = self.skill
        return SkillSummary(
            root=root,
            directory=skill.directory,
            skill_file=skill.path,
            name=skill.name,
            description=skill.description,
            valid=self.valid,
            loadable=self.loadable,
            diagnostics=tuple(_without_fix(d) for d in self.diagnostics),
            read_only=skill.read_only,
            created_by=provenance(skill, "created-by"),
            created_at=provenance(skill, "created-at"),
            updated_by=provenance(skill, "updated-by"),
            updated_at=provenance(skill, "updated-at"),
            model_invocable=not flag(skill.fields.get("disable-model-invocation"), False),
            user_invocable=flag(skill.fields.get("user-invocable"), True),
        )


def _without_fix(diagnostic: Diagnostic) -> Diagnostic:
    return diagnostic._replace(fix=None) if diagnostic.fix is not None else diagnostic


_severity = attrgetter("severity")
_code = attrgetter("code")
_UNLOADABLE_CODES = UNREADABLE_CODES | {MISSING_SKILL_FILE}


def is_loadable(skill: Skill, diagnostics: list[Diagnostic]) -> bool:
    """Whether a client following the spec's client guide would still load the skill.

    Such clients skip a skill whose file cannot be read or parsed, or which lacks a name or a
    description; they only warn about a name that is too long, badly formed or unlike its folder.
    """
    # Nearly every skill has none of these codes: a set test in C says so before any loop.
    if not _UNLOADABLE_CODES.isdisjoint(map(_code, diagnostics)) and any(
        d.code in _UNLOADABLE_CODES and d.severity is Severity.ERROR for d in diagnostics
    ):
        return False
    name, description = skill.name, skill.description
    return bool(name) and bool(description and description.strip())


def _sort_key(diagnostic: Diagnostic) -> tuple[int, str, int, int]:
    return (0 if diagnostic.file == "SKILL.md" or diagnostic.file == "skill.md" else 1,
            diagnostic.file, diagnostic.line, diagnostic.column)


_file = attrgetter("file")
_place = attrgetter("line", "column")


def _sort(diagnostics: list[Diagnostic]) -> None:
    """SKILL.md's findings first, then by file, line and column."""
    if len(diagnostics) < 2:
        return
    # Most skills' findings are all in SKILL.md: then line and column alone order them, by a
    # key built in C rather than a call for each finding.
    if len(set(map(_file, diagnostics))) == 1:
        diagnostics.sort(key=_place)
    else:
        diagnostics.sort(key=_sort_key)


def validate_skill(skill: Skill, target: str = SPEC, *, fixes: bool = True) -> ValidationResult:
    """Every diagnostic for a skill, judged as `target` (a key of `studio.skills.checks.clients`)
    treats it; without `fixes`, the same diagnostics with none (what a library scan keeps)."""
    diagnostics = list(skill.problems)
    if skill.frontmatter is not None:
        for rule in frontmatter_rules(target, fixes):
            diagnostics.extend(rule(skill))
    if skill.source:
        for body_rule in BODY_RULES:
            diagnostics.extend(body_rule(skill))
        diagnostics.extend(threats_rule(skill))
    diagnostics.extend(eval_files_rule(skill))
    _sort(diagnostics)
    return ValidationResult(skill, diagnostics)

