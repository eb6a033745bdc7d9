"""The window's work per batch while a scan brings skills in, counted rather than timed: with a
filter typed, taking a batch in calls into the library model about as often as without one, and
the chat's Skills button does not count the whole library for each batch."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from studio.skills.library import Library
from studio.skills.scan import SkillRoot, SkillsFound
from studio.ui.library import library_filter, loader
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.loader import LibraryLoader
from tests.ui.helpers import WindowFactory, write_skill

SKILLS = 2000
BATCH = 50
# The calls Qt's views and proxies make into an item model.
MODEL_CALLS = ("index", "parent", "rowCount", "hasChildren", "data")


def _summaries(root: Path, count: int) -> list[SkillSummary]:
    found = []
    for number in range(count):
        # One in twenty has "zebra" in its name, spread over 40 repository folders.
        name = f"zebra-{number:05d}" if number % 20 == 3 else f"skill-{number:05d}"
        directory = root / f"owner--repo-{number % 40:02d}" / "skills" / name
        found.append(SkillSummary(root, directory, directory / "SKILL.md", name,
                                  f"Does {name} things. Use when asked.", True, True, ()))
    return found


class CountingModel(LibraryModel):
    """Counts the calls into the model's Qt interface, by name."""

    def __init__(self, library: Library) -> None:
        # Set before the model's own constructor runs, which already answers views.
        self.calls: Counter[str] = Counter()
        super().__init__(library)

    def index(self, *args: Any) -> Any:
        self.calls["index"] += 1
        return super().index(*args)

    def parent(self, *args: Any) -> Any:
        self.calls["parent"] += 1
        return super().parent(*args)

    def rowCount(self, *args: Any) -> int:
        self.calls["rowCount"] += 1
        return super().rowCount(*args)

    def hasChildren(self, *args: Any) -> bool:
        self.calls["hasChildren"] += 1
        return super().hasChildren(*args)

    def data(self, *args: Any) -> Any:
        self.calls["data"] += 1
        return super().data(*args)


def _calls_taking_in_a_scan(qtbot: QtBot, root: Path, word: str) -> int:
    """The calls into the model while batches of a scan go in, `word` typed after the first."""
    library = Library()
    library.add_root(SkillRoot(root))
    model = CountingModel(library)
    panel = LibraryPanel(model)
    qtbot.addWidget(panel)
    panel.resize(400, 600)
    panel.show()
    scan = LibraryLoader(library, None)
    scan.queue_found(SkillsFound.of(root, _summaries(root, SKILLS)))
    scan.drain()
    panel.filter_edit.setText(word)
    panel.apply_filter()
    # The synchronous work of each batch only: what the views do later, on the event loop,
    # depends on what the offscreen platform paints.
    model.calls.clear()
    while scan.drain():
        pass
    panel.proxy.release()
    assert library.skill_count == SKILLS
    return sum(model.calls[name] for name in MODEL_CALLS)


def test_filtering_a_batch_calls_into_the_model_about_as_often_as_listing_it(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Batches of one size whatever the machine's pace, so both scans take the same batches.
    monkeypatch.setattr(loader, "next_batch", lambda batch, moved, seconds: BATCH)
    monkeypatch.setattr(loader, "FIRST_BATCH", BATCH)
    monkeypatch.setattr(library_filter, "HOLD_MS", 3_600_000)
    plain = _calls_taking_in_a_scan(qtbot, tmp_path / "plain", "")
    filtered = _calls_taking_in_a_scan(qtbot, tmp_path / "filtered", "zebra")
    # No more than listing: the filter read each arriving skill through the model's indexes
    # and roles, a crossing from Qt to Python per question (1.5 times the calls of listing).
    assert filtered <= plain, (filtered, plain)


def test_the_chats_skills_button_shows_the_count_without_walking_the_library(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "next_batch", lambda batch, moved, seconds: BATCH)
    monkeypatch.setattr(loader, "FIRST_BATCH", BATCH)
    root = tmp_path / "skills"
    write_skill(root, "on-disk")
    window = make_window(root, wait=False)
    source = window.chat.pane.skills
    walks: list[bool] = []
    library_skills = source.library_skills

    def counted() -> list[SkillSummary]:
        walks.append(True)
        return library_skills()

    monkeypatch.setattr(source, "library_skills", counted)
    batches: list[int] = []
    window.loader.progressed.connect(batches.append)
    window.loader.queue_found(SkillsFound.of(root, _summaries(root, 600)))
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=20000)
    assert window.library.skill_count == 601 and len(batches) >= 600 // BATCH
    # Never: it counted every skill for each batch (58 ms at 100,000), then once at the end.
    assert walks == []
    loadable = sum(1 for summary in window.library.summaries() if summary.loadable)
    assert window.chat.pane.skill_chooser.skills_button.text() == f"All in the library ({loadable})"
