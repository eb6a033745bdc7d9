"""Roots whose folders share a name are told apart by the shortest end of their paths, in the
library tree and in the Problems panel's summary, with the full path in the tooltip."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from studio.ui.library.library_model import root_labels
from tests.ui.helpers import WindowFactory, write_skill


def test_the_shortest_distinct_end_of_each_path() -> None:
    paths = [Path("/a/x/skills"), Path("/b/x/skills"), Path("/c/skills"), Path("/d/tools")]
    assert root_labels(paths) == ["a/x/skills", "b/x/skills", "c/skills", "tools"]
    assert root_labels([Path("/skills"), Path("/a/skills")]) == ["/skills", "a/skills"]
    assert root_labels([Path("/home/me/skills")]) == ["skills"]


def test_two_roots_named_skills_in_the_tree_and_the_problems_summary(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    work, home = tmp_path / "work" / "skills", tmp_path / "home" / "skills"
    write_skill(work, "one", description="Vague.")
    write_skill(home, "two", description="Vague too.")
    window = make_window(work, home)
    model = window.library_model
    shown = {model.index(row, 0, QModelIndex()).data(): model.index(row, 0, QModelIndex())
             for row in range(model.rowCount())}
    assert set(shown) == {"work/skills (1)", "home/skills (1)"}
    assert str(work) in shown["work/skills (1)"].data(Qt.ItemDataRole.ToolTipRole)

    window.problems_panel.scope.setCurrentIndex(1)
    summary = window.problems_panel.roots_summary
    qtbot.waitUntil(lambda: "work/skills:" in summary.text())
    assert "home/skills:" in summary.text()
    assert str(work) in summary.toolTip() and str(home) in summary.toolTip()

    window.roots.remove_root(home)
    assert model.index(0, 0, QModelIndex()).data() == "skills (1)"
