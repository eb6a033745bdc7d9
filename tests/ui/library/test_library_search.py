"""The library panel's search mode: ranked results with their matching words, opened on Enter."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import Library
from studio.skills.search.index import SearchHit
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.search_results import HIT_ROLE, SearchResultsModel
from tests.ui.helpers import WindowFactory, write_skill


def test_search_mode_ranks_skills_and_opens_the_one_activated(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path
) -> None:
    write_skill(skills_root, "sheet-stats", description="Summarises spreadsheet exports.",
                body="Count the columns of each CSV file.")
    window = make_window(skills_root)
    panel = window.library_panel
    opened: list[object] = []
    panel.skill_activated.connect(opened.append)
    panel.search_button.setChecked(True)
    assert panel.views.currentWidget() is panel.results_view
    panel.filter_edit.setText("csv columns")
    qtbot.waitUntil(lambda: panel.results.rowCount() == 2, timeout=10000)
    hits = [panel.results.index(row).data(HIT_ROLE) for row in range(2)]
    assert all(isinstance(hit, SearchHit) for hit in hits)
    assert [hit.name for hit in hits] == ["csv-profiler", "sheet-stats"]
    assert "[columns]" in panel.results.index(1).data()
    assert panel.count_label.text() == "2 skills found, ranked by words only"
    panel.results_view.activated.emit(panel.results.index(1))
    assert [s.name for s in opened] == ["sheet-stats"]  # type: ignore[attr-defined]

    panel.search_button.setChecked(False)
    assert panel.views.currentWidget() is panel.tree
    assert panel.results.rowCount() == 0


def test_a_skill_added_after_the_first_search_is_found_by_the_next(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path
) -> None:
    window = make_window(skills_root)
    panel = window.library_panel
    panel.search_button.setChecked(True)
    panel.filter_edit.setText("zeppelin")
    qtbot.waitUntil(lambda: panel.count_label.text() == "No skill matches", timeout=10000)
    write_skill(skills_root, "airships", description="Plans zeppelin trips.")
    window.roots.rescan()
    qtbot.waitUntil(lambda: not window.loader.busy and window.library.skill_count == 4, timeout=10000)
    panel.filter_edit.setText("zeppelin trips")
    qtbot.waitUntil(lambda: panel.results.rowCount() == 1, timeout=10000)
    assert panel.results.index(0).data(HIT_ROLE).name == "airships"


def test_search_takes_the_row_and_the_focus_and_gives_the_filter_back(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path
) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    panel = window.library_panel
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    assert panel.count_label.text() == "1 of 3 skills match"
    qtbot.mouseClick(panel.search_button, Qt.MouseButton.LeftButton)
    assert panel.searching and panel.status_filter.isHidden()
    qtbot.waitUntil(panel.filter_edit.hasFocus, timeout=2000)
    panel.filter_edit.setText("columns of csv files")
    qtbot.waitUntil(lambda: panel.results.rowCount() >= 1, timeout=10000)

    qtbot.mouseClick(panel.search_button, Qt.MouseButton.LeftButton)
    assert not panel.searching and panel.status_filter.isVisibleTo(panel)
    assert panel.filter_edit.text() == "pdf"
    assert panel.count_label.text() == "1 of 3 skills match"


def test_results_that_share_a_name_show_their_folders(qtbot: QtBot) -> None:
    model = SearchResultsModel()
    model.set_hits([SearchHit("ops", Path("/lib/team-a/ops"), 2.0, "run the [ops]"),
                    SearchHit("ops", Path("/lib/team-b/ops"), 1.0, ""),
                    SearchHit("pdf", Path("/lib/team-a/pdf"), 0.5, "")])
    shown = [model.index(row).data() for row in range(3)]
    assert shown == ["ops  (team-a/ops)\nrun the [ops]", "ops  (team-b/ops)", "pdf"]


def test_the_box_has_most_of_the_panel_s_width(qtbot: QtBot) -> None:
    panel = LibraryPanel(LibraryModel(Library()))
    qtbot.addWidget(panel)
    panel.resize(290, 600)
    panel.show()
    for searching in (False, True):
        panel.search_button.setChecked(searching)
        panel.layout().activate()
        assert panel.filter_edit.width() >= 0.6 * panel.width()
