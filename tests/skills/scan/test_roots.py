from __future__ import annotations

import os
import types
import zipfile
from pathlib import Path

import pytest

from studio.skills.files import list_skill_files
from studio.skills.model import Diagnostic
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.roots import SkillRoot, scan_library, scan_root, standard_locations
from studio.skills.scan.walk import discover, walk_skills
from studio.skills.search.catalog import build_catalog
from tests.skills.helpers import frontmatter, write_skill


def make_library(root: Path) -> None:
    write_skill(root, "alpha", frontmatter("alpha"))
    write_skill(root / "nested" / "deeper", "beta", frontmatter("beta"))
    write_skill(root / ".hidden", "gamma", frontmatter("gamma"))
    write_skill(root / "node_modules", "delta", frontmatter("delta"))
    write_skill(root / ".git", "epsilon", frontmatter("epsilon"))


def test_discovery_skips_hidden_vendor_and_git(tmp_path: Path) -> None:
    make_library(tmp_path)
    found = sorted(directory.name for directory, _ in discover(tmp_path))
    assert found == ["alpha", "beta"]
    with_hidden = sorted(directory.name for directory, _ in discover(tmp_path, include_hidden=True))
    assert with_hidden == ["alpha", "beta", "gamma"]


def test_discovery_survives_symlink_loops(tmp_path: Path) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    (tmp_path / "loop").symlink_to(tmp_path)
    assert [d.name for d, _ in discover(tmp_path)] == ["alpha"]


def test_zip_roots_are_read_only(tmp_path: Path) -> None:
    archive = tmp_path / "skills.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pack/alpha/SKILL.md", frontmatter("alpha"))
        zf.writestr("pack/alpha/references/a.md", "ref")
        zf.writestr("pack/Wrong/SKILL.md", frontmatter("wrong"))
    scan = scan_root(SkillRoot(archive))
    assert scan.error is None
    names = {s.name: s for s in scan.skills}
    assert set(names) == {"alpha", "wrong"}
    assert all(s.read_only for s in scan.skills)
    assert names["alpha"].valid and not names["wrong"].valid


def test_a_bad_zip_is_an_error_not_a_crash(tmp_path: Path) -> None:
    archive = tmp_path / "broken.zip"
    archive.write_bytes(b"not a zip")
    scan = scan_root(SkillRoot(archive))
    assert scan.error is not None and "broken.zip" in scan.error


def test_duplicate_names_across_roots_are_reported(tmp_path: Path) -> None:
    write_skill(tmp_path / "one", "alpha", frontmatter("alpha"))
    write_skill(tmp_path / "two", "alpha", frontmatter("alpha"))
    scans = scan_library([SkillRoot(tmp_path / "one"), SkillRoot(tmp_path / "two")])
    for scan in scans:
        [summary] = scan.skills
        assert [d.code for d in summary.diagnostics] == ["SK301"]


