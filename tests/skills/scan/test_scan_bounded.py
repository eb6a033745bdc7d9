"""A scan holds a bounded number of skills at once, however large the library: results are
handed out in order as they are ready, and only a few chunks are in flight."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest

from studio.skills.scan import roots as library
from studio.skills.scan.roots import SkillRoot, scan_entries
from tests.skills.helpers import frontmatter, write_skill

CHUNK = 4
SKILLS = 600


class _Recorded(library._Validation):
    """The scan's own reorder buffer, kept for the test to read its peak."""

    made: ClassVar[list[_Recorded]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.made.append(self)


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(library, "CHUNK", CHUNK)
    monkeypatch.setattr(library, "PARALLEL_MIN", CHUNK)
    monkeypatch.setattr(library, "_Validation", _Recorded)
    _Recorded.made = []
    root = tmp_path / "lib"
    for number in range(SKILLS):
        name = f"skill-{number:03d}"
        write_skill(root / f"owner{number % 5}--repo", name, frontmatter(name))
    return root


@pytest.mark.parametrize("workers", [0, 2], ids=["serial", "two workers"])
def test_a_scan_holds_a_bounded_number_of_skills(
    small_chunks: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    # Threads stand in for worker processes: what is bounded is the scanning side's buffer.
    pool = ThreadPoolExecutor(workers) if workers else None
    monkeypatch.setattr(library, "_pool", lambda niceness=0: pool)
    monkeypatch.setattr(library, "_workers", lambda: max(workers, 1))
    folders: list[str] = []
    scan = scan_entries(SkillRoot(small_chunks), lambda entry: folders.append(entry[0]))
    if pool is not None:
        pool.shutdown()
    assert folders == sorted(folders) and len(folders) == SKILLS
    assert scan.skills == [] and scan.walk == []
    (validation,) = _Recorded.made
    assert 0 < validation.peak <= validation.bound < SKILLS
