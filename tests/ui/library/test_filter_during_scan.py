"""Typing in the library filter while a large library loads: the tree shows the matches as they
arrive and after the scan, and filtering a batch costs about what listing it costs (no pass over
the whole library per batch)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import Library
from studio.skills.library.roots import SkillRoot
from studio.skills.library.summary import SkillSummary
from studio.ui.library import library_filter, library_panel
from studio.ui.library.library_filter import LibraryFilter
from studio.ui.library.library_model import KIND_ROLE, LibraryModel
from studio.ui.library.library_panel import LibraryPanel
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


# Typed before the first skills come (the root itself is hidden then), or a few batches in.
@pytest.mark.parametrize("typed_after", [0, 3])
def test_a_filter_typed_during_a_scan_shows_its_matches_at_the_scans_pace(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed_after: int) -> None:
    monkeypatch.setattr(library_panel, "LibraryFilter", CountingFilter)
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
    loader.queue_found(root, [summary.to_cache() for summary in summaries])
    expected: set[str] = set()
    per_batch: list[tuple[int, int]] = []
    # A few batches in, the user types a word.
    for _ in range(typed_after):
        loader.drain()
    panel.filter_edit.setText("zebra")
    panel.apply_filter()
    before = library.skill_count
    more = True
    while more:
        CountingFilter.calls = 0
        count = library.skill_count
        more = loader.drain()
        per_batch.append((library.skill_count - count, CountingFilter.calls))
        expected = {s.name for s in library.summaries() if s.name.startswith("zebra")}
        qtbot.waitUntil(lambda wanted=expected: _shown_skills(panel) == wanted, timeout=2000)
    assert library.skill_count == SKILLS and before < SKILLS
    expected = {s.name for s in summaries if s.name.startswith("zebra")}
    assert len(expected) == SKILLS // 100
    assert _shown_skills(panel) == expected
    assert panel.count_label.text() == f"{len(expected)} of {SKILLS:,} skills match"
    # Judging a batch takes a few calls per skill in it, however many skills came before.
    for added, calls in per_batch:
        assert calls <= 4 * added + 4 * GROUPS, per_batch


def test_clearing_the_filter_after_the_scan_shows_everything(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    model = LibraryModel(library)
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    panel.show()
    loader = LibraryLoader(library, None)
    loader.queue_found(root, [summary.to_cache() for summary in _summaries(root)[:300]])
    loader.drain()
    panel.filter_edit.setText("zebra")
    panel.apply_filter()
    while loader.drain():
        pass
    qtbot.waitUntil(lambda: _shown_skills(panel) == {f"zebra-{n:05d}" for n in range(7, 300, 100)},
                    timeout=2000)
    panel.filter_edit.setText("")
    panel.apply_filter()
    assert panel.tree.model() is model
    panel.filter_edit.setText("skill-0000")
    panel.apply_filter()
    assert _shown_skills(panel) == {f"skill-{n:05d}" for n in range(10) if n != 7}
