"""The Problems panel's index of findings, without Qt: the findings of the open skill or of the
whole library, sorted, filtered, and flat or grouped by skill. `ProblemsModel` shows it.

A finding is held as one integer (its skill's number times a stride, plus its number in the skill)
and a `Problem` is made only for the rows asked for: 40,000 tuples made at every refresh would
wake Python's full garbage collection, which walks every object of a large library and freezes
the window for a quarter of a second.
Sorting and filtering are done here over plain Python keys, in one pass each, rather than by a
`QSortFilterProxyModel`, which would call `data()` once per comparison: at 40,000 findings that
is the difference between a few tens of milliseconds and seconds of a frozen window.
A rebuild is a generator that yields between slices of about `SLICE_ROWS` findings, so whoever
drives it can spread a large one over several turns of the event loop.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path, PurePath
from typing import Any, TypeVar

from studio.skills import Diagnostic, Severity
from studio.skills.library import Problem

COLUMNS = ("", "Code", "Message", "Skill", "File", "Line")
SEVERITY, CODE, MESSAGE, SKILL, FILE, LINE = range(6)
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
# A rebuild of more findings than this is large: its driver spreads it over turns of the event
# loop; a smaller one is done at once, and the caller sees its result immediately.
SYNC_ROWS = 4000
SLICE_ROWS = 1000
# A large sort sorts runs of this many rows, one a slice, then merges them a run's worth a slice:
# one `sorted` of 340,000 findings with distinct keys (100,000 skills) took 0.4 s of CPU, and the
# merge (in Python) of 20,000 rows at a time 120 ms at load.
SORT_RUN = 5_000
Item = TypeVar("Item")

# One finding: its diagnostic, its skill's folder and the skill's shown name.
Row = tuple[Diagnostic, Path, str]
SkillFindings = tuple[Path, str, Sequence[Diagnostic]]
Findings = Iterable[SkillFindings]
# A rebuild yields whether it is large, and returns what to adopt.
Rebuild = Generator[bool, None, "Built"]


def shown_file(diagnostic: Diagnostic, directory: Path) -> str:
    """The file a finding is about, relative to its skill's folder (as the validator names it, or
    cut down to the folder when it gave a full path)."""
    name = diagnostic.file
    if name.startswith("/"):
        try:
            return PurePath(name).relative_to(directory).as_posix()
        except ValueError:
            return name
    return name


def problem_of(row: Row) -> Problem:
    return Problem(row[1], row[2], row[0])


@dataclass(slots=True)
class SkillGroup:
    """One skill's findings, as a row of the grouped view.

    Attributes:
        directory: the skill's folder.
        name: the name shown for it.
        rows: its findings that pass the filter, in the shown order.
        errors, warnings: how many of `rows` are errors and warnings.
    """

    directory: Path
    name: str
    rows: list[int] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0

    @property
    def notes(self) -> int:
        return len(self.rows) - self.errors - self.warnings

    @property
    def worst(self) -> str:
        return "error" if self.errors else "warning" if self.warnings else "info"


@dataclass(frozen=True, slots=True)
class ProblemFilter:
    """Which findings are shown: of a severity, with a code, holding a text (all when empty)."""

    severity: str = ""
    code: str = ""
    text: str = ""

    @property
    def active(self) -> bool:
        return bool(self.severity or self.code or self.text.strip())


@dataclass(slots=True)
class Built:
    """A finished rebuild, adopted by `FindingsIndex.adopt` in one step."""

    skills: list[SkillFindings]
    stride: int
    rows: list[int]
    haystacks: list[str] | None
    counts: tuple[Counter[str], Counter[str], int] | None
    by_code: dict[str, list[int]] | None
    skill_numbers: dict[Path, int] | None
    shown: list[int]
    groups: list[SkillGroup]
    first_fix: int | None


def _sort_key(column: int, at: Callable[[int], Diagnostic],
              name_of: Callable[[int], str]) -> Callable[[int], Any]:
    """The key of a finding for `column`: a string or an integer, never a tuple (see above)."""
    if column == CODE:
        return lambda r: at(r).code
    if column == MESSAGE:
        return lambda r: at(r).message.lower()
    if column == SKILL:
        return lambda r: name_of(r).lower()
    if column == FILE:
        return lambda r: f"{at(r).file.lower()}\0{at(r).line:09d}"
    if column == LINE:
        return lambda r: at(r).line * 1_000_000 + at(r).column
    return lambda r: f"{SEVERITY_RANK.get(at(r).severity, 3)}{at(r).code}"


def sorted_in_slices(items: list[Item], key: Callable[[Item], Any], descending: bool,
                     large: bool) -> Generator[bool, None, list[Item]]:
    """`sorted(items, key=key, reverse=descending)`, yielding `large` between slices of about
    `SORT_RUN` items: runs sorted one a slice, then merged (stably, as `sorted` orders ties)."""
    if len(items) <= SORT_RUN:
        return sorted(items, key=key, reverse=descending)
    runs = []
    for first in range(0, len(items), SORT_RUN):
        runs.append(sorted(items[first:first + SORT_RUN], key=key, reverse=descending))
        yield large
    merged = heapq.merge(*runs, key=key, reverse=descending)
    result: list[Item] = []
    while len(result) < len(items):
        result.extend(islice(merged, SORT_RUN))
        yield large
    return result


def _key(skills: list[SkillFindings], stride: int, column: int) -> Callable[[int], Any]:
    def at(number: int) -> Diagnostic:
        return skills[number // stride][2][number % stride]

    def name_of(number: int) -> str:
        return skills[number // stride][1]

    return _sort_key(column, at, name_of)


def _group_key(column: int, item_key: Callable[[int], Any]) -> Callable[[SkillGroup], Any]:
    if column == SEVERITY:
        return lambda g: (SEVERITY_RANK[g.worst], -g.errors, -g.warnings)
    if column == CODE:
        return lambda g: -len(g.rows)
    if column == SKILL:
        return lambda g: g.name.lower()
    return lambda g: item_key(g.rows[0])


class FindingsIndex:
    """The findings held, and those shown in the order shown.

    Attributes:
        filter: which findings are shown.
        grouped: whether findings are shown under their skill.
        sort_column, descending: how rows are ordered (-1: as the library lists them).
        code_counts, severity_counts, fixable_count: of every finding held, shown or not.
        shown: the findings shown (flat), in order.
        groups: the skills shown (grouped), in order, each with its findings shown.
    """

    def __init__(self) -> None:
        self._skills: list[SkillFindings] = []
        self._stride = 1
        self._all: list[int] = []
        self._haystacks: list[str] | None = None
        self.code_counts: Counter[str] = Counter()
        self.severity_counts: Counter[str] = Counter()
        self.fixable_count = 0
        # The numbers of the skills with a finding of each code, in library order: the folders
        # Fix Every and the context menu name were found by a walk of every skill's findings,
        # most of a second at 100,000 skills.
        self._by_code: dict[str, list[int]] = {}
        self.shown: list[int] = []
        self.groups: list[SkillGroup] = []
        self._first_fix: int | None = None
        # Made when first needed after a rebuild: a skill's number by its folder, and a group's
        # place by its skill's number.
        self._skill_numbers: dict[Path, int] | None = None
        self._group_places: dict[int, int] | None = None
        self.filter = ProblemFilter()
        self.grouped = False
        self.sort_column = -1
        self.descending = False

    # -- what is held and shown ---------------------------------------------------------------------

    def finding_count(self) -> int:
        """How many findings are held, shown or not."""
        return len(self._all)

    def skills_with_code(self, code: str) -> list[Path]:
        """The folders of the skills with a finding of `code` (shown or not), in library order."""
        skills = self._skills
        return [skills[number][0] for number in self._by_code.get(code, ())]

    def problems(self) -> list[Problem]:
        """The findings shown, in the order shown (groups flattened)."""
        return [problem_of(self.row(number)) for number in self._shown_ids()]

    def shown_problem(self, place: int) -> Problem | None:
        """The finding shown `place`th (groups flattened), or None, without making the others."""
        if place < 0:
            return None
        if not self.grouped:
            return problem_of(self.row(self.shown[place])) if place < len(self.shown) else None
        for group in self.groups:
            if place < len(group.rows):
                return problem_of(self.row(group.rows[place]))
            place -= len(group.rows)
        return None

    def first_fixable(self) -> Problem | None:
        """The first finding shown that has a fix (found while rebuilding: a walk over 40,000
        findings after every sort or filter stalled the window)."""
        return None if self._first_fix is None else problem_of(self.row(self._first_fix))

    def group_codes(self, group: SkillGroup) -> list[str]:
        """The codes of a group's findings shown, in order."""
        return sorted({self.row(number)[0].code for number in group.rows})

    def _shown_ids(self) -> Iterable[int]:
        if self.grouped:
            return (number for group in self.groups for number in group.rows)
        return self.shown

    def row(self, number: int) -> Row:
        directory, name, diagnostics = self._skills[number // self._stride]
        return diagnostics[number % self._stride], directory, name

    def number_of(self, problem: Problem) -> int | None:
        """The number of a finding held, or None. Found through lookups made once per rebuild:
        comparing it with each of 40,000 findings after every sort or filter (to keep the
        selection) stalled the window."""
        if self._skill_numbers is None:
            self._skill_numbers = {directory: number
                                   for number, (directory, _name, _found) in enumerate(self._skills)}
        skill = self._skill_numbers.get(problem.directory)
        if skill is None:
            return None
        _directory, name, diagnostics = self._skills[skill]
        if name != problem.skill_name:
            return None
        for place, diagnostic in enumerate(diagnostics):
            if diagnostic is problem.diagnostic or diagnostic == problem.diagnostic:
                return skill * self._stride + place
        return None

    def group_place(self, number: int) -> int | None:
        """Where the group of finding `number` is among `groups`, or None when not shown."""
        if self._group_places is None:
            self._group_places = {group.rows[0] // self._stride: place
                                  for place, group in enumerate(self.groups) if group.rows}
        return self._group_places.get(number // self._stride)

    def set_grouped(self, grouped: bool) -> None:
        """Group findings by skill or not; the groups come with the next rebuild."""
        self.grouped = grouped
        self.groups = []
        self._group_places = None

    # -- rebuilding ---------------------------------------------------------------------------------

    def rebuild(self, findings: Findings | None) -> Rebuild:
        """Rebuild what is shown, from new findings or from the ones held, with the filter, sort
        and grouping set now; yields (whether the rebuild is large) between slices, and returns
        what `adopt` takes. Nothing held changes until then."""
        large = False
        if findings is not None:
            skills: list[SkillFindings] = []
            count = 0
            widest = 0
            mark = SLICE_ROWS
            # A skill's number by its folder, made here a slice at a time: made at once when a
            # selection was kept after a rebuild, it held the window 40 to 150 ms at 100,000.
            numbers: dict[Path, int] = {}
            for found in findings:
                if found[2]:
                    numbers[found[0]] = len(skills)
                    skills.append(found)
                    count += len(found[2])
                    widest = max(widest, len(found[2]))
                    if count >= mark:
                        mark += SLICE_ROWS
                        large = count > SYNC_ROWS
                        yield large
            stride = widest + 1
            rows: list[int] = []
            codes: Counter[str] = Counter()
            severities: Counter[str] = Counter()
            fixable = 0
            code_skills: dict[str, list[int]] = {}
            for first in range(0, len(skills), SLICE_ROWS // 4):
                for number, (_directory, _name, diagnostics) in enumerate(
                        skills[first:first + SLICE_ROWS // 4], first):
                    rows.extend(range(number * stride, number * stride + len(diagnostics)))
                    found_codes = [d.code for d in diagnostics]
                    codes.update(found_codes)
                    for code in dict.fromkeys(found_codes):
                        code_skills.setdefault(code, []).append(number)
                    severities.update([d.severity for d in diagnostics])
                    fixable += sum(1 for d in diagnostics if d.fix is not None)
                yield large
            haystacks: list[str] | None = None
            counts: tuple[Counter[str], Counter[str], int] | None = (codes, severities, fixable)
            by_code: dict[str, list[int]] | None = code_skills
            skill_numbers: dict[Path, int] | None = numbers
        else:
            skills, stride, rows, haystacks = self._skills, self._stride, self._all, self._haystacks
            counts, by_code, skill_numbers = None, None, None
        large = len(rows) > SYNC_ROWS
        haystacks = yield from self._haystacks_of(skills, stride, rows, haystacks, large)
        shown = yield from self._matching(skills, stride, rows, haystacks, large)
        if self.sort_column >= 0 and shown:
            key = _key(skills, stride, self.sort_column)
            keys: list[Any] = []
            for first in range(0, len(shown), SLICE_ROWS):
                keys.extend([key(row) for row in shown[first:first + SLICE_ROWS]])
                yield large
            order = yield from sorted_in_slices(list(range(len(shown))), keys.__getitem__,
                                                self.descending, large)
            reordered: list[int] = []
            for first in range(0, len(order), SORT_RUN):
                reordered.extend([shown[number] for number in order[first:first + SORT_RUN]])
                yield large
            shown = reordered
        groups: list[SkillGroup] = []
        if self.grouped:
            groups = yield from self._grouping(skills, stride, shown, large)
        shown_order: Iterable[int] = shown
        if self.grouped:
            shown_order = (number for group in groups for number in group.rows)
        first_fix = yield from self._first_fixable_of(skills, stride, shown_order, large)
        return Built(skills, stride, rows, haystacks, counts, by_code, skill_numbers, shown,
                     groups, first_fix)

    def adopt(self, built: Built) -> None:
        """Hold and show what a rebuild made."""
        self._first_fix = built.first_fix
        if built.skill_numbers is not None:
            self._skill_numbers = built.skill_numbers
        elif built.skills is not self._skills:
            self._skill_numbers = None
        self._group_places = None
        self._skills, self._stride, self._all = built.skills, built.stride, built.rows
        self._haystacks = built.haystacks
        if built.counts is not None:
            self.code_counts, self.severity_counts, self.fixable_count = built.counts
        if built.by_code is not None:
            self._by_code = built.by_code
        self.shown = built.shown
        self.groups = built.groups

    def _grouping(self, skills: list[SkillFindings], stride: int, shown: list[int],
                  large: bool) -> Generator[bool, None, list[SkillGroup]]:
        groups: list[SkillGroup] = []
        by_skill: dict[int, SkillGroup] = {}
        for first in range(0, len(shown), SLICE_ROWS):
            for number in shown[first:first + SLICE_ROWS]:
                group = by_skill.get(number // stride)
                directory, name, diagnostics = skills[number // stride]
                if group is None:
                    group = by_skill[number // stride] = SkillGroup(directory, name)
                    groups.append(group)
                group.rows.append(number)
                severity = diagnostics[number % stride].severity
                if severity == Severity.ERROR:
                    group.errors += 1
                elif severity == Severity.WARNING:
                    group.warnings += 1
            yield large
        if self.sort_column >= 0:
            groups = yield from sorted_in_slices(
                groups, _group_key(self.sort_column, _key(skills, stride, self.sort_column)),
                self.descending, large)
        return groups

    def _first_fixable_of(self, skills: list[SkillFindings], stride: int, order: Iterable[int],
                          large: bool) -> Generator[bool, None, int | None]:
        for seen, number in enumerate(order, 1):
            if skills[number // stride][2][number % stride].fix is not None:
                return number
            if seen % SLICE_ROWS == 0:
                yield large
        return None

    def _haystacks_of(self, skills: list[SkillFindings], stride: int, rows: list[int],
                      haystacks: list[str] | None,
                      large: bool) -> Generator[bool, None, list[str] | None]:
        """What the text filter searches in, one lowercased string per finding (made when first
        needed)."""
        if haystacks is not None or not self.filter.text.split():
            return haystacks
        made: list[str] = []
        for first in range(0, len(rows), SLICE_ROWS):
            for number in rows[first:first + SLICE_ROWS]:
                _directory, name, diagnostics = skills[number // stride]
                d = diagnostics[number % stride]
                made.append(f"{d.code} {d.message} {name} {d.file}".lower())
            yield large
        return made

    def _matching(self, skills: list[SkillFindings], stride: int, rows: list[int],
                  haystacks: list[str] | None, large: bool) -> Generator[bool, None, list[int]]:
        wanted = self.filter
        words = wanted.text.lower().split()
        if not (words or wanted.severity or wanted.code):
            return list(rows)
        found: list[int] = []
        for first in range(0, len(rows), SLICE_ROWS):
            piece = rows[first:first + SLICE_ROWS]
            if words and haystacks is not None:
                hays = haystacks[first:first + SLICE_ROWS]
                piece = [row for row, hay in zip(piece, hays, strict=True)
                         if all(word in hay for word in words)]
            if wanted.severity:
                piece = [n for n in piece
                         if skills[n // stride][2][n % stride].severity == wanted.severity]
            if wanted.code:
                piece = [n for n in piece if skills[n // stride][2][n % stride].code == wanted.code]
            found.extend(piece)
            yield large
        return found
