"""The library tree on a collection of `owner--repo` folders: skills shown by name under their
repository folder with counts (of matches, under a filter), forks and copies told apart, and the
flat view, remembered by the next window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, Qt
from PySide6.QtGui import QStatusTipEvent
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.skills.library import Library
from studio.skills.scan import SkillRoot
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_rows import DETAIL_ROLE, KIND_ROLE
from studio.ui.library.roots import summary_of
from tests.ui.helpers import WindowFactory

TIP = Qt.ItemDataRole.StatusTipRole


def _skill(folder: Path, name: str | None) -> Path:
    folder.mkdir(parents=True)
    head = f"name: {name}\n" if name else ""
    (folder / "SKILL.md").write_text(
        f"---\n{head}description: Does {folder.name} things. Use when asked to.\n---\n# Steps\n",
        encoding="utf-8")
    return folder


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """Two repositories: one keeps `pdf` twice (skills/ and .claude/skills/), the other holds a
    fork of it, a skill with no name, deeper down, and one more."""
    root = tmp_path / "collection"
    _skill(root / "acme--tools" / "skills" / "pdf", "pdf")
    _skill(root / "acme--tools" / ".claude" / "skills" / "pdf", "pdf")
    _skill(root / "acme--tools" / "skills" / "csv-profiler", "csv-profiler")
    _skill(root / "zed--kit" / "skills" / "pdf", "pdf")
    _skill(root / "zed--kit" / "plugins" / "docs" / "skills" / "untitled", None)
    _skill(root / "zed--kit" / "skills" / "web-search", "web-search")
    return root


def _rows(model: QAbstractItemModel, parent: QModelIndex) -> list[QModelIndex]:
    return [model.index(row, 0, parent) for row in range(model.rowCount(parent))]


def _shown(model: QAbstractItemModel, parent: QModelIndex) -> list[tuple[str, str | None]]:
    """Each row's text with its dimmed detail."""
    return [(index.data(), index.data(DETAIL_ROLE)) for index in _rows(model, parent)]


