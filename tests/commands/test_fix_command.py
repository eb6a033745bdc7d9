"""`studio fix` as a user runs it: what it prints, its exit codes, and what it never writes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills.checks import fixes
from tests.skills.helpers import write_skill


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_errors_it_cannot_fix_are_listed_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\n---\nbody\n")
    code, out, _ = run(capsys, "fix", str(directory))
    skill_file = directory / "SKILL.md"
    assert code == 1
    assert f"{skill_file}: fixed SK104: Rename to `demo`" in out
    assert f"{skill_file}:1:1: error SK111: the required field `description` is missing" in out
    assert f"{skill_file}: 1 error left that studio fix cannot fix; edit them by hand" in out
    code, out, _ = run(capsys, "fix", str(directory))
    assert code == 1 and "SK111" in out and "fixed" not in out


def test_fix_dot_and_skill_md_from_inside_the_skill(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: other\ndescription: Use when x\n---\n")
    monkeypatch.chdir(directory)
    code, out, err = run(capsys, "fix", ".")
    assert (code, err) == (0, "")
    assert f"{directory / 'SKILL.md'}: fixed SK108" in out
    assert (directory / "SKILL.md").read_text() == "---\nname: demo\ndescription: Use when x\n---\n"
    (directory / "SKILL.md").write_text("---\nname: Demo\ndescription: Use when x\n---\n")
    assert run(capsys, "fix", "SKILL.md")[0] == 0
    assert (directory / "SKILL.md").read_text() == "---\nname: demo\ndescription: Use when x\n---\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]


def test_a_skill_linked_from_outside_the_root_is_reported_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = tmp_path / "lib"
    good = write_skill(lib, "good", "---\nname: Good\ndescription: Use when x\n---\n")
    outside = write_skill(tmp_path / "elsewhere", "Other", "---\nname: other\nversion: 1\n---\n")
    (lib / "link").symlink_to(outside.parent, target_is_directory=True)
    before = (outside / "SKILL.md").read_bytes()
    stale = outside / ".SKILL.md.abcd1234.tmp"
    stale.write_bytes(b"not ours to remove: outside the root")
    code, _, err = run(capsys, "fix", str(lib))
    # The walk may list the linked skill (then fix says why it leaves it) or leave it out.
    assert code == (2 if err else 0)
    assert not err or ("outside" in err and str(outside) in err)
    assert (good / "SKILL.md").read_text().startswith("---\nname: good\n")
    assert (outside / "SKILL.md").read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == ["Other"]
    assert stale.exists()


def test_a_stale_temp_file_is_cleaned_on_the_next_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: demo\ndescription: Use when x\n---\n")
    stale = directory / ".SKILL.md.k9x_2abc.tmp"
    stale.write_bytes(b"---\nname: demo\n" * 1000)
    user_file = directory / ".SKILL.md.notes.tmp"
    user_file.write_text("mine")
    assert run(capsys, "fix", "--dry-run", str(directory))[0] == 0
    assert stale.exists()
    code, out, _ = run(capsys, "fix", str(directory))
    assert code == 0 and f"{stale}: removed" in out
    assert sorted(p.name for p in directory.iterdir()) == [".SKILL.md.notes.tmp", "SKILL.md"]


def _studio(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "studio", *argv],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def test_kill_9_at_any_point_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    head = "---\nname: Demo\ndescription: Use when x\nversion: 1.0\nauthor: me\n---\n"
    old = (head + "body line of the skill\n" * 45000).encode()
    expected_dir = write_skill(tmp_path / "expected", "demo", old)
    started = time.monotonic()
    assert _studio("fix", str(expected_dir)).wait(timeout=300) == 0
    # Only to spread the kills over one run; nothing below depends on when they land.
    duration = time.monotonic() - started
    new = (expected_dir / "SKILL.md").read_bytes()
    assert new != old and new.endswith(old[len(head):])
    directory = write_skill(tmp_path / "work", "demo", old)
    iterations = 20
    for i in range(iterations):
        (directory / "SKILL.md").write_bytes(old)
        process = _studio("fix", str(directory))
        try:
            process.wait(timeout=duration * (i + 1) / iterations)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=60)
        data = (directory / "SKILL.md").read_bytes()
        assert data in (old, new), f"partial file after a kill at step {i}: {len(data)} bytes"
    assert _studio("fix", str(directory)).wait(timeout=300) == 0
    assert (directory / "SKILL.md").read_bytes() == new
    assert sorted(p.name for p in directory.iterdir()) == ["SKILL.md"]


def test_a_skill_it_cannot_read_or_write_exits_2_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\n")

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr(fixes, "_read_whole", denied)
        code, out, err = run(capsys, "fix", str(directory))
    assert (code, out) == (2, "")
    assert f"cannot read {directory / 'SKILL.md'}: Permission denied" in err
    monkeypatch.setattr(fixes, "atomic_write_bytes", denied)
    code, _, err = run(capsys, "fix", str(directory))
    assert code == 2 and "Permission denied; it was not changed" in err
    assert (directory / "SKILL.md").read_text().startswith("---\nname: Demo\n")


FORKED = ("---\nname: forked\ndescription: Forks. Use when testing forks.\ncontext: fork\n"
          "version: 2\n---\nBody\n")


def test_fix_for_a_target_keeps_the_fields_it_reads_as_validate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "forked", FORKED)
    skill_file = directory / "SKILL.md"
    code, out, _ = run(capsys, "validate", "--target", "claude-code", str(directory))
    assert code == 0 and "SK132" in out and "`version`" in out and "context" not in out

    code, out, _ = run(capsys, "fix", "--target", "claude-code", str(directory))
    assert code == 0
    assert out == f"{skill_file}: fixed SK132: Move `version` under `metadata:`\n"
    text = skill_file.read_text()
    assert "context: fork\n" in text and "metadata:\n  version: '2'\n" in text
    code, out, _ = run(capsys, "validate", "--target", "claude-code", str(directory))
    assert code == 0 and "SK13" not in out

    code, out, _ = run(capsys, "fix", str(directory))
    assert code == 0 and "fixed SK131: Move `context` under `metadata:`" in out
    assert "context: fork" in skill_file.read_text().split("metadata:")[1]
