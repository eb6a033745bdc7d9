"""Typing in the library filter while a large library loads: the tree shows the matches as they
arrive and after the scan, and filtering a batch costs about what listing it costs (no pass over
the whole library per batch)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import Library
from studio.skills.scan import SkillsFound
from studio.skills.scan.roots import SkillRoot
from studio.skills.summary import SkillSummary
from studio.ui.library import library_filter, library_panel
from studio.ui.library.library_filter import LibraryFilter
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.library_rows import KIND_ROLE
from studio.ui.library.loader import LibraryLoader

SKILLS = 3000
GROUPS = 30


class CountingFilter(LibraryFilter):
    """Counts the rows the proxy judges and the skills it matches."""

    calls = 0

    def filterAcceptsRow(self, source_row: int,
                         source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        CountingFilter.calls += 1
        return super().filterAcceptsRow(source_row, source_parent)

    def accepts(self, summary: SkillSummary, text: str) -> bool:
        CountingFilter.calls += 1
        return super().accepts(summary, text)


def _summaries(root: Path) -> list[SkillSummary]:
    found = []
    for number in range(SKILLS):
        # One skill in a hundred has "zebra" in its name; they sit in every group.
        name = f"zebra-{number:05d}" if number % 100 == 7 else f"skill-{number:05d}"
        directory = root / f"group-{number % GROUPS:02d}" / "skills" / name
        found.append(SkillSummary(root, directory, directory / "SKILL.md", name,
                                  f"Does {name} things. Use when asked.", True, True, ()))
    return found


def _shown_skills(panel: LibraryPanel) -> set[str]:
    tree = panel.tree
    model = tree.model()
    names: set[str] = set()

    def walk(parent: QModelIndex) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data(KIND_ROLE) == "skill":
                # Shown means: a row of the view's model whose ancestors are all expanded.
                ancestor = index.parent()
                while ancestor.isValid():
                    if not tree.isExpanded(ancestor):
                        return
                    ancestor = ancestor.parent()
                names.add(str(index.data()))
            else:
                walk(index)

    walk(QModelIndex())
    return names


def _rows_shown(panel: LibraryPanel) -> int:
    """The rows the tree lays out: those of its model under expanded rows."""
    tree = panel.tree
    model = tree.model()
    pending = [QModelIndex()]
    count = 0
    while pending:
        parent = pending.pop()
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            count += 1
            if tree.isExpanded(index):
                pending.append(index)
    return count


# Typed before the first skills come (the root itself is hidden then), or a few batches in.
@pytest.mark.parametrize("typed_after", [0, 3])
def test_a_filter_typed_during_a_scan_shows_its_matches_at_the_scans_pace(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed_after: int) -> None:
    monkeypatch.setattr(library_panel, "LibraryFilter", CountingFilter)
    # Matches wait for others until as many wait as are shown, never for the clock, so the
    # work counted below does not depend on the machine's speed.
    monkeypatch.setattr(library_filter, "HOLD_MS", 3_600_000)
    assert library_filter.LibraryFilter is LibraryFilter
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    model = LibraryModel(library)
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    panel.resize(400, 600)
    panel.show()
    loader = LibraryLoader(library, None)
    summaries = _summaries(root)
    loader.queue_found(SkillsFound.of(root, summaries))
    # Each time rows come into the tree under a shown row, it lays out every row it shows
    # again (once per turn of the event loop, however many rows came).
    inserted: list[bool] = []
    panel.proxy.rowsInserted.connect(lambda *_: inserted.append(True))
    laid_out = 0
    for _ in range(typed_after):
        loader.drain()
    CountingFilter.calls = 0
    panel.filter_edit.setText("zebra")
    panel.apply_filter()
    before = library.skill_count
    more = True
    while more:
        inserted.clear()
        more = loader.drain()
        expected = {s.name for s in library.summaries() if s.name.startswith("zebra")}
        # What is not shown yet is held back to be shown with others, and counted as a match.
        qtbot.waitUntil(lambda wanted=expected: _shown_skills(panel) <= wanted
                        and len(_shown_skills(panel)) + panel.proxy.held == len(wanted)
                        and not panel.proxy.releasing, timeout=2000)
        assert panel.count_label.text() == f"{len(expected)} of {library.skill_count:,} skills match"
        if inserted:
            laid_out += _rows_shown(panel)
    # The scan's end shows what waits (the window's roots controller asks for it).
    panel.proxy.release()
    expected = {s.name for s in summaries if s.name.startswith("zebra")}
    qtbot.waitUntil(lambda: _shown_skills(panel) == expected, timeout=2000)
    laid_out += _rows_shown(panel)
    assert library.skill_count == SKILLS and before < SKILLS
    assert len(expected) == SKILLS // 100
    assert panel.count_label.text() == f"{len(expected)} of {SKILLS:,} skills match"
    # The filter judges each skill a few times at most, however many came before it.
    assert CountingFilter.calls <= 4 * SKILLS, CountingFilter.calls
    # The tree lays out about as many rows as it ends up showing, not that many per batch:
    # shown as they came, the matches cost a layout of all the matches before on every batch.
    assert laid_out <= 4 * _rows_shown(panel), (laid_out, _rows_shown(panel))


def test_clearing_the_filter_after_the_scan_shows_everything(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    model = LibraryModel(library)
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    panel.show()
    loader = LibraryLoader(library, None)
    loader.queue_found(SkillsFound.of(root, _summaries(root)[:300]))
    loader.drain()
    panel.filter_edit.setText("zebra")
    panel.apply_filter()
    while loader.drain():
        pass
    panel.proxy.release()
    qtbot.waitUntil(lambda: _shown_skills(panel) == {f"zebra-{n:05d}" for n in range(7, 300, 100)},
                    timeout=2000)
    panel.filter_edit.setText("")
    panel.apply_filter()
    assert panel.tree.model() is model
    panel.filter_edit.setText("skill-0000")
    panel.apply_filter()
    # The folders holding matches open on the turns of the event loop that follow.
    qtbot.waitUntil(lambda: _shown_skills(panel) == {f"skill-{n:05d}" for n in range(10)
                                                     if n != 7}, timeout=2000)
