"""Stamps: whether every file a report read is as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.skills.scan.stamps import stamp_of, unchanged


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    made = []
    for number in range(40):
        path = tmp_path / f"file-{number}.md"
        path.write_text(f"text {number}\n", encoding="utf-8")
        made.append(path)
    return made


def test_nothing_changed(files: list[Path]) -> None:
    taken = [stamp_of(str(path)) for path in files] + [stamp_of(str(files[0]) + ".gone")]
    assert unchanged(taken)


@pytest.mark.parametrize("which", [0, 17, 39])
def test_a_file_written_again_anywhere_is_seen(files: list[Path], which: int) -> None:
    taken = [stamp_of(str(path)) for path in files]
    files[which].write_text("longer text than before\n", encoding="utf-8")
    assert not unchanged(taken)


def test_a_file_removed_or_made_is_seen(files: list[Path]) -> None:
    taken = [stamp_of(str(path)) for path in files]
    files[-1].unlink()
    assert not unchanged(taken)
    missing = [stamp_of(str(files[-1]))]
    files[-1].write_text("back\n", encoding="utf-8")
    assert not unchanged(missing)


def test_a_new_mtime_alone_is_seen(files: list[Path]) -> None:
    taken = [stamp_of(str(path)) for path in files]
    info = files[25].stat()
    os.utime(files[25], ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))
    assert not unchanged(taken)
