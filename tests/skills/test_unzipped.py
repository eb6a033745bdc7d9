"""Zipped skills unpacked for their scripts: once per archive content, every entry checked, the
copy read-only, the archive untouched, a changed archive unpacked again, a hostile one refused
with nothing left behind."""

from __future__ import annotations

import hashlib
import stat
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from studio.skills import unzipped
from studio.skills.archive import ArchiveError, Limits
from studio.skills.unzipped import UnpackedSkills
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
