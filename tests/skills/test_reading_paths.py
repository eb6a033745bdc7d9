"""The reading shortcuts a library scan takes must give what the plain way gives: the skill's
paths built from the walk's text equal pathlib's, and a SKILL.md the listing calls regular is
still refused when something else stands there by the time it is opened."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import studio.skills.files as files_module
from studio.skills.files import _skill_paths, list_skill_files, listing_of, load_skill_file
from studio.skills.model import Diagnostic
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


def test_a_scan_lists_scripts_with_their_size_mode_and_shebang(tmp_path: Path) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"), {
        "scripts/run.sh": "#!/bin/sh\necho hi\n", "scripts/lib.py": "x = 1\n", "scripts/a": "",
        "references/r.md": "# R\n",
    })
    (folder / "scripts" / "run.sh").chmod(0o755)
    (folder / "scripts" / "elf").write_bytes(b"\x7fELF\x02")
    with os.scandir(folder) as entries:
        listing = listing_of(list(entries))
    files = list_skill_files(str(folder), listing, sizes=False)
    assert [tuple(f) for f in files] == [
        ("references/r.md", None, None, None),
        ("scripts/a", 0, False, False),
        ("scripts/elf", 5, False, True),
        ("scripts/lib.py", 6, False, False),
        ("scripts/run.sh", 18, True, True),
    ]
    assert files == list_skill_files(folder, sizes=False)


@pytest.mark.timeout(60)  # a regression here hangs on the FIFO: fail instead
def test_a_fifo_put_where_a_listing_saw_a_script_is_reported_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"), {
        "scripts/run.sh": "#!/bin/sh\n", "scripts/ok.sh": "#!/bin/sh\n",
    })
    scripts = str(folder / "scripts")
    stale, listing = files_module._listing(scripts), files_module._listing
    (folder / "scripts" / "run.sh").unlink()
    os.mkfifo(folder / "scripts" / "run.sh")
    monkeypatch.setattr(files_module, "_listing", lambda path: stale if path == scripts else listing(path))
    odd: list[Diagnostic] = []
    files = list_skill_files(str(folder), odd=odd, sizes=False)
    assert [f.relative for f in files] == ["scripts/ok.sh"]
    assert [(d.code, d.file) for d in odd] == [("SK210", "scripts/run.sh")]
    assert "FIFO" in odd[0].message


# A file tree below a skill: each entry a path and what stands there.
TREE_NAMES = st.sampled_from(["references", "assets", "scripts", "a", "b", ".git", "node_modules",
                              "x.md", "y.png", "deep"])
TREE = st.lists(
    st.tuples(st.lists(TREE_NAMES, min_size=1, max_size=10).map("/".join),
              st.sampled_from(["file", "file", "file", "fifo", "link-in", "link-out", "link-dir"])),
    max_size=25,
)


@given(TREE, st.sampled_from([3, 8, 2000]))
def test_a_scan_names_the_files_of_every_folder_as_the_full_listing_does(
    tree: list[tuple[str, str]], limit: int
) -> None:
    """Without sizes, the folders below the skill are listed the short way: the same files,
    the same findings about links and FIFOs, the same cut at MAX_LISTED_FILES and MAX_DEPTH."""
    import tempfile

    with tempfile.TemporaryDirectory() as temp:
        folder = write_skill(Path(temp), "demo", frontmatter("demo"))
        for relative, kind in tree:
            path = folder / relative
            if os.path.lexists(path):
                continue  # taken already (a write to a FIFO there would wait for a reader)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if kind == "file":
                    path.write_text("x\n", encoding="utf-8")
                elif kind == "fifo":
                    os.mkfifo(path)
                elif kind == "link-in":
                    path.symlink_to(folder / "SKILL.md")
                elif kind == "link-out":
                    path.symlink_to(temp)
                else:
                    path.symlink_to(folder)
            except OSError:
                continue  # a path through a file, or taken already
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(files_module, "MAX_LISTED_FILES", limit)
            odd_full: list[Diagnostic] = []
            odd_short: list[Diagnostic] = []
            full = list_skill_files(folder, odd=odd_full)
            short = list_skill_files(str(folder), odd=odd_short, sizes=False)
        assert [f.relative for f in short] == [f.relative for f in full]
        assert odd_short == odd_full
