"""The Problems panel's findings index on its own, without Qt: a rebuild changes nothing until
adopted, and the filter, sort and grouping it reads are those set when it runs."""

from __future__ import annotations

from pathlib import Path

from studio.skills.model import Diagnostic, Fix, Severity
from studio.ui.problems.findings import (
    CODE,
    SEVERITY,
    SORT_RUN,
    Built,
    Findings,
    FindingsIndex,
    ProblemFilter,
    Rebuild,
    sorted_in_slices,
)


def _finish(rebuild: Rebuild) -> Built:
    while True:
        try:
            next(rebuild)
        except StopIteration as done:
            built: Built = done.value
            return built


def _rebuilt(index: FindingsIndex, found: Findings | None = None) -> FindingsIndex:
    index.adopt(_finish(index.rebuild(found)))
    return index


def _findings() -> list[tuple[Path, str, list[Diagnostic]]]:
    fix = Fix("Remove it")
    return [
        (Path("/lib/beta"), "beta", [Diagnostic("SK131", Severity.WARNING, "`version`", 3, 1),
                                     Diagnostic("SK209", Severity.WARNING, "when?", 2, 1)]),
        (Path("/lib/alpha"), "alpha", [Diagnostic("SK104", Severity.ERROR, "uppercase", 2, 1),
                                       Diagnostic("SK131", Severity.WARNING, "`author`", 4, 1,
                                                  fix=fix)]),
        (Path("/lib/empty"), "empty", []),
    ]


def test_a_rebuild_shows_nothing_new_until_it_is_adopted() -> None:
    index = FindingsIndex()
    rebuild = index.rebuild(_findings())
    assert index.finding_count() == 0
    index.adopt(_finish(rebuild))
    assert index.finding_count() == 4
    assert index.code_counts["SK131"] == 2 and index.severity_counts["error"] == 1
    assert index.fixable_count == 1
    assert index.skills_with_code("SK131") == [Path("/lib/beta"), Path("/lib/alpha")]


def test_filter_sort_and_groups() -> None:
    index = _rebuilt(FindingsIndex(), _findings())
    index.filter = ProblemFilter(code="SK131")
    index.sort_column, index.descending = CODE, False
    _rebuilt(index)
    assert [p.skill_name for p in index.problems()] == ["beta", "alpha"]
    fixable = index.first_fixable()
    assert fixable is not None and fixable.skill_name == "alpha"

    index.filter = ProblemFilter()
    index.set_grouped(True)
    index.sort_column = SEVERITY
    _rebuilt(index)
    assert [(g.name, g.errors, g.warnings) for g in index.groups] == [("alpha", 1, 1),
                                                                      ("beta", 0, 2)]
    assert index.group_codes(index.groups[1]) == ["SK131", "SK209"]
    problem = index.problems()[-1]
    number = index.number_of(problem)
    assert number is not None and index.group_place(number) == 1


def test_the_nth_finding_shown_and_the_skills_with_a_code_without_a_walk() -> None:
    index = _rebuilt(FindingsIndex(), _findings())
    index.sort_column = SEVERITY
    index.filter = ProblemFilter(severity="warning")
    _rebuilt(index)
    assert [index.shown_problem(n) for n in range(4)] == [*index.problems(), None]
    assert index.shown_problem(-1) is None
    index.set_grouped(True)
    _rebuilt(index)
    assert [index.shown_problem(n) for n in range(4)] == [*index.problems(), None]
    # Held from the findings as given, whatever is shown; a skill with two of a code once.
    assert index.skills_with_code("SK131") == [Path("/lib/beta"), Path("/lib/alpha")]
    assert index.skills_with_code("SK104") == [Path("/lib/alpha")]
    assert index.skills_with_code("SK999") == []
    twice = [(Path("/lib/x"), "x", [Diagnostic("SK131", Severity.WARNING, "a", 1, 1),
                                    Diagnostic("SK131", Severity.WARNING, "b", 2, 1)])]
    assert _rebuilt(index, twice).skills_with_code("SK131") == [Path("/lib/x")]


def test_a_large_sort_is_done_in_slices_and_orders_as_sorted_does() -> None:
    # Few distinct keys, so most items tie: the merge must keep them in the order `sorted` does.
    items = [(number * 7919) % 13 * 1000 + number % 3 for number in range(3 * SORT_RUN + 17)]

    def key(item: int) -> int:
        return item // 1000

    for descending in (False, True):
        rebuild = sorted_in_slices(items, key, descending, True)
        slices = 0
        while True:
            try:
                next(rebuild)
                slices += 1
            except StopIteration as done:
                result = done.value
                break
        assert result == sorted(items, key=key, reverse=descending)
        assert slices >= 4


def test_a_small_sort_is_done_at_once() -> None:
    rebuild = sorted_in_slices([3, 1, 2], lambda item: item, False, False)
    try:
        next(rebuild)
    except StopIteration as done:
        assert done.value == [1, 2, 3]
    else:
        raise AssertionError("a small sort yielded")
