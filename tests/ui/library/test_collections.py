"""A collection in the library tree: grouped by its `owner--repo` folders wherever they sit, and
roots added inside it, or taken out, counted at once (no rescan)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtTest import QAbstractItemModelTester
from pytestqt.qtbot import QtBot

from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_rows import PATH_ROLE
from tests.ui.helpers import WindowFactory, write_skill


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """A collection kept one level down, as a mirror keeps one: `skills/owner--repo/...`."""
    root = tmp_path / "collection"
    write_skill(root / "skills" / "acme--tools" / "skills", "pdf")
    write_skill(root / "skills" / "acme--tools" / ".claude" / "skills", "csv")
    write_skill(root / "skills" / "bob--web", "search")
    write_skill(root, "loose")
    return root


def rows(model: LibraryModel, parent: QModelIndex) -> list[str]:
    return sorted(model.index(row, 0, parent).data() for row in range(model.rowCount(parent)))


def root_texts(model: LibraryModel) -> list[str]:
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_a_collection_one_level_down_is_grouped_by_repository(
        qtbot: QtBot, make_window: WindowFactory, collection: Path) -> None:
    window = make_window(collection)
    model = window.library_model
    root = model.index(0, 0)
    assert rows(model, root) == ["acme--tools (2)", "bob--web (1)", "loose"]
    acme = next(model.index(row, 0, root) for row in range(model.rowCount(root))
                if model.index(row, 0, root).data() == "acme--tools (2)")
    assert acme.data(PATH_ROLE) == str(collection / "skills" / "acme--tools")
    assert rows(model, acme) == ["csv", "pdf"]


def test_roots_inside_roots_are_counted_at_once(qtbot: QtBot, make_window: WindowFactory,
                                                collection: Path) -> None:
    window = make_window(collection)
    model = window.library_model
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    inner = collection / "skills"
    window.roots.add_root(inner)
    # At once, before the new root's scan.
    assert [len(state.skills) for state in window.library.roots()] == [1, 3]
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
    # Each skill once, under the nearer root.
    assert root_texts(model) == ["collection (1)", "skills (3)"]
    assert window.library.skill_count == 4
    assert rows(model, model.index(1, 0)) == ["acme--tools (2)", "bob--web (1)"]
    window.roots.remove_root(collection)
    assert root_texts(model) == ["skills (3)"]
    window.roots.add_root(collection)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
    assert root_texts(model) == ["skills (3)", "collection (1)"]
    # Taking the inner root out hands its skills back to the outer one without a rescan.
    window.roots.remove_root(inner)
    assert root_texts(model) == ["collection (4)"]
    assert rows(model, model.index(0, 0)) == ["acme--tools (2)", "bob--web (1)", "loose"]
    assert window.watcher.watches_folder(inner / "bob--web")
