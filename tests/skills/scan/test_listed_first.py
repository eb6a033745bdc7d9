"""The window's two-pass scan: every skill listed (SKILL.md read) before any is validated, both
passes in the walk's order, the validated summaries the same as a one-pass scan's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from studio.skills.scan.cache import ScanCache
from studio.skills.scan.entries import LISTING_LENGTH, decode, encode
from studio.skills.scan.listed_first import scan_listed_first
from studio.skills.scan.roots import PARALLEL_MIN, SkillRoot, scan_root
from tests.skills.helpers import frontmatter, write_skill

Calls = list[tuple[str, tuple[Any, ...]]]


def _scan(root: Path, cache: ScanCache | None = None) -> Calls:
    calls: Calls = []
    scan_listed_first(SkillRoot(root), lambda entry: calls.append(("listed", entry)),
                      lambda entry: calls.append(("checked", entry)), cache)
    return calls


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """More skills than it takes to start worker processes, some with problems."""
    root = tmp_path / "skills"
    for number in range(PARALLEL_MIN + 6):
        name = f"skill-{number:03d}"
        if number % 7 == 3:
            text = frontmatter(name, "Vague.")  # a warning
        elif number % 11 == 5:
            text = frontmatter(name, extra="version: 2\n")  # a field outside the spec
        elif number % 13 == 4:
            text = "no frontmatter at all\n"  # not loadable
        else:
            text = frontmatter(name)
        # Folders inside make the fingerprint depend on the order they are stamped in.
        files = {"scripts/run.py": "print(1)\n", "references/notes.md": "Notes.\n"} \
            if number % 3 == 0 else None
        write_skill(root / f"repo-{number % 5}" / "skills", name, text, files)
    return root


def test_every_skill_is_listed_before_any_is_validated_both_in_the_walk_s_order(
        library: Path) -> None:
    calls = _scan(library)
    kinds = [kind for kind, _ in calls]
    listed = [entry for kind, entry in calls if kind == "listed"]
    checked = [entry for kind, entry in calls if kind == "checked"]
    assert kinds == ["listed"] * len(listed) + ["checked"] * len(checked)
    one_pass = [encode(summary) for summary in scan_root(SkillRoot(library)).skills]
    assert checked == one_pass, "the validated summaries are exactly a one-pass scan's"
    assert [entry[0] for entry in listed] == [entry[0] for entry in one_pass]
    for entry, validated in zip(listed, checked, strict=True):
        assert len(entry) == LISTING_LENGTH
        unchecked = decode(library, entry)
        final = decode(library, validated)
        assert unchecked.status == "checking" and not unchecked.diagnostics
        assert (unchecked.directory, unchecked.skill_file, unchecked.name, unchecked.description,
                unchecked.loadable, unchecked.model_invocable) == (
            final.directory, final.skill_file, final.name, final.description, final.loadable,
            final.model_invocable)


def test_what_the_cache_holds_is_listed_whole_and_not_validated_again(
        library: Path, tmp_path: Path) -> None:
    """A first scan stamps each skill as it validates it (the cache holds nothing of the root,
    so the listing pass does not): the next scan, walking with stamps, finds every one."""
    cache = ScanCache(tmp_path / "cache.marshal", "spec")
    first = _scan(library, cache)
    cache.save()
    again = _scan(library, ScanCache(tmp_path / "cache.marshal", "spec"))
    assert [kind for kind, _ in again] == ["listed"] * len(again)
    assert [entry for _, entry in again] == [entry for kind, entry in first if kind == "checked"]

    changed = library / "repo-1" / "skills" / "skill-001" / "SKILL.md"
    changed.write_text(frontmatter("skill-001", "Vague."), encoding="utf-8")
    os.utime(changed, ns=(1, 1))  # a new stamp however coarse the clock
    third = _scan(library, ScanCache(tmp_path / "cache.marshal", "spec"))
    light = [entry for kind, entry in third if kind == "listed" and len(entry) == LISTING_LENGTH]
    checked = [entry for kind, entry in third if kind == "checked"]
    assert [entry[0] for entry in light] == [entry[0] for entry in checked] == [str(changed.parent)]
    assert any(code == "SK209" for code, *_ in checked[0][7])


def test_a_skill_md_that_cannot_be_read_is_listed_unchecked_and_its_validation_says_why(
        tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "fine", frontmatter("fine"))
    (root / "pipe").mkdir()
    os.mkfifo(root / "pipe" / "SKILL.md")
    calls = _scan(root)
    listed = {entry[0]: entry for kind, entry in calls if kind == "listed"}
    checked = {entry[0]: entry for kind, entry in calls if kind == "checked"}
    pipe = str(root / "pipe")
    assert decode(root, listed[pipe]).name is None
    assert not decode(root, checked[pipe]).loadable
    assert decode(root, checked[str(root / "fine")]).status == "valid"


def test_an_archive_is_scanned_in_one_pass(tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "skills.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("demo/SKILL.md", frontmatter("demo"))
    calls = _scan(archive)
    assert [kind for kind, _ in calls] == ["checked"]


_NICE_WORKERS = """
from unittest import mock
from studio.skills.scan import roots
import os
with mock.patch.object(roots, "usable_cores", lambda: 2):
    pool = roots._pool(7)
assert pool is not None
print(os.nice(0), *{pool.submit(os.nice, 0).result() for _ in range(8)})
pool.shutdown()
"""


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no nice(2) here")
def test_validating_workers_yield_the_cores_by_the_niceness_asked() -> None:
    done = subprocess.run([sys.executable, "-c", _NICE_WORKERS], cwd=Path(__file__).parents[2],
                          capture_output=True, text=True, timeout=120, check=True)
    parent, *workers = (int(word) for word in done.stdout.split())
    assert workers == [min(parent + 7, 19)]