def test_rescan_uses_the_cache_and_notices_changes(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    library = tmp_path / "lib"
    write_skill(library, "alpha", frontmatter("alpha"))
    write_skill(library, "beta", frontmatter("beta"))
    cache_file = tmp_path / "cache.marshal"
    scan_library([SkillRoot(library)], ScanCache(cache_file))
    assert cache_file.exists()

    import studio.skills.scan.roots as library_module

    loads: list[str] = []
    real_load = library_module.load_skill_file
    monkeypatch.setattr(
        library_module, "load_skill_file",
        lambda p, name, listing, **options: loads.append(p) or real_load(p, name, listing, **options),
    )
    scan_library([SkillRoot(library)], ScanCache(cache_file))
    assert loads == []

    skill_file = library / "beta" / "SKILL.md"
    skill_file.write_text(frontmatter("Beta"))
    os.utime(skill_file, ns=(1, 1))
    (library / "alpha" / "references").mkdir()
    [scan] = scan_library([SkillRoot(library)], ScanCache(cache_file))
    assert sorted(os.path.basename(p) for p in loads) == ["alpha", "beta"]
    beta = next(s for s in scan.skills if s.directory.name == "beta")
    assert not beta.valid


def test_a_damaged_cache_is_ignored(tmp_path: Path) -> None:
    write_skill(tmp_path / "lib", "alpha", frontmatter("alpha"))
    cache_file = tmp_path / "cache.marshal"
    cache_file.write_bytes(b"\x00garbage")
    [scan] = scan_library([SkillRoot(tmp_path / "lib")], ScanCache(cache_file))
    assert [s.name for s in scan.skills] == ["alpha"]


def test_standard_locations(tmp_path: Path) -> None:
    found = standard_locations(tmp_path / "project", tmp_path / "home")
    assert tmp_path / "project/.agents/skills" in found
    assert tmp_path / "home/.claude/skills" in found
    assert tmp_path / "home/.codex/skills" in found


def test_catalog_lists_loadable_skills_only(tmp_path: Path) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha", "Handles <xml> & more. Use when asked."))
    write_skill(tmp_path, "broken", "---\nname: broken\n---\n")
    [scan] = scan_library([SkillRoot(tmp_path)])
    catalog = build_catalog(scan.skills)
    assert "<name>alpha</name>" in catalog.xml
    assert "Handles &lt;xml&gt; &amp; more." in catalog.xml
    assert f"<location>{tmp_path / 'alpha' / 'SKILL.md'}</location>" in catalog.xml
    assert [s.directory.name for s in catalog.skipped] == ["broken"]


def test_validating_leaves_no_reference_cycles(tmp_path: Path) -> None:
    """`studio validate` turns the cyclic collector off for a whole report, so a scan must free
    everything by reference counting alone."""
    import gc

    write_skill(tmp_path, "alpha", frontmatter("alpha", extra="metadata:\n  tags: [a, b]\n"),
                files={"scripts/run.py": "print(1)\n", "references/a.md": "x"})
    write_skill(tmp_path, "broken", "---\nname: broken\ndescription: a: b\n---\nbody\n")
    write_skill(tmp_path, "aliases", "---\nname: &n aliases\ndescription: *n\nlist: &l [1, *n]\n"
                "other: *l\n---\nSee `references/gone.md`.\n")
    write_skill(tmp_path, "typed", "\ufeff---\r\nname: 12\r\ndescription: yes\r\n---\r\n[x](y.md)\r\n")
    write_skill(tmp_path, "nul", b"---\nname: nul\n\x00\n---\n")
    scan_root(SkillRoot(tmp_path))  # imports and caches whatever a first run sets up
    gc.collect()
    gc.disable()
    # Only the scan's own garbage counts: a thread an earlier test left running may make
    # garbage of its own meanwhile.
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        [scan] = [scan_root(SkillRoot(tmp_path))]
        assert len(scan.skills) == 5
        gc.collect()
        ours = [found for found in gc.garbage if _made_by_a_scan(found)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert ours == []


def _made_by_a_scan(found: object) -> bool:
    if isinstance(found, types.FrameType):
        module = found.f_globals.get("__name__", "")
    elif isinstance(found, types.FunctionType):
        module = found.__module__ or ""
    else:
        module = type(found).__module__
    return module.startswith(("studio.", "yaml", "pathlib", "markdown_it"))


def test_the_walks_listing_gives_the_same_files_as_reading_the_folder(tmp_path: Path) -> None:
    skill = write_skill(tmp_path, "alpha", frontmatter("alpha"), files={
        "scripts/run.py": "#!/usr/bin/env python3\n", "references/deep/more.md": "x",
        "assets/logo.svg": "<svg/>", "node_modules/x.js": "", "skill.md": "old copy",
    })
    (skill / "link.md").symlink_to(skill / "assets" / "logo.svg")
    (skill / "gone.md").symlink_to(tmp_path / "nowhere")
    [found] = list(walk_skills(tmp_path, False))
    assert found.listing is not None
    assert list_skill_files(skill, found.listing) == list_skill_files(skill)
    assert [str(f.path) for f in list_skill_files(skill)] == [
        "assets/logo.svg", "link.md", "references/deep/more.md", "scripts/run.py",
    ]


def test_studio_skills_adds_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_SKILLS", os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path / "b")]))
    found = standard_locations(tmp_path / "project", tmp_path / "home")
    assert found[:2] == [tmp_path / "a", tmp_path / "b"]


def test_a_scan_without_a_cache_stamps_nothing_and_judges_the_same(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    write_skill(library, "alpha", frontmatter("alpha"), {"scripts/run.sh": "echo\n",
                                                         "references/deep/guide.md": "x\n"})
    write_skill(library, "beta", frontmatter("beta", extra="version: 2\n"))
    bare = scan_root(SkillRoot(library))
    cached = scan_root(SkillRoot(library), ScanCache(tmp_path / "cache.marshal"))
    assert [found.fingerprint for found in bare.walk] == [(), ()]
    assert all(found.fingerprint for found in cached.walk)
    assert bare.skills == cached.skills


def test_a_scan_lists_files_without_their_sizes_but_reports_the_same(tmp_path: Path) -> None:
    skill = write_skill(tmp_path, "alpha", frontmatter("alpha"),
                        {"scripts/run.sh": "echo\n", "references/guide.md": "x\n"})
    os.mkfifo(skill / "references" / "pipe")
    (skill / "outside").symlink_to(tmp_path)
    odd_full: list[Diagnostic] = []
    odd_scan: list[Diagnostic] = []
    full = list_skill_files(skill, odd=odd_full)
    scanned = list_skill_files(skill, odd=odd_scan, sizes=False)
    assert [f.relative for f in scanned] == [f.relative for f in full]
    assert odd_scan == odd_full and len(odd_scan) == 2
    by_path = {f.relative: f for f in scanned}
    assert by_path["references/guide.md"].size is None
    assert by_path["scripts/run.sh"] == next(f for f in full if f.relative == "scripts/run.sh")
