"""The static checks run as part of the test command: ruff, mypy (strict on the core), import-linter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600
    )


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_imports_no_qt() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    if not lint.exists():
        pytest.fail("lint-imports is not installed: pip install -e '.[test]'")
    result = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
