"""The core `Library`: what it holds, and that its events let a listener keep an exact copy."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from studio.skills.library.collection import (
    EditingChanged,
    Library,
    LibraryEvent,
    RootAdded,
    RootChanged,
    RootRemoved,
    SkillChanged,
    SkillsAdded,
    SkillsRemoved,
    SkillsReplaced,
    TargetChanged,
)
from studio.skills.model import Diagnostic, Severity
from studio.skills.scan.roots import SkillRoot
from studio.skills.summary import SkillSummary

ROOTS = (Path("/lib/a"), Path("/lib/b"), Path("/lib/c"))
NAMES = ("alpha", "beta", "gamma", "delta", "pdf")


def summary(root: Path, folder: str, name: str | None = None,
            diagnostics: tuple[Diagnostic, ...] = (), checked: bool = True) -> SkillSummary:
    directory = root / folder
    return SkillSummary(root=root, directory=directory, skill_file=directory / "SKILL.md",
                        name=name or folder, description="Does it.",
                        valid=not diagnostics and checked, loadable=True,
                        diagnostics=diagnostics, checked=checked)


class Mirror:
    """A listener that rebuilds the library's rows from its events alone, as a Qt model does."""

    def __init__(self, library: Library) -> None:
        self.roots: list[tuple[Path, list[SkillSummary]]] = []
        self.events: list[LibraryEvent] = []
        library.connect(self.on_event)

    def rows(self, root: Path) -> list[SkillSummary]:
        return next(rows for path, rows in self.roots if path == root)

    def on_event(self, event: LibraryEvent) -> None:
        self.events.append(event)
        if isinstance(event, RootAdded):
            assert event.row == len(self.roots)
            self.roots.append((event.root.path, []))
        elif isinstance(event, RootRemoved):
            assert self.roots[event.row][0] == event.root.path
            del self.roots[event.row]
        elif isinstance(event, SkillsAdded):
            rows = self.rows(event.root)
            assert event.first == len(rows)
            rows.extend(event.summaries)
        elif isinstance(event, SkillsRemoved):
            rows = self.rows(event.root)
            assert tuple(rows[event.first:event.first + len(event.summaries)]) == event.summaries
            del rows[event.first:event.first + len(event.summaries)]
        elif isinstance(event, SkillChanged):
            rows = self.rows(event.root)
            assert rows[event.row] == event.old
            rows[event.row] = event.new
        elif isinstance(event, SkillsReplaced):
            rows = self.rows(event.root)
            for row, old, new in zip(event.rows, event.old, event.new, strict=True):
                assert rows[row] == old
                rows[row] = new

    def state(self) -> list[tuple[Path, list[SkillSummary]]]:
        return [(path, list(rows)) for path, rows in self.roots]


def library_state(library: Library) -> list[tuple[Path, list[SkillSummary]]]:
    return [(state.path, list(state.skills)) for state in library.roots()]


def test_a_new_skill_counts_once_and_is_found_by_folder() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(ROOTS[0]))
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha"), summary(ROOTS[0], "beta")])
    assert library.update_skill(summary(ROOTS[0], "new-skill"))
    assert library.skill_count == 3
    assert library.summary_for(ROOTS[0] / "new-skill") is not None
    assert [s.name for s in mirror.rows(ROOTS[0])] == ["alpha", "beta", "new-skill"]


def test_known_skills_are_not_added_twice() -> None:
    library = Library()
    library.add_root(SkillRoot(ROOTS[0]))
    assert library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha")] * 2) == 1
    assert library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha")]) == 0
    assert library.skill_count == 1


def test_a_skill_under_no_root_is_not_added() -> None:
    library = Library()
    library.add_root(SkillRoot(ROOTS[0]))
    assert not library.update_skill(summary(ROOTS[1], "alpha"))
    assert library.skill_count == 0


