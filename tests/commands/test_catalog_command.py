"""`studio catalog` end to end: issue 39's case, as Claude Code and as Codex would load it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.skills.catalog.catalog_helpers import write_skill


def _catalog(project: Path, home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
    env.pop("CODEX_HOME", None)
    env.pop("SLASH_COMMAND_TOOL_CHAR_BUDGET", None)
    return subprocess.run([sys.executable, "-m", "studio", "catalog", str(project), *arguments],
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def _by_path(report: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {row["path"]: row for row in report["skills"]}


def test_claude_code_and_codex_see_the_same_project_differently(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    in_project = write_skill(project / ".claude/skills", "deploy", "Deploy from the project.")
    personal = write_skill(home / ".claude/skills", "deploy", "Deploy my way.")
    shared = write_skill(project / ".agents/skills", "shared", "Shared across agents.")
    long = write_skill(project / ".claude/skills", "long", "L" * 1700)

    done = _catalog(project, home, "--client", "claude-code", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["client"] == "claude-code"
    rows = _by_path(report)
    assert set(rows[str(shared)]) == {"name", "path", "state", "why", "description_shown"}
    assert rows[str(shared)]["state"] == "not-loaded"
    assert rows[str(personal)]["state"] == "loaded"
    assert rows[str(in_project)]["state"] == "shadowed"
    assert str(personal) in rows[str(in_project)]["why"]
    assert rows[str(long)]["description_shown"] == "L" * 1536
    assert report["budget"]["known"] is True and report["budget"]["unit"] == "characters"

    done = _catalog(project, home, "--client", "codex", "--json")
    assert done.returncode == 0, done.stderr
    rows = _by_path(json.loads(done.stdout))
    assert rows[str(shared)]["state"] == "loaded"
    assert rows[str(shared)]["description_shown"] == "Shared across agents."
    assert rows[str(personal)]["state"] == "not-loaded"


def test_the_text_report_names_states_and_reasons(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    write_skill(project / ".agents/skills", "shared")
    done = _catalog(project, home, "--client", "claude-code")
    assert done.returncode == 0, done.stderr
    assert "not-loaded  shared" in done.stdout
    assert "folder not read by Claude Code" in done.stdout


def test_a_missing_project_is_a_clear_error(tmp_path: Path) -> None:
    done = _catalog(tmp_path / "nowhere", tmp_path, "--client", "codex")
    assert done.returncode == 2
    assert "is not a folder" in done.stderr
