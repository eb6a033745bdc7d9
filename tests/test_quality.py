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


UI_MOST_LINES = 450
# Over the limit, and being reworked elsewhere as this is written (the library's model, issue 26):
# to be split there, then taken off this list.
UI_LEFT_WHOLE = {"studio/ui/library/library_model.py"}


def _line_count(path: Path) -> int:
    with path.open(encoding="utf-8") as lines:
        return sum(1 for _ in lines)


def test_no_ui_file_is_over_450_lines() -> None:
    """Each file of the window holds one thing; one that grows past this holds two."""
    sizes = {path.relative_to(ROOT).as_posix(): _line_count(path)
             for path in (ROOT / "studio" / "ui").rglob("*.py")}
    over = {name: lines for name, lines in sizes.items() if lines > UI_MOST_LINES}
    assert set(over) - UI_LEFT_WHOLE == set(), over
