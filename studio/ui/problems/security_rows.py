"""The Security group's rows, without Qt: the skill scanner's findings (`studio.threatscan`, as
`studio scan` ranks them) of the skills shown, filtered as the Problems panel filters, worst
skill first, and the counts its title gives.

What is shown, and why: in the whole library's scope, a skill is listed for its findings at
`medium` and above; its `low` and `info` ones (vendor installers from their own domains, a token
sent to its own vendor, files past the scan's bounds) are shown only for the skill open in the
current tab, and in the open skill's scope. A quarter of real skills have such a finding, and
listing them all would bury the few that matter; they stay one click away (open the skill).
"""

from __future__ import annotations

import zipfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from studio.skills import Diagnostic, Severity
from studio.skills.library import Problem
from studio.skills.scan import enclosing_zip
from studio.threatscan import LEVELS, Finding, rank
from studio.ui.numbers import count_text
from studio.ui.problems.findings import ProblemFilter

# The panel's severity filter, read for the scanner's levels: what would stop an install
# (`--fail-on high`) is an error, what deserves a look a warning, the rest notes.
FILTER_LEVELS = {"error": ("critical", "high"), "warning": ("medium",), "info": ("low", "info")}
DIAGNOSTIC_SEVERITY = {"critical": Severity.ERROR, "high": Severity.ERROR,
                       "medium": Severity.WARNING, "low": Severity.INFO, "info": Severity.INFO}
LIBRARY_LEVEL = "medium"
WORST_FIRST = tuple(reversed(LEVELS))

# One skill's scan as the group reads it: its folder, shown name and findings (worst first).
SkillFindings = tuple[Path, str, Sequence[Finding]]


def level_counts(counts: Counter[str]) -> str:
    """ "1 critical, 3 high" for the levels counted, worst first."""
    return ", ".join(f"{count_text(counts[level])} {level}" for level in WORST_FIRST
                     if counts[level])


@dataclass(slots=True)
class SecuritySkill:
    """A skill in the Security group, with its findings shown (worst first)."""

    directory: Path
    name: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def worst(self) -> str:
        return self.findings[0].severity if self.findings else "info"

    def counts(self) -> Counter[str]:
        return Counter(finding.severity for finding in self.findings)


@dataclass(slots=True)
class SecurityRows:
    """What the group shows: its skills, worst first, and how many findings of each level;
    `codes` and `levels`: how many of each code and level it would show unfiltered (the
    panel's code list, the count on its tab)."""

    skills: list[SecuritySkill] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    levels: Counter[str] = field(default_factory=Counter)

    def title(self, pending: int = 0, empty: str = "no findings") -> str:
        """ "Security (1 critical, 3 high)", and how many skills are still to scan; `empty` in
        the brackets when nothing is shown."""
        shown = level_counts(self.counts) or empty
        if pending:
            shown += f"; scanning, {count_text(pending)} skills to go"
        return f"Security ({shown})"


def _matches(finding: Finding, name: str, wanted: ProblemFilter, levels: tuple[str, ...],
             words: list[str]) -> bool:
    if levels and finding.severity not in levels:
        return False
    if wanted.code and finding.code != wanted.code:
        return False
    if words:
        hay = (f"{finding.code} {finding.severity} {finding.message} {name} {finding.file} "
               f"{finding.evidence}").lower()
        return all(word in hay for word in words)
    return True


def security_rows(scans: Iterable[SkillFindings], wanted: ProblemFilter,
                  open_skill: Path | None) -> SecurityRows:
    """The rows of `scans` that pass `wanted`; below `LIBRARY_LEVEL` only for `open_skill`.
    In one pass over plain values: a library may hold findings for 10,000 skills, and this runs
    a few times a second while it is scanned."""
    levels = FILTER_LEVELS.get(wanted.severity, ())
    words = wanted.text.lower().split()
    filtered = wanted.active
    worthy = {level for level in LEVELS if rank(level) >= rank(LIBRARY_LEVEL)}
    rows = SecurityRows()
    order: list[tuple[int, int, str, int]] = []
    levels_shown: list[str] = []
    codes: list[str] = []
    severities: list[str] = []
    for directory, name, findings in scans:
        shown = list(findings) if directory == open_skill else [
            finding for finding in findings if finding.severity in worthy]
        codes.extend([finding.code for finding in shown])
        severities.extend([finding.severity for finding in shown])
        if filtered:
            shown = [finding for finding in shown
                     if _matches(finding, name, wanted, levels, words)]
        if shown:
            order.append((-rank(shown[0].severity), -len(shown), name.lower(), len(rows.skills)))
            rows.skills.append(SecuritySkill(directory, name, shown))
            levels_shown.extend([finding.severity for finding in shown])
    rows.skills = [rows.skills[place[3]] for place in sorted(order)]
    rows.counts = Counter(levels_shown)
    rows.codes = Counter(codes)
    rows.levels = Counter(severities)
    return rows


def problem_of(skill: SecuritySkill, finding: Finding) -> Problem:
    """The finding as a problem the editors can go to (its file, line and column)."""
    return Problem(skill.directory, skill.name, Diagnostic(
        finding.code, DIAGNOSTIC_SEVERITY[finding.severity],
        f"{finding.severity}: {finding.message}", max(1, finding.line), max(1, finding.column),
        file=finding.file))


def openable(path: Path) -> bool:
    """Whether the editor opens `path`: a file, or a member of the zip archive it lies in."""
    if path.is_file():
        return True
    inside = enclosing_zip(path)
    if inside is None:
        return False
    try:
        with zipfile.ZipFile(inside[0]) as archive:
            archive.getinfo(str(inside[1]))
    except (OSError, KeyError, zipfile.BadZipFile):
        return False
    return True
