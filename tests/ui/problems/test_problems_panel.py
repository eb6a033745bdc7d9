"""The Problems panel at library scale: sorting, filtering, grouping, the file column, counts
with separators, and the summary line per root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import Problem
from studio.skills.model import Diagnostic, Fix, Severity
from studio.ui.numbers import count_text
from studio.ui.problems import problems_model
from studio.ui.problems.findings import SYNC_ROWS, FindingsIndex, ProblemFilter
from studio.ui.problems.problems_model import GROUP_ROLE, ProblemsModel
from studio.ui.problems.problems_panel import ProblemsPanel
from tests.ui.helpers import WindowFactory, write_skill

E, W, N = Severity.ERROR, Severity.WARNING, Severity.INFO


def _problem(skill: str, code: str, severity: Severity, message: str, line: int = 1,
             file: str = "SKILL.md") -> Problem:
    return Problem(Path("/lib") / skill, skill, Diagnostic(code, severity, message, line, 1,
                                                           file=file))


@pytest.fixture
def problems() -> list[Problem]:
    return [
        _problem("beta", "SK131", W, "`version` is not a spec field", 3),
        _problem("alpha", "SK104", E, "uppercase letters", 2),
        _problem("gamma", "SK401", N, "broken link to references/api.md", 40,
                 "references/guide.md"),
        _problem("alpha", "SK131", W, "`author` is not a spec field", 4),
        _problem("beta", "SK209", W, "description says nothing about when", 2),
    ]


def _column(model: ProblemsModel, column: int) -> list[str]:
    return [model.index(row, column).data() for row in range(model.rowCount())]


def test_sorting_by_each_column(qtbot: QtBot, problems: list[Problem]) -> None:
    model = ProblemsModel()
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_problems(problems)
    assert _column(model, model.SKILL) == ["beta", "beta", "alpha", "alpha", "gamma"]

    model.sort(model.SKILL, Qt.SortOrder.AscendingOrder)
    assert _column(model, model.SKILL) == ["alpha", "alpha", "beta", "beta", "gamma"]
    model.sort(model.LINE, Qt.SortOrder.DescendingOrder)
    assert _column(model, model.LINE) == ["40:1", "4:1", "3:1", "2:1", "2:1"]
    model.sort(model.SEVERITY, Qt.SortOrder.AscendingOrder)
    assert [p.diagnostic.severity for p in model.problems()] == [E, W, W, W, N]
    model.sort(model.CODE, Qt.SortOrder.DescendingOrder)
    assert _column(model, model.CODE) == ["SK401", "SK209", "SK131", "SK131", "SK104"]
    model.sort(model.FILE, Qt.SortOrder.AscendingOrder)
    assert _column(model, model.FILE)[-1] == "SKILL.md"
    assert _column(model, model.FILE)[0] == "references/guide.md"
    model.sort(model.MESSAGE, Qt.SortOrder.AscendingOrder)
    assert _column(model, model.MESSAGE)[0] == "`author` is not a spec field"


def test_filtering_by_severity_code_and_text(qtbot: QtBot, problems: list[Problem]) -> None:
    model = ProblemsModel()
    model.set_problems(problems)

    model.set_filter(ProblemFilter(severity="warning"))
    assert {p.diagnostic.code for p in model.problems()} == {"SK131", "SK209"}
    model.set_filter(ProblemFilter(severity="warning", code="SK131"))
    assert len(model.problems()) == 2
    model.set_filter(ProblemFilter(code="SK131", text="AUTHOR"))
    assert [p.skill_name for p in model.problems()] == ["alpha"]
    model.set_filter(ProblemFilter(text="guide gamma"))
    assert [p.diagnostic.code for p in model.problems()] == ["SK401"]
    model.set_filter(ProblemFilter())
    assert len(model.problems()) == 5
    assert model.findings.finding_count() == 5


def test_grouping_by_skill_is_a_tree_with_counts(qtbot: QtBot, problems: list[Problem]) -> None:
    model = ProblemsModel()
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_problems(problems)
    model.sort(model.SKILL, Qt.SortOrder.AscendingOrder)

    model.set_grouped(True)

    assert model.rowCount() == 3
    alpha = model.index(0, model.MESSAGE)
    assert alpha.data() == "alpha — 1 error, 1 warning"
    # The counts are in the message ("1 error, 1 warning"); a bare number under Code read as one.
    assert model.index(0, model.CODE).data() is None
    assert model.rowCount(model.index(0, 0)) == 2
    child = model.index(1, model.CODE, model.index(0, 0))
    assert child.data() == "SK131"
    assert model.problem(child) == problems[3]
    assert model.index(0, 0).data(GROUP_ROLE).name == "alpha"
    model.set_filter(ProblemFilter(code="SK131"))
    assert [model.index(row, model.SKILL).data() for row in range(model.rowCount())] == [
        "alpha", "beta"]
    model.sort(model.SKILL, Qt.SortOrder.DescendingOrder)
    assert model.index(0, model.SKILL).data() == "beta"


def test_the_first_fixable_finding_follows_what_is_shown(qtbot: QtBot) -> None:
    # Enough findings for the rebuild to run in slices; only every 997th has a fix, and the
    # skills' names put the fixable ones in another order than the library's.
    count = SYNC_ROWS * 2
    fix = Fix("Move it under metadata")
    findings = []
    for number in range(count):
        fixable = number % 997 == 5
        diagnostic = Diagnostic("SK131" if fixable else "SK104", W if fixable else E,
                                f"finding {number}", 1, 1, fix=fix if fixable else None)
        findings.append((Path(f"/lib/s{number}"), f"skill-{count - number:06d}", [diagnostic]))
    model = ProblemsModel()
    model.set_findings(findings)
    qtbot.waitUntil(lambda: not model.busy)

    def first() -> str | None:
        found = model.findings.first_fixable()
        return None if found is None else found.diagnostic.message

    assert first() == "finding 5"
    model.sort(model.SKILL, Qt.SortOrder.AscendingOrder)
    qtbot.waitUntil(lambda: not model.busy)
    assert first() == f"finding {max(n for n in range(count) if n % 997 == 5)}"
    model.set_grouped(True)
    qtbot.waitUntil(lambda: not model.busy)
    assert first() == f"finding {max(n for n in range(count) if n % 997 == 5)}"
    model.set_filter(ProblemFilter(code="SK104"))
    qtbot.waitUntil(lambda: not model.busy)
    assert first() is None
    model.set_filter(ProblemFilter(text="finding 1999"))
    qtbot.waitUntil(lambda: not model.busy)
    assert first() == "finding 1999"



def test_a_filter_set_late_in_a_rebuild_of_new_findings_is_applied(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    count = SYNC_ROWS * 2
    findings = [(Path(f"/lib/s{number}"), f"s{number}",
                 [Diagnostic("SK131" if number % 2 else "SK104", W, f"finding {number}", 1, 1)])
                for number in range(count)]
    busy_when_set: list[bool] = []
    looking = FindingsIndex._first_fixable_of

    def last_phase(*args: object) -> Any:
        # The rebuild is past the point where it reads the filter: the user sets one now (in
        # the rebuild itself, so no timing decides whether it is still under way).
        if not busy_when_set:
            busy_when_set.append(model.busy)
            model.set_filter(ProblemFilter(code="SK104"))
        return looking(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(FindingsIndex, "_first_fixable_of", last_phase)
    monkeypatch.setattr(problems_model, "SLICE_SECONDS", 0.0)
    model = ProblemsModel()
    model.set_findings(findings)
    qtbot.waitUntil(lambda: bool(busy_when_set) and not model.busy)
    assert busy_when_set == [True]
    shown = {p.diagnostic.code for p in model.problems()}
    assert shown == {"SK104"} and len(model.problems()) == count // 2

def test_counts_are_grouped_as_the_locale_writes_them(qtbot: QtBot) -> None:
    saved = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.C))
        assert count_text(36804) == "36,804"
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        assert count_text(36804) == "36.804"
    finally:
        QLocale.setDefault(saved)
    model = ProblemsModel()
    model.set_problems([_problem("big", "SK201", W, "long", 12345)])
    assert model.index(0, model.LINE).data() == f"{count_text(12345)}:1"


def test_the_panel_filters_groups_and_fixes_every_of_a_code(qtbot: QtBot,
                                                            problems: list[Problem]) -> None:
    panel = ProblemsPanel()
    qtbot.addWidget(panel)
    by_skill: dict[Path, list[Problem]] = {}
    for problem in problems:
        by_skill.setdefault(problem.directory, []).append(problem)
    panel.set_findings([(folder, found[0].skill_name, [p.diagnostic for p in found])
                        for folder, found in by_skill.items()],
                       "", ["lib: 1 valid, 2 with errors; top codes SK131 ×2"])
    assert panel.roots_summary.text().startswith("lib: 1 valid")
    assert "1 error, 3 warnings, 1 note" in panel.summary.text()
    assert panel.code.itemText(1) == "SK131 (2)"

    panel.show_code("SK131")
    assert len(panel.model.problems()) == 2
    assert "showing 2 that match" in panel.summary.text()
    panel.text_filter.setText("version")
    qtbot.waitUntil(lambda: len(panel.model.problems()) == 1)
    panel.group_button.setChecked(True)
    assert panel.view is panel.tree and panel.tree.rootIsDecorated()
    assert panel.model.rowCount() == 1

    with qtbot.waitSignal(panel.fix_all_requested) as signal:
        panel.fix_all_requested.emit("SK131", panel.skills_with_code("SK131"))
    assert signal.args == ["SK131", [Path("/lib/beta"), Path("/lib/alpha")]]
    panel.select_row(0)
    assert panel.selected_problem() == problems[0]


def test_the_whole_library_shows_a_summary_line_per_root(qtbot: QtBot, make_window: WindowFactory,
                                                        tmp_path: Path) -> None:
    first, second = tmp_path / "team", tmp_path / "mine"
    for number in range(3):
        folder = write_skill(first, f"skill-{number}")
        if number:
            text = (folder / "SKILL.md").read_text().replace("---\n#", "version: 1\n---\n#")
            (folder / "SKILL.md").write_text(text.replace(f"name: skill-{number}",
                                                          f"name: Skill-{number}"))
    write_skill(second, "fine-skill")
    window = make_window(first, second)
    window.validate_action.trigger()
    panel = window.problems_panel

    lines = panel.roots_summary.text().splitlines()
    assert lines[0].startswith("team: 1 valid, 2 with errors; top codes SK")
    assert "SK131 ×2" in lines[0] and "SK104 ×2" in lines[0]
    assert lines[1] == "mine: 1 valid, 0 with errors"
    assert not panel.table.isColumnHidden(panel.model.SKILL)


def test_the_context_menu_offers_to_fix_every_finding_of_a_code(
        qtbot: QtBot, problems: list[Problem]) -> None:
    panel = ProblemsPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 300)
    panel.show()
    panel.set_problems(problems)
    panel.group_button.setChecked(True)
    model = panel.model
    beta = next(row for row in range(model.rowCount())
                if model.index(row, model.SKILL).data() == "beta")
    assert model.findings.group_codes(model.findings.groups[beta]) == ["SK131", "SK209"]
    panel.tree.expand(model.index(beta, 0))
    child = model.index(0, model.MESSAGE, model.index(beta, 0))
    point = panel.tree.visualRect(child).center()

    panel.tree.customContextMenuRequested.emit(point)

    menu = next(w for w in panel.findChildren(QMenu) if w.isVisible())
    fix = next(a for a in menu.actions() if a.text().startswith("Fix Every"))
    assert fix.text() == f"Fix Every {model.problem(child).diagnostic.code} in 2 Skills…" or (
        fix.text() == "Fix Every SK209 in 1 Skill…")
    with qtbot.waitSignal(panel.fix_all_requested) as signal:
        fix.trigger()
    assert signal.args[1] == panel.skills_with_code(signal.args[0])
    menu.hide()


def test_grouped_skills_are_given_to_the_tree_a_page_at_a_time(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree lays out every top-level row it has: thousands of skills come a page at a time,
    while the counts, the selection and the navigation still reach every skill."""
    monkeypatch.setattr(problems_model, "GROUP_PAGE", 4)
    found = [_problem(f"skill-{n:02d}", "SK131", W, "`version` is not a spec field")
             for n in range(10)]
    panel = ProblemsPanel()
    qtbot.addWidget(panel)
    QAbstractItemModelTester(panel.model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    panel.set_findings([(p.directory, p.skill_name, [p.diagnostic]) for p in found])
    panel.group_button.setChecked(True)
    model = panel.model

    assert model.rowCount() == 4 and model.canFetchMore(QModelIndex())
    assert "in 10 skills" in panel.summary.text()
    # Selecting a finding of a skill not given yet gives the pages up to it.
    panel.select_problem(found[9])
    assert model.rowCount() == 10 and not model.canFetchMore(QModelIndex())
    assert panel.selected_problem() == found[9]

    # A rebuild (a sort) starts again from one page (with the selection kept, up to it); the
    # tree asks for more as it fills its height and as it scrolls.
    model.sort(model.LINE, Qt.SortOrder.AscendingOrder)
    assert model.rowCount() == 10 and panel.selected_problem() == found[9]
    panel.tree.selectionModel().clear()
    model.sort(model.LINE, Qt.SortOrder.DescendingOrder)
    assert model.rowCount() == 4
    panel.resize(600, 800)
    panel.show()
    qtbot.waitUntil(lambda: model.rowCount() == 10)