def test_a_collection_shows_names_under_repository_folders_with_counts(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window(collection)
    model = window.library_model
    root = model.index(0, 0)
    folders = {index.data(): index for index in _rows(model, root)}
    assert set(folders) == {"acme--tools (3)", "zed--kit (3)"}
    assert all(index.data(KIND_ROLE) == "folder" for index in folders.values())
    acme, zed = folders["acme--tools (3)"], folders["zed--kit (3)"]
    # The two copies in one repository say where each sits; the fork elsewhere needs nothing.
    assert sorted(_shown(model, acme), key=str) == [
        ("csv-profiler", None), ("pdf", ".claude/skills/pdf"), ("pdf", "skills/pdf")]
    assert sorted(_shown(model, zed), key=str) == [
        ("pdf", None), ("untitled", None), ("web-search", None)]
    untitled = collection / "zed--kit" / "plugins" / "docs" / "skills" / "untitled"
    index = model.skill_index(untitled)
    assert index.data() == "untitled"
    assert str(untitled) in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(TIP) == str(untitled)


def test_selecting_a_skill_puts_its_folder_in_the_status_bar(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window(collection)
    folder = collection / "zed--kit" / "skills" / "web-search"
    window.library_panel.select_skill(folder)
    assert window.statusBar().currentMessage() == str(folder)
    assert window.library_panel.tree.hasMouseTracking()


def test_leaving_the_tree_brings_back_the_selected_skills_folder(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window(collection)
    folder = collection / "zed--kit" / "skills" / "web-search"
    window.library_panel.select_skill(folder)
    viewport = window.library_panel.tree.viewport()
    # What the tree does as the mouse passes over another row and then leaves it.
    QApplication.sendEvent(viewport, QStatusTipEvent("somewhere else"))
    QApplication.sendEvent(window.library_panel, QStatusTipEvent(""))
    QApplication.sendEvent(viewport, QEvent(QEvent.Type.Leave))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == str(folder))


def test_under_a_filter_the_counts_are_of_matches(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window(collection)
    panel = window.library_panel
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    proxy = panel.proxy
    root = proxy.index(0, 0)
    assert root.data() == "collection (3 of 6)"
    assert sorted(index.data() for index in _rows(proxy, root)) == [
        "acme--tools (2 of 3)", "zed--kit (1 of 3)"]
    # Flat, filtered: the matches straight under their root, each with its repository.
    panel.flat_action.trigger()
    root = proxy.index(0, 0)
    assert root.data() == "collection (3 of 6)"
    assert _shown(proxy, root) == [("pdf", "acme--tools/.claude/skills/pdf"),
                                   ("pdf", "acme--tools/skills/pdf"), ("pdf", "zed--kit")]
    assert panel.tree.isExpanded(root)
    # The skills stay closed: their files are not what the filter looks for.
    assert not any(panel.tree.isExpanded(index) for index in _rows(proxy, root))
    panel.filter_edit.setText("")
    panel.apply_filter()
    assert panel.tree.model().index(0, 0).data() == "collection (6)"


def test_the_flat_view_lists_names_with_their_repository_and_is_remembered(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window(collection)
    panel = window.library_panel
    assert panel.flat_action in window.menus.view.actions()
    assert not panel.flat_action.isChecked()
    panel.select_skill(collection / "zed--kit" / "skills" / "web-search")
    panel.flat_button.click()
    model = window.library_model
    root = model.index(0, 0)
    expected = [("csv-profiler", "acme--tools"), ("pdf", "acme--tools/.claude/skills/pdf"),
                ("pdf", "acme--tools/skills/pdf"), ("pdf", "zed--kit"),
                ("untitled", "zed--kit"), ("web-search", "zed--kit")]
    assert _shown(model, root) == expected
    assert panel.tree.isExpanded(root)
    # The selection stays on the same skill.
    assert panel.selected_summary() is not None
    assert panel.selected_summary().directory.name == "web-search"
    window.close_without_asking()

    again = make_window(collection)
    assert again.library_panel.flat_action.isChecked()
    assert _shown(again.library_model, again.library_model.index(0, 0)) == expected
    again.library_panel.flat_action.trigger()
    assert again.library_model.rowCount(again.library_model.index(0, 0)) == 2


def test_the_flat_view_keeps_its_order_as_skills_come_go_and_change(
        qtbot: QtBot, collection: Path) -> None:
    library = Library()
    model = LibraryModel(library)
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_flat(True)
    library.add_root(SkillRoot(collection))
    folders = sorted(path.parent for path in collection.rglob("SKILL.md"))
    summaries = [summary_of(folder, collection) for folder in folders]
    # In two batches, the second's skills going between the first's.
    library.add_skills(collection, summaries[::2])
    library.add_skills(collection, summaries[1::2])
    root = model.index(0, 0)

    def names() -> list[str]:
        return [index.data() for index in _rows(model, root)]

    assert names() == ["csv-profiler", "pdf", "pdf", "pdf", "untitled", "web-search"]
    assert [index.row() for index in _rows(model, root)] == list(range(6))
    assert all(model.parent(index) == root for index in _rows(model, root))
    # Renamed to a name of its repository: it moves, and both rows of that name say where
    # they sit.
    web = collection / "zed--kit" / "skills" / "web-search"
    _skill_text = (web / "SKILL.md").read_text(encoding="utf-8")
    (web / "SKILL.md").write_text(_skill_text.replace("web-search", "pdf", 1), encoding="utf-8")
    library.update_skill(summary_of(web, collection))
    assert names() == ["csv-profiler", "pdf", "pdf", "pdf", "pdf", "untitled"]
    assert [index.data(DETAIL_ROLE) for index in _rows(model, root)][3:5] == [
        "zed--kit/skills/pdf", "zed--kit/skills/web-search"]
    library.remove_skill(web)
    assert [index.data(DETAIL_ROLE) for index in _rows(model, root)][3] == "zed--kit"
    model.set_flat(False)
    assert sorted(index.data() for index in _rows(model, root)) == [
        "acme--tools (3)", "zed--kit (2)"]
    del tester


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1600, 1000)])
def test_the_library_panel_can_be_widened(qtbot: QtBot, make_window: WindowFactory,
                                          collection: Path, width: int, height: int) -> None:
    window = make_window(collection)
    window.resize(width, height)
    dock = window.library_dock
    qtbot.waitUntil(lambda: window.width() == width)
    # Narrow enough to leave the skill most of the window; a third of it for long names.
    assert dock.minimumSizeHint().width() <= 300
    wide = int(width * 0.35)
    window.resizeDocks([dock], [wide], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: abs(dock.width() - wide) <= 10)


def test_the_library_panel_keeps_its_width(qtbot: QtBot, make_window: WindowFactory,
                                           collection: Path) -> None:
    # At the size the window opens with on the test's screen, which it is restored within.
    window = make_window(collection)
    wide = int(window.width() * 0.38)
    window.resizeDocks([window.library_dock], [wide], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: abs(window.library_dock.width() - wide) <= 10)
    window.close_without_asking()

    again = make_window(collection)
    qtbot.waitUntil(lambda: abs(again.library_dock.width() - wide) <= 10, timeout=3000)


def test_a_scan_into_the_flat_view_under_a_filter_shows_its_matches_sorted(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window()
    panel = window.library_panel
    panel.flat_action.trigger()
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    tester = QAbstractItemModelTester(panel.proxy,
                                      QAbstractItemModelTester.FailureReportingMode.Fatal)
    window.roots.add_root(collection)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
    proxy = panel.proxy
    root = proxy.index(0, 0)
    qtbot.waitUntil(lambda: proxy.rowCount(proxy.index(0, 0)) == 3)
    assert root.data() == "collection (3 of 6)"
    assert [index.data(DETAIL_ROLE) for index in _rows(proxy, root)] == [
        "acme--tools/.claude/skills/pdf", "acme--tools/skills/pdf", "zed--kit"]
    del tester


def test_rows_are_enabled_and_selectable_by_qts_own_flags() -> None:
    from studio.ui.library.library_tree import NodeTree

    # Qt's C++ answer, not one from Python: a view asks it twice of every row it lays out, and
    # a Python answer made opening a root of 12,000 folders 5.7 times as long.
    assert "flags" not in vars(NodeTree)
    model = NodeTree()
    assert model.flags(QModelIndex()) == Qt.ItemFlag.NoItemFlags


def test_root_and_folder_rows_share_one_icon_made_once(qtbot: QtBot, collection: Path) -> None:
    """The style's folder icon is made once, not each time a row is painted (0.3 to 0.8 ms a
    time: a scan's every batch repaints the root and its folders)."""
    library = Library()
    model = LibraryModel(library)
    library.add_root(SkillRoot(collection))
    library.add_skills(collection, [summary_of(path.parent, collection)
                                    for path in sorted(collection.rglob("SKILL.md"))])
    root = model.index(0, 0)
    folder = model.index(0, 0, root)
    assert folder.data(KIND_ROLE) == "folder"
    icons = [index.data(Qt.ItemDataRole.DecorationRole) for index in (root, root, folder)]
    assert not icons[0].isNull()
    assert len({icon.cacheKey() for icon in icons}) == 1
