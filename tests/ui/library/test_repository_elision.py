"""Same-named skills stay told apart in a narrow library: the repository hint keeps its room and
both halves of `owner--repo`, and the tooltip has it whole (issue 44: "K-De…mage")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTreeView
from pytestqt.qtbot import QtBot

from studio.ui.library.library_delegate import fit_apart, fit_repository, widths
from studio.ui.library.library_rows import DETAIL_ROLE, SHARED_ROLE
from tests.ui.helpers import WindowFactory, write_skill

OWNER_REPO = "K-Dense-AI--claude-scientific-skills-image"


@pytest.mark.parametrize(("room", "name", "detail", "shared", "expected"), [
    (300, 100, 100, False, (100, 100)),      # both fit
    (150, 120, 100, False, (100, 42)),       # the name keeps two thirds
    (150, 120, 100, True, (75, 67)),         # a shared name keeps half: the hint the rest
    (150, 30, 200, True, (30, 112)),         # a short name keeps all it needs
])
def test_widths(room: int, name: int, detail: int, shared: bool,
                expected: tuple[int, int]) -> None:
    assert widths(room, name, detail, shared) == expected


def test_an_owner_and_repo_each_keep_their_ends(qtbot: QtBot) -> None:
    view = QTreeView()
    qtbot.addWidget(view)
    metrics = QFontMetrics(view.font())
    full = metrics.horizontalAdvance(OWNER_REPO)
    # Room for the owner whole: only the repository's middle goes.
    fitted = fit_repository(metrics, OWNER_REPO, full * 6 // 10)
    owner, separator, repo = fitted.partition("--")
    assert (owner, separator) == ("K-Dense-AI", "--")
    assert repo.startswith("cla") and repo.endswith("age") and "…" in repo
    assert metrics.horizontalAdvance(fitted) <= full * 6 // 10
    # Less: each half loses its middle, the -- stays.
    fitted = fit_repository(metrics, OWNER_REPO, full * 4 // 10)
    owner, separator, repo = fitted.partition("--")
    assert separator and metrics.horizontalAdvance(fitted) <= full * 4 // 10
    assert owner.startswith("K-") and owner.endswith("I") and "…" in owner
    assert repo.startswith("c") and repo.endswith("ge") and "…" in repo
    assert fit_repository(metrics, OWNER_REPO, 10_000) == OWNER_REPO
    assert fit_repository(metrics, "plain-folder-name", 40).count("…") == 1


def test_forks_in_the_flat_view_are_marked_shared_and_the_tooltip_has_the_whole_place(
        make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "collection"
    write_skill(root / OWNER_REPO / "skills", "image-tools")
    write_skill(root / "K-Dense-AI--claude-scientific-skills-damage" / "skills", "image-tools")
    write_skill(root / "solo--repo", "unique")
    window = make_window(root)
    window.library_panel.flat_action.trigger()
    model = window.library_model
    parent = model.index(0, 0)
    rows = [model.index(row, 0, parent) for row in range(model.rowCount(parent))]
    assert [(row.data(), row.data(DETAIL_ROLE), row.data(SHARED_ROLE)) for row in rows] == [
        ("image-tools", "K-Dense-AI--claude-scientific-skills-damage", True),
        ("image-tools", OWNER_REPO, True),
        ("unique", "solo--repo", False)]
    assert f"{OWNER_REPO}/skills/image-tools" in rows[1].data(Qt.ItemDataRole.ToolTipRole)


def test_beside_forks_that_begin_alike_the_part_that_differs_stays(qtbot: QtBot) -> None:
    view = QTreeView()
    qtbot.addWidget(view)
    metrics = QFontMetrics(view.font())
    damage = "K-Dense-AI--claude-scientific-skills-damage"
    width = metrics.horizontalAdvance(OWNER_REPO) // 2
    fitted = fit_apart(metrics, OWNER_REPO, width, [damage])
    assert fitted.startswith("K-") and fitted.endswith("…image")
    assert fit_apart(metrics, damage, width, [OWNER_REPO]).endswith("…damage")
    assert metrics.horizontalAdvance(fitted) <= width
    # Rows that differ from the start: each half of owner--repo keeps its ends.
    assert "--" in fit_apart(metrics, OWNER_REPO, width, ["bob--claude-scientific-skills-image"])
