"""The reading shortcuts a library scan takes must give what the plain way gives: the skill's
paths built from the walk's text equal pathlib's, and a SKILL.md the listing calls regular is
still refused when something else stands there by the time it is opened."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from studio.skills.files import _skill_paths, listing_of, load_skill_file
from tests.skills.helpers import frontmatter, write_skill

PARTS = st.sampled_from(["a", "skills", ".", "..", "", "x y", "é", ".claude", "a.b", "~"])


@given(st.lists(PARTS, max_size=6).map("/".join), st.sampled_from(["SKILL.md", "skill.md"]))
@example("/tmp/lib/owner--repo/skills/demo", "SKILL.md")
@example("/", "SKILL.md")
@example("//host/share", "SKILL.md")
@example("./demo", "SKILL.md")
@example("", "SKILL.md")
def test_the_skill_paths_are_the_ones_pathlib_parses(folder: str, file_name: str) -> None:
    directory, skill_path = _skill_paths(folder, file_name)
    expected = Path(folder)
    for built, wanted in ((directory, expected), (skill_path, expected / file_name)):
        assert type(built) is type(wanted)
        assert built == wanted and hash(built) == hash(wanted)
        assert str(built) == str(wanted) and built.parts == wanted.parts
        assert built.name == wanted.name and built.parent == wanted.parent


def test_a_scan_reads_a_skill_as_its_path_names_it(tmp_path: Path) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"))
    with os.scandir(folder) as entries:
        listing = listing_of(list(entries))
    by_text = load_skill_file(str(folder), "SKILL.md", listing, sizes=False)
    by_path = load_skill_file(folder, "SKILL.md")
    assert by_text.path == by_path.path == folder / "SKILL.md"
    assert by_text.directory == folder and by_text.dir_name == "demo"
    assert by_text.source == by_path.source and by_text.problems == by_path.problems == []


@pytest.mark.timeout(60)  # a regression here hangs on the FIFO: fail instead
def test_a_fifo_put_where_the_listing_saw_a_file_is_refused_not_waited_on(
    tmp_path: Path,
) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"))
    with os.scandir(folder) as entries:
        listing = listing_of(list(entries))
    (folder / "SKILL.md").unlink()
    os.mkfifo(folder / "SKILL.md")
    skill = load_skill_file(str(folder), "SKILL.md", listing, sizes=False)
    assert [d.code for d in skill.problems] == ["SK006"]
    assert "FIFO" in skill.problems[0].message