def test_a_rename_keeps_the_row_and_moves_the_lookup() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(ROOTS[0]))
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha"), summary(ROOTS[0], "beta")])
    library.update_skill(summary(ROOTS[0], "renamed"), old_directory=ROOTS[0] / "alpha")
    assert library.summary_for(ROOTS[0] / "alpha") is None
    assert library.summary_for(ROOTS[0] / "renamed") is not None
    assert isinstance(mirror.events[-1], SkillChanged) and mirror.events[-1].row == 0
    assert library.skill_count == 2


def test_removing_a_root_forgets_its_skills() -> None:
    library = Library()
    for root in ROOTS[:2]:
        library.add_root(SkillRoot(root))
        library.add_skills(root, [summary(root, "alpha")])
    assert library.remove_root(ROOTS[0])
    assert library.skill_count == 1
    assert library.summary_for(ROOTS[0] / "alpha") is None
    assert not library.remove_root(ROOTS[0])


def test_scanning_state_and_errors_are_told() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(ROOTS[0]))
    library.set_scanning(ROOTS[0], False, "it is gone")
    state = library.root(ROOTS[0])
    assert state is not None and state.error == "it is gone" and not state.scanning
    assert isinstance(mirror.events[-1], RootChanged)
    library.clear_root(ROOTS[0])
    assert state.error is None


def test_an_open_editor_s_problems_stand_in_for_the_library_s() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(ROOTS[0]))
    saved = Diagnostic("SK101", Severity.ERROR, "saved problem")
    live = Diagnostic("SK102", Severity.WARNING, "live problem")
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha", diagnostics=(saved,))])
    directory = ROOTS[0] / "alpha"
    assert [p.diagnostic for p in library.problems()] == [saved]
    library.set_editing(directory, "alpha*", [live])
    assert mirror.events[-1] == EditingChanged(directory)
    assert [(p.skill_name, p.diagnostic) for p in library.problems()] == [("alpha*", live)]
    assert [p.diagnostic for p in library.problems_of(directory)] == [live]
    library.update_skill(summary(ROOTS[0], "beta"), old_directory=directory)
    assert [p.diagnostic for p in library.problems_of(ROOTS[0] / "beta")] == [live]
    library.stop_editing(ROOTS[0] / "beta")
    assert library.problems() == []


def test_duplicate_names_are_marked_across_roots_and_unmarked_when_gone() -> None:
    library = Library()
    for root in ROOTS[:2]:
        library.add_root(SkillRoot(root))
        library.add_skills(root, [summary(root, "pdf")])
    library.mark_duplicate_names()
    assert [p.diagnostic.code for p in library.problems()] == ["SK301", "SK301"]
    library.remove_skill(ROOTS[1] / "pdf")
    library.mark_duplicate_names()
    assert library.problems() == []


def _fill_shared(library: Library, names: tuple[str, ...] = NAMES) -> None:
    for root in ROOTS:
        library.add_root(SkillRoot(root))
        library.add_skills(root, [summary(root, f"{name}-{root.name}", name) for name in names])
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "alone")])


def test_shared_names_judged_a_step_at_a_time_match_all_at_once_one_event_per_root() -> None:
    whole, stepped = Library(), Library()
    mirror = Mirror(stepped)
    _fill_shared(whole)
    _fill_shared(stepped)
    whole.mark_duplicate_names()
    # Two skills' names read a step (of 6, 5 and 5 skills), then one name's three skills
    # judged a step, one event per root.
    steps = []
    seen = len(mirror.events)
    for _ in stepped.judge_shared_names(step=2):
        steps.append(mirror.events[seen:])
        seen = len(mirror.events)
    assert steps[:9] == [[]] * 9 and len(steps) == 9 + len(NAMES)
    for events in steps[9:]:
        assert [type(e) for e in events] == [SkillsReplaced] * len(ROOTS)
        assert all(isinstance(e, SkillsReplaced) and len(e.rows) == 1 for e in events)
    assert library_state(stepped) == library_state(whole)
    assert len(whole.problems()) == len(NAMES) * len(ROOTS)
    assert mirror.state() == library_state(stepped)


