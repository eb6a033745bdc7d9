"""`studio fix` rewrites a SKILL.md as the same file: owner, group, mode and links, or refuses."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from studio.cli import main
from studio.editing.fix_batch import BatchResult, FileChange, undo_one
from studio.fsutil import RefusedWrite, atomic_write_bytes
from tests.skills.helpers import write_skill

BROKEN = "---\nname: Demo\ndescription: Demo. Use when testing.\n---\nbody\n"

as_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="needs root to own a file for another user")


def _fix(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["fix", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@as_root
def test_a_file_of_another_user_stays_theirs_with_its_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "demo", BROKEN)
    skill_file = directory / "SKILL.md"
    os.chown(skill_file, 1234, 5678)
    os.chmod(skill_file, 0o640)
    code, _out, err = _fix(capsys, directory)
    assert code == 0, err
    info = (tmp_path / "demo" / "SKILL.md").stat()
    assert "name: demo" in (tmp_path / "demo" / "SKILL.md").read_text()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 5678, 0o640)


def test_a_hard_linked_file_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "demo", BROKEN)
    other = tmp_path / "elsewhere.md"
    os.link(directory / "SKILL.md", other)
    code, _, err = _fix(capsys, directory)
    assert code == 2
    assert "has 2 hard links" in err and "left as it is" in err
    assert (directory / "SKILL.md").read_text() == BROKEN
    assert os.stat(other).st_ino == os.stat(directory / "SKILL.md").st_ino


def test_a_read_only_file_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "demo", BROKEN)
    os.chmod(directory / "SKILL.md", 0o444)
    code, _, err = _fix(capsys, directory)
    assert code == 2 and "is read-only" in err
    assert (directory / "SKILL.md").read_text() == BROKEN


def test_a_plain_file_is_still_fixed_and_keeps_its_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "demo", BROKEN)
    os.chmod(directory / "SKILL.md", 0o600)
    code, _, err = _fix(capsys, directory)
    assert code == 0, err
    assert stat.S_IMODE((tmp_path / "demo" / "SKILL.md").stat().st_mode) == 0o600


def test_strict_write_refuses_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    os.link(target, tmp_path / "g")
    with pytest.raises(RefusedWrite, match="hard links"):
        atomic_write_bytes(target, b"new", strict=True)
    atomic_write_bytes(tmp_path / "new", b"x", strict=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "g", "new"]
    assert target.read_bytes() == b"old"


def test_strict_write_refuses_an_owner_it_cannot_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    real_stat = os.stat

    def other_owner(path: object, *args: object, **kwargs: object) -> os.stat_result:
        info = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if str(path) == str(target):
            fields = list(info)
            fields[stat.ST_UID] = info.st_uid + 4321
            return os.stat_result(fields)
        return info

    def denied(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "stat", other_owner)
    monkeypatch.setattr(os, "chown", denied)
    with pytest.raises(RefusedWrite, match="belongs to user"):
        atomic_write_bytes(target, b"new", strict=True)
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_undo_of_a_window_fix_refuses_a_file_that_became_hard_linked(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"after")
    os.link(path, tmp_path / "copy")
    result = BatchResult()
    undo_one(FileChange(tmp_path, path, b"before", b"after"), result)
    assert not result.changed and "hard links" in result.failed[0].reason
    assert path.read_bytes() == b"after"
