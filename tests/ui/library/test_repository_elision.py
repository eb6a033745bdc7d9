"""Same-named skills stay told apart in a narrow library: the repository hint keeps its room and
both halves of `owner--repo`, and the tooltip has it whole (issue 44: "K-De…mage")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTreeView
from pytestqt.qtbot import QtBot

from studio.ui.library.library_delegate import fit_repository, widths
from studio.ui.library.library_rows import DETAIL_ROLE, SHARED_ROLE
from tests.ui.helpers import WindowFactory, write_skill

OWNER_REPO = "K-Dense-AI--claude-scientific-skills-image"


@pytest.mark.parametrize(("room", "name", "detail", "shared", "expected"), [
    (300, 100, 100, False, (100, 100)),      # both fit
    (150, 120, 100, False, (100, 42)),       # the name keeps two thirds
    (150, 120, 100, True, (50, 92)),         # a shared name keeps a third: the hint the rest
    (150, 30, 200, True, (30, 112)),         # a short name keeps all it needs
])
def test_widths(room: int, name: int, detail: int, shared: bool,
                expected: tuple[int, int]) -> None:
    assert widths(room, name, detail, shared) == expected


def test_an_owner_and_repo_each_keep_their_ends(qtbot: QtBot) -> None:
    view = QTreeView()
    qtbot.addWidget(view)
    metrics = QFontMetrics(view.font())
    width = metrics.horizontalAdvance(OWNER_REPO) * 6 // 10
    fitted = fit_repository(metrics, OWNER_REPO, width)
    owner, separator, repo = fitted.partition("--")
    assert separator and metrics.horizontalAdvance(fitted) <= width
    assert owner.startswith("K-") and owner.endswith("AI") and "…" in owner
    assert repo.startswith("cla") and repo.endswith("image") and "…" in repo
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