def test_a_skill_removed_or_renamed_while_names_are_judged_is_judged_by_that_change() -> None:
    library = Library()
    _fill_shared(library, ("pdf", "csv"))
    judging = library.judge_shared_names(step=1)
    for _ in range(len(ROOTS) * 2 + 1):  # every name read, none judged yet
        next(judging)
    library.remove_skill(ROOTS[1] / "pdf-b")
    library.update_skill(summary(ROOTS[2], "csv-c", "renamed"))
    for _ in judging:
        pass
    marked = sorted(str(p.directory) for p in library.problems())
    assert marked == ["/lib/a/csv-a", "/lib/a/pdf-a", "/lib/b/csv-b", "/lib/c/pdf-c"]
    assert library.summary_for(ROOTS[1] / "pdf-b") is None


def test_judging_takes_the_mark_off_a_name_no_longer_shared() -> None:
    library = Library()
    _fill_shared(library, ("pdf",))
    library.mark_duplicate_names()
    for root in ROOTS[1:]:
        library.clear_root(root)
    for _ in library.judge_shared_names(step=1):
        pass
    assert library.problems() == []


def test_a_changed_skill_s_shared_names_are_judged_again_without_a_rescan() -> None:
    library = Library()
    for root in ROOTS[:2]:
        library.add_root(SkillRoot(root))
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "pdf"), summary(ROOTS[0], "csv")])
    library.add_skills(ROOTS[1], [summary(ROOTS[1], "pdf")])
    library.mark_duplicate_names()
    # A skill read again from disk (after a save or a fix) comes without the mark.
    library.update_skill(summary(ROOTS[1], "pdf"))
    assert sorted(str(p.directory) for p in library.problems()) == ["/lib/a/pdf", "/lib/b/pdf"]
    library.update_skills([summary(ROOTS[1], "pdf", "renamed")])
    assert library.problems() == []
    library.update_skill(summary(ROOTS[0], "csv", "renamed"))
    assert [p.diagnostic.code for p in library.problems()] == ["SK301", "SK301"]
    library.remove_skill(ROOTS[0] / "csv")
    assert library.problems() == []


def test_a_root_s_target_is_told_and_judges_its_skills_and_the_paths_below() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(ROOTS[0]), "eino")
    library.add_root(SkillRoot(ROOTS[1]))
    library.add_skills(ROOTS[1], [summary(ROOTS[1], "alpha")])
    assert library.target_of(ROOTS[0] / "new" / "deeper") == "eino"
    assert library.target_of(ROOTS[1] / "alpha") == "spec"
    assert library.target_of(Path("/elsewhere")) == "spec"
    assert library.set_target(ROOTS[1], "claude-code")
    assert mirror.events[-1] == TargetChanged(1, SkillRoot(ROOTS[1]), "claude-code")
    assert library.target_of(ROOTS[1] / "alpha") == "claude-code"
    assert not library.set_target(ROOTS[1], "claude-code")
    assert not library.set_target(ROOTS[2], "eino")


def test_a_refresh_replaces_skills_in_place_and_drops_those_not_found_again() -> None:
    library = Library()
    mirror = Mirror(library)
    root = ROOTS[0]
    library.add_root(SkillRoot(root))
    library.add_skills(root, [summary(root, name) for name in ("alpha", "beta", "gamma")])
    bad = (Diagnostic("SK131", Severity.ERROR, "not a field of the spec"),)
    library.start_refresh(root)
    assert library.add_skills(root, [summary(root, "gamma", diagnostics=bad),
                                     summary(root, "alpha"), summary(root, "delta")]) == 1
    assert [s.name for s in library.summaries()] == ["alpha", "beta", "gamma", "delta"]
    assert not any(isinstance(e, SkillsRemoved) for e in mirror.events)
    assert [type(e) for e in mirror.events[-2:]] == [SkillsReplaced, SkillsAdded], "one per batch"
    library.finish_refresh(root)
    assert [s.name for s in library.summaries()] == ["alpha", "gamma", "delta"]
    assert [p.diagnostic for p in library.problems()] == list(bad)
    assert mirror.state() == library_state(library)
    # Outside a refresh, a known skill is left as it was.
    assert library.add_skills(root, [summary(root, "gamma")]) == 0
    assert [p.diagnostic for p in library.problems()] == list(bad)


