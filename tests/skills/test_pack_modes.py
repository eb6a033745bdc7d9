"""What `studio pack` writes gets the user's default mode, as any file the user creates would
(issue 44: a packed `.skill` came out 0600, unreadable by anyone else the user shares it with)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.fsutil import atomic_write_text
from studio.skills.install.pack import pack_index, pack_plugin, pack_skill


@pytest.fixture(params=[0o022, 0o002, 0o077])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _skill(root: Path, name: str) -> Path:
    folder = root / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does a thing. Use when "
                                     "asked to.\n---\nRun `python3 scripts/run.py`.\n")
    script = folder / "scripts" / "run.py"
    script.write_text("#!/usr/bin/env python3\nprint('ok')\n")
    script.chmod(0o755)
    return folder


def test_a_packed_skill_has_the_users_default_mode(tmp_path: Path, umask: int) -> None:
    archive = pack_skill(_skill(tmp_path / "src", "tide-tables"), tmp_path / "out")
    assert _mode(archive) == 0o666 & ~umask
    assert list((tmp_path / "out").iterdir()) == [archive], "no temp file is left"


def test_a_plugins_skill_folders_have_the_users_default_modes(tmp_path: Path, umask: int) -> None:
    manifest = pack_plugin([_skill(tmp_path / "src", "tide-tables")], tmp_path / "kit")
    folder = tmp_path / "kit" / "skills" / "tide-tables"
    assert _mode(manifest) == 0o666 & ~umask
    assert _mode(folder) == 0o777 & ~umask
    assert _mode(folder / "SKILL.md") == 0o666 & ~umask
    assert _mode(folder / "scripts" / "run.py") == 0o777 & ~umask


def test_an_index_and_its_skills_have_the_users_default_modes(tmp_path: Path, umask: int) -> None:
    index = pack_index([_skill(tmp_path / "src", "tide-tables")], tmp_path / "site")
    assert _mode(index) == 0o666 & ~umask
    skill = next(path for path in index.parent.rglob("tide-tables") if path.is_dir())
    assert _mode(skill) == 0o777 & ~umask


def test_a_new_file_written_atomically_has_the_users_default_mode(tmp_path: Path,
                                                                    umask: int) -> None:
    atomic_write_text(tmp_path / "chat.md", "# A chat\n")
    assert _mode(tmp_path / "chat.md") == 0o666 & ~umask
