"""A cold `studio validate` on every usable core says exactly what it says on one, and Ctrl+C
stops it cleanly: exit 130, one line, no worker left, no cache written."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.skills.scan.roots import PARALLEL_MIN, usable_cores
from tests.skills.helpers import write_skill
from tests.waiting import eventually

REPO = Path(__file__).resolve().parents[2]
VARIANTS = (
    "---\nname: {name}\ndescription: Reads {name} files. Use when the user asks for them.\n---\n"
    "# Steps\n\nRun `scripts/run.py`.\n",
    "---\nname: {name}\n---\nNo description here.\n",
    "---\nname: Bad_{name}\ndescription: A bad name.\nversion: 1.0\n---\nBody\n",
    "---\nname: shared\ndescription: A fork in several repositories. Use when forking.\n---\nB\n",
    "---\ndescription: No name. Use when testing.\n---\nBody\n",
    "---\nname: {name}\ndescription: Broken: yaml\n---\nBody\n",
)


def _collection(root: Path, count: int) -> None:
    """Skills in repository folders, some forks sharing a name, some faulty, one nested."""
    for number in range(count):
        name = f"skill-{number:05d}"
        repository = root / f"owner{number % 7}--repo{number // 40}"
        parent = repository / (".claude/skills" if number % 3 else "skills")
        text = VARIANTS[number % len(VARIANTS)].format(name=name)
        folder = write_skill(parent, name, text)
        if number % 11 == 0:
            write_skill(folder / "examples", "inner", VARIANTS[0].format(name="inner"))


def _environment(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, HOME=str(tmp_path / "home"), STUDIO_CACHE_DIR=str(tmp_path / "cache"),
                PYTHONPATH=str(REPO))


def _validate(tmp_path: Path, root: Path, one_core: bool) -> subprocess.CompletedProcess[bytes]:
    first = min(os.sched_getaffinity(0))
    pin: Callable[[], None] | None = (lambda: os.sched_setaffinity(0, {first})) if one_core else None
    return subprocess.run(
        [sys.executable, "-m", "studio", "validate", str(root), "--format", "json", "--no-cache"],
        capture_output=True, env=_environment(tmp_path), preexec_fn=pin, check=False,
    )


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or usable_cores() < 2,
                    reason="needs two cores and a way to pin a process to one")
def test_every_core_gives_the_report_one_core_gives(tmp_path: Path) -> None:
    root = tmp_path / "library"
    _collection(root, PARALLEL_MIN * 6)
    one = _validate(tmp_path, root, one_core=True)
    every = _validate(tmp_path, root, one_core=False)
    assert one.returncode == every.returncode == 1, one.stderr + every.stderr
    assert every.stdout == one.stdout
    assert every.stderr == one.stderr
    assert one.stdout.count(b'"path"') == PARALLEL_MIN * 6


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or usable_cores() < 2,
                    reason="reads processes from /proc; workers start with two cores")
def test_ctrl_c_exits_130_with_one_line_and_leaves_no_worker_nor_cache(tmp_path: Path) -> None:
    root = tmp_path / "library"
    _collection(root, 4000)
    # A terminal's Ctrl+C goes to the whole foreground group: the command and its workers.
    process = subprocess.Popen(
        [sys.executable, "-m", "studio", "validate", str(root), "--format", "json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_environment(tmp_path),
        start_new_session=True,
    )
    try:
        assert asyncio.run(eventually(lambda: len(_children(process.pid)) >= 2)), \
            "the workers never started"
        workers = _children(process.pid)
        os.killpg(process.pid, signal.SIGINT)
        _, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, errors
    assert errors == b"studio: interrupted\n"
    assert asyncio.run(eventually(
        lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers)))
    cache = tmp_path / "cache"
    assert not cache.exists() or not any(cache.rglob("*"))