def test_a_listed_skill_takes_its_validated_summary_in_place() -> None:
    """A cold scan lists skills before it validates them (`listed_first`): the validated summary
    replaces the unchecked one in its row, whether it comes in a later batch or the same one."""
    library = Library()
    mirror = Mirror(library)
    root = ROOTS[0]
    library.add_root(SkillRoot(root))
    assert library.add_skills(root, [summary(root, "alpha", checked=False),
                                     summary(root, "beta", checked=False)]) == 2
    assert [s.status for s in library.summaries()] == ["checking", "checking"]
    assert library.unchecked_count == 2
    events = len(mirror.events)
    assert library.add_skills(root, [summary(root, "alpha", checked=False)]) == 0
    assert len(mirror.events) == events, "listed twice: nothing to tell"
    bad = (Diagnostic("SK131", Severity.ERROR, "not a field of the spec"),)
    assert library.add_skills(root, [summary(root, "beta", diagnostics=bad),
                                     summary(root, "alpha")]) == 0
    replaced = mirror.events[-1]
    assert isinstance(replaced, SkillsReplaced) and replaced.rows == (1, 0)
    assert [s.status for s in library.summaries()] == ["valid", "errors"]
    assert library.unchecked_count == 0
    assert library.skill_count == 2
    # Once validated, a skill is not replaced by another scan's result outside a refresh.
    assert library.add_skills(root, [summary(root, "alpha", diagnostics=bad)]) == 0
    assert library.summary_for(root / "alpha") == summary(root, "alpha")
    # Listed and validated in one batch: one row, validated.
    assert library.add_skills(root, [summary(root, "gamma", checked=False),
                                     summary(root, "gamma", diagnostics=bad)]) == 1
    assert library.summary_for(root / "gamma") == summary(root, "gamma", diagnostics=bad)
    # While a root is refreshed, a listing leaves the old findings until the validated ones.
    library.start_refresh(root)
    library.add_skills(root, [summary(root, "beta", checked=False)])
    assert library.summary_for(root / "beta") == summary(root, "beta", diagnostics=bad)
    library.add_skills(root, [summary(root, "beta")])
    library.finish_refresh(root)
    assert [s.name for s in library.summaries()] == ["beta"]
    assert library.summary_for(root / "beta") == summary(root, "beta")
    assert mirror.state() == library_state(library)


