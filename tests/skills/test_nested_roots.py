"""Roots inside roots: each skill belongs to the nearest root that holds it, whichever was added
or scanned first, and taking a root out hands its skills to the next nearest at once."""

from __future__ import annotations

from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from studio.skills.library.collection import Library
from studio.skills.scan.roots import SkillRoot
from tests.skills.test_collection import Mirror, library_state, summary

OUTER = Path("/lib/collection")
INNER = OUTER / "skills"
NESTED = (OUTER, INNER, INNER / "acme--tools")
SKILL_FOLDERS = ("loose", "skills/bob--web/search", "skills/acme--tools/pdf",
                 "skills/acme--tools/csv", "skills/acme--tools/deep/x", "other/y")
FOLDERS = ["skills/acme--tools/pdf", "skills/acme--tools/csv", "skills/bob--web/search"]


def outer_scan() -> list:
    return [summary(OUTER, folder, folder.rsplit("/", 1)[-1]) for folder in
            [*FOLDERS, "loose"]]


def inner_scan() -> list:
    return [summary(INNER, folder.removeprefix("skills/"), folder.rsplit("/", 1)[-1])
            for folder in FOLDERS]


def counts(library: Library) -> dict[Path, int]:
    return {state.path: len(state.skills) for state in library.roots()}


def test_a_root_added_inside_another_takes_its_skills() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(OUTER))
    library.add_skills(OUTER, outer_scan())
    library.add_root(SkillRoot(INNER))
    # At once, before the inner root's scan, which then finds them there already.
    assert counts(library) == {OUTER: 1, INNER: 3}
    assert library.add_skills(INNER, inner_scan()) == 0
    assert counts(library) == {OUTER: 1, INNER: 3}
    assert library.skill_count == 4
    assert library.root_of_skill(INNER / "acme--tools" / "pdf") == INNER
    assert mirror.state() == library_state(library)


def test_the_outer_root_leaves_out_what_a_nearer_root_holds() -> None:
    library = Library()
    library.add_root(SkillRoot(INNER))
    library.add_skills(INNER, inner_scan())
    library.add_root(SkillRoot(OUTER))
    assert library.add_skills(OUTER, outer_scan()) == 1
    assert counts(library) == {INNER: 3, OUTER: 1}


def test_a_nearer_root_not_yet_scanned_keeps_its_skills_from_the_outer_scan() -> None:
    library = Library()
    library.add_root(SkillRoot(OUTER))
    library.add_root(SkillRoot(INNER))
    library.add_skills(OUTER, outer_scan())
    library.add_skills(INNER, inner_scan())
    assert counts(library) == {OUTER: 1, INNER: 3}


def test_removing_the_outer_root_keeps_the_inner_roots_skills() -> None:
    library = Library()
    library.add_root(SkillRoot(OUTER))
    library.add_skills(OUTER, outer_scan())
    library.add_root(SkillRoot(INNER))
    library.add_skills(INNER, inner_scan())
    library.remove_root(OUTER)
    assert counts(library) == {INNER: 3}
    assert library.skill_count == 3


def test_skills_handed_to_a_root_judged_for_another_client_wait_for_its_scan() -> None:
    library = Library()
    library.add_root(SkillRoot(OUTER), "claude-code")
    library.add_skills(OUTER, outer_scan())
    library.add_root(SkillRoot(INNER))
    assert library.unchecked_count == 3
    library.add_skills(INNER, inner_scan())
    assert library.unchecked_count == 0
    assert counts(library) == {OUTER: 1, INNER: 3}


def test_removing_the_inner_root_hands_its_skills_back_at_once() -> None:
    library = Library()
    mirror = Mirror(library)
    library.add_root(SkillRoot(OUTER))
    library.add_skills(OUTER, outer_scan())
    library.add_root(SkillRoot(INNER))
    library.add_skills(INNER, inner_scan())
    library.remove_root(INNER)
    assert counts(library) == {OUTER: 4}
    assert library.skill_count == 4
    adopted = library.summary_for(INNER / "acme--tools" / "pdf")
    assert adopted is not None and adopted.root == OUTER
    assert mirror.state() == library_state(library)


class NestedRootsMachine(RuleBasedStateMachine):
    """Roots added, scanned and removed in any order around and inside each other: a listener
    that sees only the events holds the library's rows, each skill is listed once, and a
    root's scan leaves every skill it found in the nearest root there is."""

    def __init__(self) -> None:
        super().__init__()
        self.library = Library()
        self.mirror = Mirror(self.library)

    @rule(root=st.sampled_from(NESTED))
    def add_root(self, root: Path) -> None:
        self.library.add_root(SkillRoot(root))

    @rule(root=st.sampled_from(NESTED))
    def remove_root(self, root: Path) -> None:
        self.library.remove_root(root)

    @rule(root=st.sampled_from(NESTED), folders=st.lists(st.sampled_from(SKILL_FOLDERS), max_size=6))
    def scan(self, root: Path, folders: list[str]) -> None:
        found = [summary(root, str((OUTER / folder).relative_to(root)), folder)
                 for folder in folders if (OUTER / folder).is_relative_to(root)]
        self.library.add_skills(root, found)
        for skill in found:
            nearest = self.library.deepest_root(skill.directory)
            holder = self.library.root_of_skill(skill.directory)
            # Left out when a nearer root (not scanned yet) holds it, else in the nearest.
            assert holder is None or (nearest is not None and holder == nearest.path)
            if nearest is not None and nearest.path == root:
                assert holder == root

    @invariant()
    def each_skill_in_the_nearest_root(self) -> None:
        for state in self.library.roots():
            for found in state.skills:
                nearest = self.library.deepest_root(found.directory)
                assert nearest is state and found.root == state.path

    @rule(root=st.sampled_from(NESTED))
    def clear(self, root: Path) -> None:
        self.library.clear_root(root)

    @invariant()
    def listener_sees_the_library(self) -> None:
        assert self.mirror.state() == library_state(self.library)

    @invariant()
    def each_skill_once_and_counted(self) -> None:
        every = self.library.summaries()
        assert self.library.skill_count == len(every)
        assert len({found.directory for found in every}) == len(every)
        for state in self.library.roots():
            assert all(found.directory.is_relative_to(state.path) for found in state.skills)


TestNestedRootsMachine = NestedRootsMachine.TestCase
TestNestedRootsMachine.settings = settings(max_examples=150, stateful_step_count=30, deadline=None)
