"""Where a skill's row goes in the library tree, and the painting of its name: one line a case."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTreeView
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from studio.ui.library.library_delegate import _fit
from studio.ui.library.library_nodes import RootNode, SkillNode
from studio.ui.library.library_places import place_of, row_runs, sorted_runs

BASE = f"{os.sep}lib{os.sep}"


@pytest.mark.parametrize(("relative", "group", "inner"), [
    ("acme--tools/skills/pdf", "acme--tools", "skills/pdf"),
    ("acme--tools/plugins/docs/skills/pdf", "acme--tools", "plugins/docs/skills/pdf"),
    ("pdf", "", "pdf"),                      # a plain folder of skills: no group
    ("acme--tools/pdf", "acme--tools", "pdf"),
    # A collection kept one level down (`skills/owner--repo/...`): grouped by repository, not
    # all under `skills` (issue 44), wherever its `owner--repo` level is.
    ("skills/acme--tools/skills/pdf", "skills/acme--tools", "skills/pdf"),
    ("mirror/github/acme--tools/pdf", "mirror/github/acme--tools", "pdf"),
    ("skills/my--skill", "skills", "my--skill"),       # the skill's own folder is no group
    ("skills/-bad--name/pdf", "skills", "-bad--name/pdf"),  # not an owner's name
    ("skills/a---b/pdf", "skills", "a---b/pdf"),
    ("skills/pdf", "skills", "pdf"),
])
def test_place_of(relative: str, group: str, inner: str) -> None:
    assert place_of(BASE, BASE + relative.replace("/", os.sep)) == (group, inner)


@pytest.mark.parametrize(("rows", "runs"), [
    ([3], [(3, 3)]),
    ([5, 1, 2], [(1, 5)]),
    ([0, 29, 58], [(0, 58)]),
    ([0, 30, 100], [(0, 0), (30, 30), (100, 100)]),
])
def test_row_runs(rows: list[int], runs: list[tuple[int, int]]) -> None:
    assert row_runs(rows, 30) == runs


def _node(name: str, group: str = "") -> SkillNode:
    directory = Path("/lib") / (group or ".") / name
    summary = SkillSummary(Path("/lib"), directory, directory / "SKILL.md", name, "x", True,
                           True, ())
    return SkillNode(None, 0, summary=summary, group=group, inner=name)


def test_sorted_runs_give_each_run_its_row_once_the_runs_before_are_in() -> None:
    root = RootNode(None, 0)
    root.children = [_node("b"), _node("d")]
    new = [_node("a"), _node("c"), _node("c", "zed--kit"), _node("e")]
    runs = sorted_runs(root.children, new)
    assert [(row, [node.inner for node in run]) for row, run in runs] == [
        (0, ["a"]), (2, ["c", "c"]), (5, ["e"])]


def test_a_name_that_fits_its_room_exactly_is_not_elided(qtbot: QtBot) -> None:
    view = QTreeView()
    qtbot.addWidget(view)
    metrics = QFontMetrics(view.font())
    width = metrics.horizontalAdvance("api-1204")
    assert _fit(metrics, "api-1204", width) == "api-1204"
    assert _fit(metrics, "api-1204", width // 2).count("…") == 1
