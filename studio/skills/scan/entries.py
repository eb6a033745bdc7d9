"""How a scan carries a skill between processes and keeps it in its cache: as plain tuples,
which `marshal` writes and reads in C and a worker builds without a summary in between. Private
to the scan: nothing else reads these tuples (a test keeps it so); callers get `SkillSummary`s.

A cache tuple: (folder, SKILL.md, name, description, valid, loadable, read-only, findings,
made); each finding (code, severity, message, line, column, file, field); `made` the provenance
and the invocation flags. A listing tuple (a skill whose SKILL.md alone was read) has
`LISTING_LENGTH` items: (folder, SKILL.md, name, description, loadable, made).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from studio.skills.checks.validate import ValidationResult, is_loadable
from studio.skills.model import Diagnostic, Severity, Skill
from studio.skills.summary import PROVENANCE_KEYS, SkillSummary, flag, provenance

CachedDiagnostic = tuple[str, str, str, int, int, str, str | None]

_SEVERITIES = {severity.value: severity for severity in Severity}
# A listing tuple has this many items; a cache tuple nine.
LISTING_LENGTH = 6


class ScannedSkill(NamedTuple):
    """A validated skill as a scan streams it (`scan(paths, each=...)`): what `SkillSummary`
    holds, with its paths as text and its findings decoded only when asked for. A report on
    10,000 skills needs no `Path` and no summary per skill (building them costs more than
    rendering the report); `summary` gives the full one.

    Attributes:
        directory, skill_file: the skill's folder and its SKILL.md, as text.
        name, description, valid, loadable, read_only: as in `SkillSummary`.
        encoded_findings, made: the rest, encoded (read `diagnostics` and `summary`)."""

    directory: str
    skill_file: str
    name: str | None
    description: str | None
    valid: bool
    loadable: bool
    read_only: bool
    encoded_findings: tuple[CachedDiagnostic, ...]
    made: tuple[Any, ...]

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """What the validator said, without fixes."""
        return _diagnostics(self.encoded_findings)

    def summary(self, root: Path) -> SkillSummary:
        return decode(root, self)


class CheckedSkill(NamedTuple):
    """What a report shows of a skill, made where the skill was validated and rendered there
    (a worker of a split scan: `studio.skills.scan.units`): `ScannedSkill`'s fields a report
    reads, the findings as the rules gave them. Encoding them as a cache tuple and decoding
    them again, with the provenance no report shows, cost a worker 15 µs a skill.

    Attributes:
        directory, skill_file, name, valid, loadable, diagnostics: as in `SkillSummary`, the
            paths as text."""

    directory: str
    skill_file: str
    name: str | None
    valid: bool
    loadable: bool
    diagnostics: tuple[Diagnostic, ...]


def checked(result: ValidationResult) -> CheckedSkill:
    """A validated skill as a report shows it."""
    skill = result.skill
    return _new(CheckedSkill, (str(skill.directory), str(skill.path), skill.name, result.valid,
                               result.loadable, tuple(result.diagnostics)))


def checked_entry(data: tuple[Any, ...]) -> CheckedSkill:
    """A cache tuple as a report shows it."""
    return _new(CheckedSkill, (data[0], data[1], data[2], data[4], data[5], _diagnostics(data[7])))


# A named tuple built in one C call, as its own constructor is Python code.
_new = tuple.__new__


def encode(summary: SkillSummary) -> tuple[Any, ...]:
    """A summary as its cache tuple, or its listing tuple while it is unchecked (`decode` reads
    either back)."""
    made = (summary.created_by, summary.created_at, summary.updated_by, summary.updated_at,
            summary.model_invocable, summary.user_invocable)
    if not summary.checked:
        return (str(summary.directory), str(summary.skill_file), summary.name,
                summary.description, summary.loadable, made)
    return (
        str(summary.directory), str(summary.skill_file), summary.name, summary.description,
        summary.valid, summary.loadable, summary.read_only,
        _cached_diagnostics(summary.diagnostics), made,
    )


def decode(root: Path, data: tuple[Any, ...]) -> SkillSummary:
    """The summary of a skill under `root` from its cache tuple, or from its listing tuple
    (then unchecked: see `SkillSummary.checked`)."""
    if len(data) == LISTING_LENGTH:
        return _decode_listing(root, data)
    directory, skill_file, name, description, valid, loadable, read_only, diags, made = data
    folder = Path(directory)
    parent, _, file_name = skill_file.rpartition("/")
    return SkillSummary(
        root,
        folder,
        folder / file_name if parent == directory else Path(skill_file),
        name,
        description,
        valid,
        loadable,
        _diagnostics(diags),
        read_only,
        *made,
    )


def _diagnostics(encoded: tuple[CachedDiagnostic, ...]) -> tuple[Diagnostic, ...]:
    """The findings of a cache tuple as `Diagnostic`s. Built with `tuple.__new__`, as the named
    tuple's own `__new__` would, without its call in Python: a report on 10,000 skills decodes
    40,000 of them, and this halves what that costs."""
    severity = _SEVERITIES
    new = tuple.__new__
    return tuple([
        new(Diagnostic, (code, severity[sev], message, line, column, None, None, None, file, field))
        for code, sev, message, line, column, file, field in encoded
    ])


def _decode_listing(root: Path, data: tuple[Any, ...]) -> SkillSummary:
    directory, skill_file, name, description, loadable, made = data
    created_by, created_at, updated_by, updated_at, model_invocable, user_invocable = made
    folder = Path(directory)
    parent, _, file_name = skill_file.rpartition("/")
    path = folder / file_name if parent == directory else Path(skill_file)
    return SkillSummary(root, folder, path, name, description, False, loadable,
                        (), False, created_by, created_at, updated_by, updated_at,
                        model_invocable, user_invocable, checked=False)


def is_listing(data: tuple[Any, ...]) -> bool:
    """Whether `data` is a listing tuple (the skill not yet validated), not a cache tuple."""
    return len(data) == LISTING_LENGTH


def listing_entry(skill: Skill) -> tuple[Any, ...]:
    """What the library shows of a skill whose SKILL.md alone has been read: its name,
    description, whether a client would load it, its provenance and invocation flags."""
    return (str(skill.directory), str(skill.path), skill.name, skill.description,
            is_loadable(skill, skill.problems), _made(skill))


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
    """`encode(result.summary(root))`, without the summary in between: a worker process
    validating thousands of skills only sends these tuples back."""
    skill = result.skill
    return (
        str(skill.directory), str(skill.path), skill.name, skill.description, result.valid,
        result.loadable, skill.read_only, _cached_diagnostics(result.diagnostics), _made(skill),
    )


def _made(skill: Skill) -> tuple[Any, ...]:
    """The provenance and the invocation flags, as a cache tuple keeps them."""
    fields = skill.fields
    # Most skills keep no provenance: one look at `metadata` spares four.
    made = (*(provenance(skill, key) for key in PROVENANCE_KEYS),) if fields.get("metadata") \
        else _NO_PROVENANCE
    # Most skills set neither flag: a missing one is its default without a call.
    model_only = fields.get("disable-model-invocation")
    user = fields.get("user-invocable")
    return (*made, model_only is None or not flag(model_only, False),
            user is None or flag(user, True))


_NO_PROVENANCE = (None,) * len(PROVENANCE_KEYS)
