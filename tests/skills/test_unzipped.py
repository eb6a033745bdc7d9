"""Zipped skills unpacked for their scripts: once per archive content, every entry checked, the
copy read-only, the archive untouched, a changed archive unpacked again, a hostile one refused
with nothing left behind."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from studio.skills.library import unzipped
from studio.skills.library.archive import ArchiveError, Limits
from studio.skills.library.unzipped import UnpackedSkills
from tests.skills.helpers import frontmatter

SCRIPT = "print('hello from the zip')\n"


def make_zip(path: Path, entries: dict[str, str], *, modes: dict[str, int] | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in entries.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = ((modes or {}).get(name, 0o100644)) << 16
            archive.writestr(info, text, compress_type=zipfile.ZIP_DEFLATED)
    return path


def pack(tmp_path: Path, script: str = SCRIPT) -> Path:
    return make_zip(tmp_path / "pack.zip", {
        "demo/SKILL.md": frontmatter("demo"),
        "demo/scripts/hello.py": script,
        "demo/scripts/run.sh": "#!/bin/sh\necho hi\n",
        "other/SKILL.md": frontmatter("other"),
    }, modes={"demo/scripts/run.sh": 0o100755})


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_skill_is_unpacked_once_read_only_under_the_archives_hash(tmp_path: Path) -> None:
    archive = pack(tmp_path)
    before = archive.read_bytes()
    unpacked = UnpackedSkills(tmp_path / "cache")
    folder = unpacked.folder(archive, PurePosixPath("demo"))
    assert folder == tmp_path / "cache" / digest(archive) / "demo"
    assert (folder / "scripts" / "hello.py").read_text() == SCRIPT
    for path in (folder.parent, folder, folder / "scripts", folder / "SKILL.md",
                 folder / "scripts" / "hello.py"):
        assert stat.S_IMODE(path.stat().st_mode) & 0o222 == 0, path
    assert (folder / "scripts" / "run.sh").stat().st_mode & 0o111
    assert not (folder / "scripts" / "hello.py").stat().st_mode & 0o111
    assert archive.read_bytes() == before
    # Only the copy is left in the cache: no scratch folder.
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [digest(archive)]


def test_the_copy_is_reused_and_a_changed_archive_is_unpacked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = pack(tmp_path)
    unpacked = UnpackedSkills(tmp_path / "cache")
    first = unpacked.folder(archive, PurePosixPath("demo"))
    calls: list[Path] = []
    real = unzipped.unpack
    monkeypatch.setattr(unzipped, "unpack", lambda *args: calls.append(args[0]) or real(*args))
    assert unpacked.folder(archive, PurePosixPath("demo")) == first
    assert unpacked.folder(archive, PurePosixPath("other")) == first.parent / "other"
    assert calls == []
    archive.unlink()
    pack(tmp_path, script="print('changed')\n")
    second = unpacked.folder(archive, PurePosixPath("demo"))
    assert len(calls) == 1 and second != first
    assert (second / "scripts" / "hello.py").read_text() == "print('changed')\n"
    assert (first / "scripts" / "hello.py").read_text() == SCRIPT


@pytest.mark.parametrize(("entries", "modes", "said"), [
    ({"demo/SKILL.md": "x", "../evil.py": "x"}, {}, "reaches outside"),
    ({"demo/SKILL.md": "x", "/etc/evil": "x"}, {}, "absolute path"),
    ({"demo/SKILL.md": "x", "demo/link": "/etc/passwd"}, {"demo/link": 0o120777}, "is a link"),
    ({"demo/SKILL.md": "x", "demo/fifo": ""}, {"demo/fifo": 0o010644}, "not a plain file"),
    ({"demo/SKILL.md": "x", **{f"demo/f{i}": "" for i in range(20)}}, {}, "more than 10 entries"),
    ({"demo/SKILL.md": "x", "demo/big": "y" * 5000}, {}, "would unpack to"),
])
def test_a_hostile_archive_is_refused_and_leaves_nothing(
        tmp_path: Path, entries: dict[str, str], modes: dict[str, int], said: str) -> None:
    archive = make_zip(tmp_path / "hostile.zip", entries, modes=modes)
    before = archive.read_bytes()
    unpacked = UnpackedSkills(tmp_path / "cache", Limits(max_files=10, max_unpacked=4096))
    with pytest.raises(ArchiveError, match=said):
        unpacked.folder(archive, PurePosixPath("demo"))
    assert list((tmp_path / "cache").iterdir()) == []
    assert archive.read_bytes() == before
    assert not (tmp_path / "evil.py").exists()


def test_a_path_with_no_skill_or_a_climbing_path_is_refused(tmp_path: Path) -> None:
    archive = pack(tmp_path)
    unpacked = UnpackedSkills(tmp_path / "cache")
    with pytest.raises(ArchiveError, match="holds no skill at scripts"):
        unpacked.folder(archive, PurePosixPath("scripts"))
    with pytest.raises(ArchiveError, match="outside"):
        unpacked.folder(archive, PurePosixPath("../demo"))


def test_a_file_that_is_not_a_zip_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "fake.zip"
    fake.write_bytes(b"\x1f\x8b not a zip")
    with pytest.raises(ArchiveError, match="not a zip"):
        UnpackedSkills(tmp_path / "cache").folder(fake, PurePosixPath("demo"))
    assert list((tmp_path / "cache").iterdir()) == []


def _age(path: Path, seconds: float) -> None:
    """Make `path` look last used `seconds` ago."""
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_using_a_copy_stamps_it(tmp_path: Path) -> None:
    archive = pack(tmp_path)
    unpacked = UnpackedSkills(tmp_path / "cache")
    copy = unpacked.folder(archive, PurePosixPath("demo")).parent
    _age(copy, 40 * unzipped.DAY)
    unpacked.folder(archive, PurePosixPath("demo"))
    assert time.time() - copy.stat().st_mtime < unzipped.DAY
    assert unpacked.remove_unused() == []


def test_copies_unused_for_long_go_when_another_is_unpacked(tmp_path: Path) -> None:
    unpacked = UnpackedSkills(tmp_path / "cache")
    old = unpacked.folder(pack(tmp_path, "print('old')\n"), PurePosixPath("demo")).parent
    recent = unpacked.folder(pack(tmp_path, "print('recent')\n"), PurePosixPath("demo")).parent
    _age(old, 31 * unzipped.DAY)
    _age(recent, 29 * unzipped.DAY)

    newest = unpacked.folder(pack(tmp_path, "print('new')\n"), PurePosixPath("demo")).parent
    assert not old.exists()
    assert recent.is_dir() and newest.is_dir()
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == sorted(
        [recent.name, newest.name])


def test_over_the_size_cap_the_least_recently_used_go_but_never_one_used_today(
        tmp_path: Path) -> None:
    unpacked = UnpackedSkills(tmp_path / "cache")
    copies = [unpacked.folder(pack(tmp_path, f"print({n})\n"), PurePosixPath("demo")).parent
              for n in range(4)]
    for copy, days in zip(copies, (3, 5, 2, 0), strict=True):
        _age(copy, days * unzipped.DAY + 60)
    one = unzipped._size(copies[0])

    removed = unpacked.remove_unused(max_bytes=2 * one)
    assert removed == [copies[1], copies[0]]
    assert copies[2].is_dir() and copies[3].is_dir()
    assert unpacked.remove_unused(max_bytes=0) == [copies[2]]
    assert copies[3].is_dir()


def test_only_copies_are_removed_never_through_a_link(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    unpacked = UnpackedSkills(cache)
    unpacked.folder(pack(tmp_path), PurePosixPath("demo"))
    outside = tmp_path / "precious"
    (outside / "keep").mkdir(parents=True)
    (outside / "keep" / "file.txt").write_text("mine")
    link = cache / ("a" * 64)
    link.symlink_to(outside, target_is_directory=True)
    stranger = cache / "not-a-copy"
    stranger.mkdir()
    for path in (outside, stranger, *cache.iterdir()):
        _age(path, 400 * unzipped.DAY)

    removed = unpacked.remove_unused()
    assert len(removed) == 1 and removed[0].name == digest(tmp_path / "pack.zip")
    assert (outside / "keep" / "file.txt").read_text() == "mine"
    assert link.is_symlink() and stranger.is_dir()


def test_a_copy_a_process_works_in_is_kept(tmp_path: Path) -> None:
    unpacked = UnpackedSkills(tmp_path / "cache")
    folder = unpacked.folder(pack(tmp_path), PurePosixPath("demo"))
    _age(folder.parent, 100 * unzipped.DAY)
    running = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                               cwd=folder / "scripts", stdin=subprocess.PIPE)
    try:
        assert unpacked.remove_unused() == []
        assert (folder / "scripts" / "hello.py").is_file()
    finally:
        running.communicate(b"")
    assert unpacked.remove_unused() == [folder.parent]


def test_leftovers_of_a_killed_unpack_or_removal_are_cleared(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    unpacked = UnpackedSkills(cache)
    unpacked.folder(pack(tmp_path), PurePosixPath("demo"))
    half_removed = cache / (".removing-" + "b" * 64)
    old_scratch, new_scratch = cache / ".unpacking-old", cache / ".unpacking-new"
    for folder in (half_removed, old_scratch, new_scratch):
        (folder / "sub").mkdir(parents=True)
        (folder / "sub").chmod(0o555)
    _age(old_scratch, 2 * unzipped.DAY)

    unpacked.remove_unused()
    assert not half_removed.exists() and not old_scratch.exists()
    assert new_scratch.is_dir()
