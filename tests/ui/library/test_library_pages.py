"""A parent of many rows (a root of a collection's 11,745 folders) is handed to the views a page
at a time, as the user scrolls to its end: a view lays out in one turn every row it was handed.
Rows beyond the pages handed out still count, select, filter and sort."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from studio.skills.library import Library
from studio.skills.scan import SkillRoot
from studio.ui.library.filter_keys import first_skill
from studio.ui.library.library_filter import LibraryFilter
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_nodes import PAGE
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.more_rows import hand_out_page

ROOT = Path("/lib")
# Two pages and a bit: the last page is part full.
REPOSITORIES = 2 * PAGE + 37


def _summary(directory: Path, name: str) -> SkillSummary:
    return SkillSummary(ROOT, directory, directory / "SKILL.md", name,
                        f"Does {name} things. Use when asked to.", True, True, ())


def _repository(number: int) -> Path:
    return ROOT / f"owner{number:05d}--repo" / "skills"


def _library(repositories: int = REPOSITORIES) -> Library:
    """A root of `repositories` repository folders of one skill each, plus a `needle` skill in
    the last one."""
    library = Library()
    library.add_root(SkillRoot(ROOT))
    summaries = [_summary(_repository(n) / f"tool-{n}", f"tool-{n}") for n in range(repositories)]
    summaries.append(_summary(_repository(repositories - 1) / "needle", "needle"))
    library.add_skills(ROOT, summaries)
    return library


def _page(model: LibraryModel, index: QModelIndex) -> None:
    model.hand_out(model.node(index), model.rowCount(index) + PAGE)


def _all(model: LibraryModel, index: QModelIndex) -> None:
    while model.more(model.node(index)):
        _page(model, index)


def _model(qtbot: QtBot, library: Library, tested: bool = False) -> LibraryModel:
    model = LibraryModel(library)
    if tested:
        # Qt's own checks of the model's answers, through every change after (it asks each
        # parent for more rows once).
        QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal,
                                 model)
    return model


def test_a_big_parent_is_handed_out_a_page_at_a_time(qtbot: QtBot) -> None:
    library = _library()
    model = _model(qtbot, library)
    root = model.index(0, 0)
    assert model.rowCount(root) == PAGE
    assert model.more(model.node(root))
    # Qt's own fetching is left to the skills' files: a tree view asks each open parent for
    # more every time it lays itself out, and would take every page, one a turn.
    assert not model.canFetchMore(root)
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    _page(model, root)
    assert model.rowCount(root) == 2 * PAGE
    assert inserted == [(PAGE, 2 * PAGE - 1)]
    _page(model, root)
    assert model.rowCount(root) == REPOSITORIES
    assert not model.more(model.node(root))
    # What the root says it holds is the library's count, not the rows handed out.
    assert f"({REPOSITORIES + 1:,})" in root.data()


def test_a_view_lays_out_only_the_pages_it_was_handed_and_asks_for_more_at_the_end(
        qtbot: QtBot) -> None:
    model = _model(qtbot, _library())
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    view = panel.tree
    view.expand(model.index(0, 0))
    panel.resize(300, 400)
    panel.show()
    qtbot.waitExposed(panel)
    root = model.index(0, 0)
    # Laid out, and again: no more rows than the first page.
    view.doItemsLayout()
    QApplication.processEvents()
    assert model.rowCount(root) == PAGE
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum())
    assert model.rowCount(root) == 2 * PAGE
    view.doItemsLayout()
    QApplication.processEvents()
    assert model.rowCount(root) == 2 * PAGE


def test_selecting_a_row_beyond_those_handed_out_hands_out_the_rows_up_to_it(
        qtbot: QtBot) -> None:
    library = _library()
    model = _model(qtbot, library)
    root = model.index(0, 0)
    needle = _repository(REPOSITORIES - 1) / "needle"
    index = model.skill_index(needle)
    assert index.isValid() and index.data() == "needle"
    assert model.rowCount(root) == REPOSITORIES
    assert index.parent().row() == REPOSITORIES - 1
    assert model.parent(index).parent() == root


def test_skills_coming_going_and_changing_beyond_the_pages_are_counted_and_shown_when_fetched(
        qtbot: QtBot) -> None:
    library = _library()
    model = _model(qtbot, library)
    root = model.index(0, 0)
    late = _repository(REPOSITORIES + 5) / "late"
    library.add_skills(ROOT, [_summary(late, "late")])
    assert model.rowCount(root) == PAGE
    changed = _summary(_repository(PAGE + 3) / f"tool-{PAGE + 3}", "renamed-tool")
    library.update_skill(changed)
    library.remove_skill(_repository(PAGE + 4) / f"tool-{PAGE + 4}")
    # One handed out goes: the first beyond takes its place among the views' rows.
    library.remove_skill(_repository(2) / "tool-2")
    assert model.rowCount(root) == PAGE - 1
    assert model.index(PAGE - 2, 0, root).data() == f"owner{PAGE - 1:05d}--repo (1)"
    _all(model, root)
    names = {model.index(0, 0, folder).data()
             for folder in (model.index(row, 0, root) for row in range(model.rowCount(root)))}
    assert {"late", "renamed-tool"} <= names
    assert f"tool-{PAGE + 4}" not in names and "tool-2" not in names
    assert model.rowCount(root) == REPOSITORIES - 1


def test_the_filter_finds_a_match_in_the_last_page(qtbot: QtBot) -> None:
    model = _model(qtbot, _library())
    proxy = LibraryFilter()
    proxy.setSourceModel(model)
    proxy.set_text("needle")
    qtbot.waitUntil(lambda: not proxy.judging)
    assert proxy.match_count == 1
    root = proxy.index(0, 0)
    assert "1 of" in root.data()
    # The match is in the last page, not handed out yet: asked for more, the filter hands out
    # pages until the match shows.
    assert proxy.rowCount(root) == 0
    hand_out_page(proxy, model, model.node(proxy.mapToSource(root)))
    assert proxy.rowCount(root) == 1
    folder = proxy.index(0, 0, root)
    assert proxy.index(0, 0, folder).data() == "needle"


def test_end_goes_to_the_last_row_of_a_big_parent(qtbot: QtBot) -> None:
    library = _library()
    model = LibraryModel(library)
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    tree = panel.tree
    tree.expand(model.index(0, 0))
    tree.setFocus()
    tree.setCurrentIndex(model.index(0, 0))
    assert model.rowCount(model.index(0, 0)) < REPOSITORIES
    QApplication.sendEvent(tree, QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_End,
                                           Qt.KeyboardModifier.ControlModifier))
    current = tree.currentIndex()
    assert current.data() == f"owner{REPOSITORIES - 1:05d}--repo (2)"
    assert current.parent() == model.index(0, 0)
    assert not model.more(model.node(model.index(0, 0)))


def test_selecting_a_skill_in_the_panel_beyond_the_pages_selects_it(qtbot: QtBot) -> None:
    model = LibraryModel(_library())
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    needle = _repository(REPOSITORIES - 1) / "needle"
    panel.select_skill(needle)
    summary = panel.selected_summary()
    assert summary is not None and summary.directory == needle
    # And under a filter that shows it.
    panel.filter_edit.setText("needle")
    panel.apply_filter()
    qtbot.waitUntil(lambda: panel.tree.model() is panel.proxy)
    panel.select_skill(needle)
    summary = panel.selected_summary()
    assert summary is not None and summary.directory == needle
    assert panel.count_label.text().startswith("1 of")


def test_a_filter_whose_matches_lie_beyond_the_first_page_shows_them(qtbot: QtBot) -> None:
    model = LibraryModel(_library())
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    panel.filter_edit.setText("needle")
    panel.apply_filter()
    qtbot.waitUntil(lambda: panel.tree.model() is panel.proxy and not panel.opener.opening)
    # Enter in the box opens the first match shown: there is one.
    match = first_skill(panel.proxy)
    assert match.data() == "needle"
    assert panel.tree.isExpanded(match.parent())


def test_the_flat_view_pages_too_and_keeps_the_count(qtbot: QtBot) -> None:
    model = _model(qtbot, _library())
    model.set_flat(True)
    root = model.index(0, 0)
    assert model.rowCount(root) == PAGE
    assert model.index(0, 0, root).data() == "needle"
    _all(model, root)
    assert model.rowCount(root) == REPOSITORIES + 1
    assert model.skill_count == REPOSITORIES + 1



def test_qts_model_tester_finds_the_pages_sound_as_skills_come_go_and_change(
        qtbot: QtBot) -> None:
    library = _library()
    model = _model(qtbot, library, tested=True)
    proxy = LibraryFilter()
    proxy.setSourceModel(model)
    QAbstractItemModelTester(proxy, QAbstractItemModelTester.FailureReportingMode.Fatal, proxy)
    proxy.set_text("tool")
    qtbot.waitUntil(lambda: not proxy.judging)
    root = model.index(0, 0)
    library.add_skills(ROOT, [_summary(_repository(REPOSITORIES + n) / "late", "late")
                              for n in range(3)])
    library.update_skill(_summary(_repository(PAGE + 3) / f"tool-{PAGE + 3}", "renamed"))
    library.update_skill(_summary(_repository(1) / "tool-1", "renamed-too"))
    library.remove_skill(_repository(PAGE + 4) / f"tool-{PAGE + 4}")
    library.remove_skill(_repository(2) / "tool-2")
    model.skill_index(_repository(REPOSITORIES + 2) / "late")
    _all(model, root)
    assert model.rowCount(root) == REPOSITORIES + 1
    assert proxy.match_count == REPOSITORIES - 2
    model.set_flat(True)
    assert model.rowCount(model.index(0, 0)) == PAGE
