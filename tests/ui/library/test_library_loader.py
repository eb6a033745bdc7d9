"""The loader moves what the scan found into the library in batches sized to the window's time."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import (
    JUDGING_COST,
    JUDGING_STEP,
    Library,
    LibraryEvent,
    SkillsAdded,
    SkillsReplaced,
)
from studio.skills.scan import SkillsFound
from studio.skills.scan.roots import SkillRoot
from studio.skills.summary import SkillSummary
from studio.ui.library import loader as library_loader
from studio.ui.library.loader import (
    FIRST_BATCH,
    MAX_BATCH,
    MIN_BATCH,
    TICK_BUDGET_S,
    LibraryLoader,
    next_batch,
)


def test_a_tick_over_its_budget_makes_the_next_batch_smaller() -> None:
    assert next_batch(100, 100, TICK_BUDGET_S * 4) < 100


def test_a_tick_well_under_its_budget_makes_the_next_batch_larger() -> None:
    assert next_batch(100, 100, TICK_BUDGET_S / 4) > 100


def test_the_batch_stays_within_its_bounds() -> None:
    assert next_batch(MIN_BATCH, MIN_BATCH, 60.0) == MIN_BATCH
    assert next_batch(MAX_BATCH, MAX_BATCH, 0.0) == MAX_BATCH
    assert next_batch(MAX_BATCH, MAX_BATCH, 1e-9) == MAX_BATCH


def test_a_partial_batch_leaves_the_size_alone() -> None:
    """The last few skills of a scan, however slow, say nothing about the pace."""
    assert next_batch(200, 3, 1.0) == 200


def _write_skills(root: Path, count: int) -> None:
    for number in range(count):
        folder = root / f"group-{number % 3}" / f"skill-{number:03d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{number:03d}\ndescription: Skill {number}. Use it for tests.\n---\n"
            "Body.\n", encoding="utf-8")


def test_slow_listeners_get_smaller_batches(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    # A clock that only moves when the library's listeners work: each skill costs 1 ms, so
    # TICK_BUDGET_S / 1 ms skills fit a tick.
    clock = [0.0]
    monkeypatch.setattr(library_loader.time, "perf_counter", lambda: clock[0])
    ticks: list[int] = []

    def on_event(event: LibraryEvent) -> None:
        if isinstance(event, SkillsAdded):
            ticks[-1] += len(event.summaries)
            clock[0] += 0.001 * len(event.summaries)

    library.connect(on_event)
    loader = LibraryLoader(library, None)
    found = [SkillSummary(root, root / f"skill-{n}", root / f"skill-{n}" / "SKILL.md",
                          f"skill-{n}", "A skill.", True, True, ()) for n in range(1000)]
    loader.queue_found(SkillsFound.of(root, found))
    while loader._pending:
        ticks.append(0)
        loader.drain()

    assert library.skill_count == 1000 and sum(ticks) == 1000
    fits = int(TICK_BUDGET_S / 0.001)
    assert ticks[0] == FIRST_BATCH
    assert all(fits // 2 <= moved <= fits * 2 for moved in ticks[6:-1]), ticks


def test_a_batch_is_cut_short_once_its_budget_is_spent(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """When skills turn costlier than the batch was sized for (validated ones replacing the
    listed), the tick stops after the part that spent its budget."""
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    clock = [0.0]
    monkeypatch.setattr(library_loader.time, "perf_counter", lambda: clock[0])
    cost = [0.0]
    library.connect(lambda event: clock.__setitem__(0, clock[0] + cost[0] * len(
        event.summaries if isinstance(event, SkillsAdded) else ())))
    loader = LibraryLoader(library, None)
    found = [SkillSummary(root, root / f"skill-{n}", root / f"skill-{n}" / "SKILL.md",
                          f"skill-{n}", "A skill.", True, True, ()) for n in range(3000)]
    loader.queue_found(SkillsFound.of(root, found))
    loader.drain()  # the first batch, for nothing
    loader._batch = library_loader.MAX_BATCH  # as after many such
    before = library.skill_count
    cost[0] = TICK_BUDGET_S / library_loader.PART  # now a part spends the whole budget
    loader.drain()
    assert library.skill_count - before == library_loader.MAX_BATCH // library_loader.PARTS
    assert loader._batch < library_loader.MAX_BATCH


def test_a_batch_goes_in_whole_while_it_fits_the_budget(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    monkeypatch.setattr(library_loader.time, "perf_counter", lambda: 0.0)  # costs nothing
    loader = LibraryLoader(library, None)
    found = [SkillSummary(root, root / f"skill-{n}", root / f"skill-{n}" / "SKILL.md",
                          f"skill-{n}", "A skill.", True, True, ()) for n in range(1000)]
    loader.queue_found(SkillsFound.of(root, found))
    loader.drain()
    assert library.skill_count == FIRST_BATCH


def test_every_skill_the_scan_finds_arrives(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _write_skills(root, 400)
    library = Library()
    library.add_root(SkillRoot(root))
    loader = LibraryLoader(library, None)
    with qtbot.waitSignal(loader.scan_finished, timeout=60_000):
        loader.scan([SkillRoot(root)])
    assert library.skill_count == 400
    assert {summary.name for summary in library.summaries()} == {
        f"skill-{number:03d}" for number in range(400)}


def test_a_stop_during_a_tick_ends_the_ticks(qtbot: QtBot, tmp_path: Path) -> None:
    """The window closing from a handler of the loader's own signals: no tick comes after, and
    no `scan_finished` reaches a window that is going away."""
    root = tmp_path / "skills"
    _write_skills(root, 300)
    library = Library()
    loader = LibraryLoader(library, None)
    finished: list[bool] = []
    loader.scan_finished.connect(lambda: finished.append(True))
    loader.progressed.connect(lambda _count: loader.stop())
    with qtbot.waitSignal(loader.progressed, timeout=60_000):
        loader.scan([SkillRoot(root)])
    qtbot.waitUntil(lambda: not loader.busy)
    assert finished == [] and library.skill_count < 300


def test_listed_skills_show_at_once_and_take_their_findings_once_validated(tmp_path: Path) -> None:
    """A cold scan sends each skill twice (`listed_first`): listed, then validated; the library
    shows it from the first, as being checked, and the second replaces it in its row."""
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    loader = LibraryLoader(library, None)
    checked = [SkillSummary(root, root / f"skill-{n}", root / f"skill-{n}" / "SKILL.md",
                            f"skill-{n}", "A skill.", n % 2 == 0, True, ()) for n in range(300)]
    listed = [replace(s, valid=False, checked=False) for s in checked]
    loader.queue_found(SkillsFound.of(root, listed))
    while loader.drain():
        pass
    assert library.skill_count == 300
    assert {s.status for s in library.summaries()} == {"checking"}
    loader.queue_found(SkillsFound.of(root, checked))
    while loader.drain():
        pass
    assert library.summaries() == checked


def test_a_backlog_is_moved_without_waiting_between_ticks(tmp_path: Path) -> None:
    """While more skills wait than a batch holds, the next tick comes at once (the window's own
    events still come between); with little left, ticks keep their pause."""
    root = tmp_path / "skills"
    library = Library()
    library.add_root(SkillRoot(root))
    loader = LibraryLoader(library, None)
    found = [SkillSummary(root, root / f"skill-{n}", root / f"skill-{n}" / "SKILL.md",
                          f"skill-{n}", "A skill.", True, True, ()) for n in range(3000)]
    loader.queue_found(SkillsFound.of(root, found))
    loader._on_timer_timeout()
    assert loader._timer.interval() == library_loader.BACKLOG_INTERVAL_MS
    while loader._pending > loader._batch:
        loader.drain()
    loader._timer.stop()  # as when it fired
    loader._on_timer_timeout()
    assert loader._timer.interval() == library_loader.DRAIN_INTERVAL_MS
    loader.stop()


def test_shared_names_are_judged_a_tick_s_budget_at_a_time(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Once every skill is in, the names many skills share (SK301) are judged over several
    ticks, each stopping once its budget is spent; the next tick comes at once meanwhile."""
    roots = [tmp_path / "a", tmp_path / "b"]
    library = Library()
    clock = [0.0]
    monkeypatch.setattr(library_loader.time, "perf_counter", lambda: clock[0])
    judged: list[int] = []

    def on_event(event: LibraryEvent) -> None:
        if isinstance(event, SkillsReplaced):
            judged[-1] += len(event.rows)
            clock[0] += 0.001 * len(event.rows)  # each skill judged costs the listeners 1 ms

    library.connect(on_event)
    loader = LibraryLoader(library, None)
    for root in roots:
        library.add_root(SkillRoot(root))
        loader.queue_found(SkillsFound.of(root, [
            SkillSummary(root, root / f"skill-{n}", root / f"skill-{n}" / "SKILL.md",
                         f"skill-{n}", "A skill.", True, True, ()) for n in range(200)]))
    while loader._pending:
        loader.drain()
    while True:
        judged.append(0)
        loader._timer.stop()  # as when it fired
        loader._on_timer_timeout()
        if not loader._timer.isActive():
            break
        if judged[-1]:
            assert loader._timer.interval() == library_loader.BACKLOG_INTERVAL_MS
    fits = int(TICK_BUDGET_S / 0.001)
    ticks = [count for count in judged if count]
    assert sum(ticks) == 400 and len(ticks) > 1
    # A tick stops after the step that spent its budget: one step (a name's skills more) over.
    assert max(ticks) <= fits + JUDGING_STEP // JUDGING_COST + 2
    assert {d.code for s in library.summaries() for d in s.diagnostics} == {"SK301"}
