"""A skill whose validation fails, or kills its worker process, costs only that skill."""

from __future__ import annotations

import asyncio
import faulthandler
import os
import signal
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from studio.skills.checks.validate import ValidationResult
from studio.skills.files import Listing
from studio.skills.model import Skill
from studio.skills.scan import roots as library
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.roots import PARALLEL_MIN, SkillRoot, scan_root
from tests.skills.helpers import frontmatter, write_skill
from tests.waiting import eventually


@pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")
def test_a_dying_worker_costs_only_its_skill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if threading.active_count() > 1:
        pytest.skip("the scan forks workers only from a process with one thread")
    monkeypatch.setattr(library, "usable_cores", lambda: 2)
    root = tmp_path / "lib"
    names = [f"skill-{number:03d}" for number in range(PARALLEL_MIN * 2)]
    for name in names:
        write_skill(root, name, frontmatter(name))
    parent = os.getpid()
    load = library.load_skill_file

    def crashing_load(
        folder: str, file_name: str, listing: Listing | None = None, **options: bool
    ) -> object:
        if os.path.basename(folder) == "skill-070":
            if os.getpid() == parent:
                raise AssertionError("the crashing skill was validated in the scanning process")
            faulthandler.disable()  # pytest's, inherited: the crash is expected, not news
            os.kill(os.getpid(), signal.SIGSEGV)
        return load(folder, file_name, listing, **options)

    monkeypatch.setattr(library, "load_skill_file", crashing_load)
    cache = ScanCache(tmp_path / "cache.marshal")
    scan = scan_root(SkillRoot(root), cache)
    assert [s.directory.name for s in scan.skills] == names
    failed = [s for s in scan.skills if not s.valid]
    assert [s.directory.name for s in failed] == ["skill-070"]
    assert [d.code for d in failed[0].diagnostics] == ["SK007"] and not failed[0].loadable
    assert all(s.valid and s.name == s.directory.name for s in scan.skills if s not in failed)
    # The failure is not cached: the next scan tries that skill again.
    monkeypatch.setattr(library, "load_skill_file", load)
    again = scan_root(SkillRoot(root), cache)
    assert all(s.valid for s in again.skills)


def test_an_exception_on_one_skill_costs_only_that_skill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "lib"
    for name in ("alpha", "broken", "gamma"):
        write_skill(root, name, frontmatter(name))
    validate = library.validate_skill

    def failing(skill: Skill, target: str, *, fixes: bool = True) -> ValidationResult:
        if skill.dir_name == "broken":
            raise RecursionError("maximum recursion depth exceeded")
        return validate(skill, target, fixes=fixes)

    monkeypatch.setattr(library, "validate_skill", failing)
    scan = scan_root(SkillRoot(root))
    by_name = {s.directory.name: s for s in scan.skills}
    assert by_name["alpha"].valid and by_name["gamma"].valid
    [problem] = by_name["broken"].diagnostics
    assert problem.code == "SK007" and "RecursionError" in problem.message


def test_a_damaged_archive_is_a_problem_of_the_root_not_a_traceback(tmp_path: Path) -> None:
    archive = tmp_path / "pack.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("demo/SKILL.md", frontmatter("demo") * 50)
    data = bytearray(archive.read_bytes())
    start = data.index(b"demo/SKILL.md") + len("demo/SKILL.md")
    data[start + 10 : start + 40] = b"\xff" * 30  # the compressed stream, not the directory
    archive.write_bytes(bytes(data))
    scan = scan_root(SkillRoot(archive))
    assert scan.error is not None and "cannot read the archive" in scan.error


_KILLED_PARENT = """
import os, signal, sys
from unittest import mock
from studio.skills.scan import roots
with mock.patch.object(roots, "usable_cores", lambda: 2):
    pool = roots._pool()
assert pool is not None
list(pool.map(abs, range(4)))
print(" ".join(str(pid) for pid in pool._processes), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
async def test_workers_end_when_the_scanning_process_is_killed(tmp_path: Path) -> None:
    """The window stops a scan by killing its process; the workers it forked must not stay
    behind waiting for work (they once did, for as long as the machine ran)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _KILLED_PARENT, cwd=Path(__file__).parents[2],
        stdout=asyncio.subprocess.PIPE)
    assert child.stdout is not None
    # One line, then wait for the exit: orphaned workers would hold the pipe open forever.
    line = await child.stdout.readline()
    assert await child.wait() == -signal.SIGKILL
    workers = [int(pid) for pid in line.split()]
    assert len(workers) == 2
    try:
        assert await eventually(lambda: not any(_alive(pid) for pid in workers))
    finally:
        for pid in filter(_alive, workers):
            os.kill(pid, signal.SIGKILL)