class LibraryMachine(RuleBasedStateMachine):
    """Random adds, removes, renames and updates: a listener that only sees the events always
    holds the same rows as the library, and the count and lookups agree with the rows."""

    def __init__(self) -> None:
        super().__init__()
        self.library = Library()
        self.mirror = Mirror(self.library)

    @rule(root=st.sampled_from(ROOTS))
    def add_root(self, root: Path) -> None:
        self.library.add_root(SkillRoot(root))

    @rule(root=st.sampled_from(ROOTS))
    def remove_root(self, root: Path) -> None:
        self.library.remove_root(root)

    @rule(root=st.sampled_from(ROOTS))
    def clear_root(self, root: Path) -> None:
        self.library.clear_root(root)

    @rule(root=st.sampled_from(ROOTS),
          folders=st.lists(st.tuples(st.sampled_from(NAMES), st.booleans()), max_size=4))
    def add_skills(self, root: Path, folders: list[tuple[str, bool]]) -> None:
        self.library.add_skills(root, [summary(root, folder, checked=checked)
                                       for folder, checked in folders])

    @rule(root=st.sampled_from(ROOTS), folder=st.sampled_from(NAMES), valid=st.booleans())
    def update(self, root: Path, folder: str, valid: bool) -> None:
        problems = () if valid else (Diagnostic("SK101", Severity.ERROR, "bad"),)
        self.library.update_skill(summary(root, folder, diagnostics=problems))

    @rule(root=st.sampled_from(ROOTS), old=st.sampled_from(NAMES), new=st.sampled_from(NAMES))
    def rename(self, root: Path, old: str, new: str) -> None:
        self.library.update_skill(summary(root, new), old_directory=root / old)

    @rule(root=st.sampled_from(ROOTS), folder=st.sampled_from(NAMES))
    def remove(self, root: Path, folder: str) -> None:
        self.library.remove_skill(root / folder)

    @rule()
    def mark_duplicates(self) -> None:
        self.library.mark_duplicate_names()

    @rule(root=st.sampled_from(ROOTS), client=st.sampled_from(("spec", "claude-code", "eino")))
    def set_target(self, root: Path, client: str) -> None:
        self.library.set_target(root, client)

    @rule(root=st.sampled_from(ROOTS))
    def start_refresh(self, root: Path) -> None:
        self.library.start_refresh(root)

    @rule(root=st.sampled_from(ROOTS))
    def finish_refresh(self, root: Path) -> None:
        self.library.finish_refresh(root)

    @invariant()
    def listener_sees_the_library(self) -> None:
        assert self.mirror.state() == library_state(self.library)

    @invariant()
    def count_and_lookups_agree(self) -> None:
        every = self.library.summaries()
        assert self.library.skill_count == len(every)
        assert self.library.unchecked_count == sum(1 for s in every if not s.checked)
        assert self.library.loadable_count == sum(1 for s in every if s.loadable)
        assert len({s.directory for s in every}) == len(every)
        for found in every:
            assert self.library.summary_for(found.directory) == found


TestLibraryMachine = LibraryMachine.TestCase


def test_a_skill_removed_while_its_root_is_scanned_is_not_added_back_by_that_scan() -> None:
    library = Library()
    library.add_root(SkillRoot(ROOTS[0]))
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha"), summary(ROOTS[0], "beta")])
    library.set_scanning(ROOTS[0], True)
    assert library.remove_skill(ROOTS[0] / "alpha")
    # The scan read alpha before it was removed: what it found of alpha is out of date.
    assert library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha"),
                                         summary(ROOTS[0], "gamma")]) == 1
    assert library.summary_for(ROOTS[0] / "alpha") is None
    # Made again while the scan runs (a watcher reads it afresh): it is shown.
    assert library.update_skill(summary(ROOTS[0], "alpha"))
    assert library.summary_for(ROOTS[0] / "alpha") is not None
    library.remove_skill(ROOTS[0] / "alpha")
    library.set_scanning(ROOTS[0], False)
    # The next scan finds it again (put back on disk): it is added.
    library.set_scanning(ROOTS[0], True)
    assert library.add_skills(ROOTS[0], [summary(ROOTS[0], "alpha")]) == 1


def test_the_loadable_count_follows_every_change() -> None:
    library = Library()
    for root in ROOTS[:2]:
        library.add_root(SkillRoot(root))
    hidden = replace(summary(ROOTS[0], "hidden"), loadable=False)
    library.add_skills(ROOTS[0], [summary(ROOTS[0], "pdf"), hidden, summary(ROOTS[0], "csv")])
    library.add_skills(ROOTS[1], [summary(ROOTS[1], "pdf")])

    def counted() -> int:
        return sum(1 for found in library.summaries() if found.loadable)

    assert library.loadable_count == counted() == 3
    library.update_skill(replace(summary(ROOTS[0], "csv"), loadable=False))
    assert library.loadable_count == counted() == 2
    library.update_skill(replace(hidden, loadable=True))
    library.remove_skill(ROOTS[0] / "pdf")
    assert library.loadable_count == counted() == 2
    library.remove_root(ROOTS[1])
    assert library.loadable_count == counted() == 1
    library.clear_root(ROOTS[0])
    assert library.loadable_count == 0
