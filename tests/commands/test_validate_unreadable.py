"""`studio validate` says which folder it could not read, and exits 2."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from studio.cli import main
from tests.skills.helpers import write_skill

GOOD = "---\nname: {}\ndescription: Good. Use when testing.\n---\nBody\n"


def _library(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "lib"
    write_skill(root, "good", GOOD.format("good"))
    locked = root / "team"
    write_skill(locked, "hidden-skill", GOOD.format("hidden-skill"))
    return root, locked


def test_an_unreadable_folder_is_named_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, locked = _library(tmp_path)
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        # Root reads any folder, so the denial a user without rights meets is made here.
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    code = main(["validate", "--no-cache", str(root)])
    out, err = capsys.readouterr()
    assert code == 2
    assert f"studio validate: {locked}: notice SK018: this folder cannot be listed (Permission denied)" in err
    assert "1 skill checked: 1 valid" in out
    code = main(["validate", "--no-cache", "--format", "json", str(root)])
    out, _ = capsys.readouterr()
    assert code == 2
    assert json.loads(out)["notices"][0]["code"] == "SK018"
    assert json.loads(out)["notices"][0]["path"] == str(locked)


def test_a_folder_that_vanishes_mid_walk_is_no_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, locked = _library(tmp_path)
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if str(path) == str(locked):
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    assert main(["validate", "--no-cache", str(root)]) == 0
    assert "SK018" not in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root to run the command as another user")
def test_live_as_an_unprivileged_user() -> None:
    # pytest's own temp folders are root's alone: the other user needs one it can reach.
    base = Path(tempfile.mkdtemp(prefix="studio-unreadable-"))
    try:
        _run_as_nobody(base)
    finally:
        for folder, _, _ in os.walk(base):
            os.chmod(folder, 0o755)
        shutil.rmtree(base)


def _run_as_nobody(base: Path) -> None:
    base.chmod(0o755)
    root, locked = _library(base)
    for folder, _, files in os.walk(base):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
    locked.chmod(0o000)
    home = base / "home"
    home.mkdir()
    home.chmod(0o777)
    parent = base
    while parent != parent.parent:
        if not os.stat(parent).st_mode & 0o001:
            pytest.skip(f"{parent} is not searchable by other users")
        parent = parent.parent
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "PYTHONPATH": str(repo)}
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable]
    probe = subprocess.run([*as_nobody, "-c", "import platformdirs, yaml"], capture_output=True,
                           env=env, cwd=str(home), timeout=60, check=False)
    if probe.returncode != 0:
        pytest.skip("this Python's packages cannot be read by another user")
    result = subprocess.run(
        [*as_nobody, "-m", "studio", "validate", str(root)],
        capture_output=True, text=True, env=env, cwd=str(home), timeout=120, check=False,
    )
    assert result.returncode == 2, result.stderr
    assert f"{locked}: notice SK018" in result.stderr and "Permission denied" in result.stderr
    assert "1 skill checked: 1 valid" in result.stdout
