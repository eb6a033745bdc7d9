"""Roots inside roots: each skill belongs to the nearest root that holds it, whichever was added
or scanned first, and taking a root out hands its skills to the next nearest at once."""

from __future__ import annotations

from pathlib import Path

from studio.skills.library.collection import Library
from studio.skills.scan.roots import SkillRoot
from tests.skills.test_collection import Mirror, library_state, summary

OUTER = Path("/lib/collection")
INNER = OUTER / "skills"
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
    assert library.add_skills(INNER, inner_scan()) == 3
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
