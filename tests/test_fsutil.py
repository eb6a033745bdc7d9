from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from studio.fsutil import atomic_write_bytes, move_aside, remove_stale_temps


def test_a_stale_temp_file_is_removed_and_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "SKILL.md"
    target.write_bytes(b"old")
    stale = tmp_path / ".SKILL.md.abcd_123.tmp"
    stale.write_bytes(b"new, never renamed")
    keep = [
        ".SKILL.md.abcd1234.tmp.bak", ".SKILL.md.ABCD1234.tmp", ".SKILL.md.abc.tmp", "SKILL.md.abcd1234.tmp",
        ".skill.md.abcd1234.tmp", ".notes.md.abcd1234.tmp", ".SKILL.md.abcd12345.tmp",
    ]
    for name in keep:
        (tmp_path / name).write_bytes(b"user data")
    (tmp_path / ".SKILL.md.linkxxxx.tmp").symlink_to(tmp_path / "SKILL.md")
    assert remove_stale_temps(target) == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*keep, "SKILL.md", ".SKILL.md.linkxxxx.tmp"]
    )
    assert target.read_bytes() == b"old"


def test_a_temp_file_being_written_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "SKILL.md"
    target.write_bytes(b"old")
    writing = threading.Event()
    checked = threading.Event()
    seen: list[list[Path]] = []

    def hold() -> None:
        writing.set()
        assert checked.wait(60)

    def clean() -> None:
        assert writing.wait(60)
        seen.append(remove_stale_temps(target))
        checked.set()

    cleaner = threading.Thread(target=clean)
    cleaner.start()
    atomic_write_bytes(target, b"new", before_replace=hold)
    cleaner.join()
    assert seen == [[]]
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["SKILL.md"]


def test_what_before_replace_raises_leaves_the_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "SKILL.md"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)

    def refuse() -> None:
        raise RuntimeError("changed")

    with pytest.raises(RuntimeError):
        atomic_write_bytes(target, b"new", before_replace=refuse)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["SKILL.md"]
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and target.stat().st_mode & 0o777 == 0o640


def test_a_temp_file_another_process_holds_open_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "SKILL.md"
    target.write_bytes(b"old")
    temp = tmp_path / ".SKILL.md.abcd1234.tmp"
    temp.write_bytes(b"half")
    # A writer that takes no lock: it holds the file open until told to stop.
    with subprocess.Popen(
        [sys.executable, "-c", "import sys; f = open(sys.argv[1], 'ab'); print('open', flush=True); "
         "sys.stdin.read()", str(temp)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == b"open\n"
            assert remove_stale_temps(target) == [] and temp.exists()
        finally:
            assert holder.stdin is not None
            holder.stdin.close()
            holder.wait(timeout=60)
    assert remove_stale_temps(target) == [temp] and not temp.exists()


def test_move_aside_keeps_every_broken_file(tmp_path: Path) -> None:
    """Two files moved aside within the same second both survive, each under its own name."""
    path = tmp_path / "chats.sqlite"
    path.write_text("first")
    first = move_aside(path)
    path.write_text("second")
    second = move_aside(path)
    assert not path.exists()
    assert first != second
    assert first.name.startswith("chats.sqlite.broken-")
    assert (first.read_text(), second.read_text()) == ("first", "second")
