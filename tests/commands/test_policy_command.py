"""`studio policy check|grants|revoke|log`, in process and once through `python -m studio`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.policy import AuditLog, Grant, Grants
from tests.policy.world import World

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def check(capsys: pytest.CaptureFixture[str], world: World, *argv: str) -> tuple[int, str, str]:
    """`studio policy check` in the world's workspace."""
    return run(capsys, "policy", "check", "--workspace", str(world.workspace), *argv)


def check_json(capsys: pytest.CaptureFixture[str], world: World, *command: str) -> dict[str, object]:
    code, out, _ = check(capsys, world, "--json", "--", *command)
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


def test_check_prints_the_decision_as_json(capsys: pytest.CaptureFixture[str], world: World) -> None:
    data = check_json(capsys, world, "cat", "../../etc/passwd")
    assert data["decision"] == "ask"
    assert set(data) >= {"decision", "reasons", "warnings"}
    warnings = data["warnings"]
    assert isinstance(warnings, list) and any("outside" in w for w in warnings)
    assert check_json(capsys, world, "ls", "-la")["decision"] == "allow"
    blocked = check_json(capsys, world, "rm -rf ~")
    assert blocked["decision"] == "block"
    reasons = blocked["reasons"]
    assert isinstance(reasons, list) and reasons[0].startswith("blocked: ")


def test_words_and_one_quoted_string_mean_the_same(capsys: pytest.CaptureFixture[str], world: World) -> None:
    assert check_json(capsys, world, "cat", "README.md", "|", "grep", "x") == check_json(
        capsys, world, "cat README.md | grep x"
    )


def test_check_text_output(capsys: pytest.CaptureFixture[str], world: World) -> None:
    code, out, _ = check(capsys, world, "--", "python3", "scripts/extract.py", "/etc/hosts")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "ask"
    assert any(line.startswith("  warning (outside): ") and "outside" in line for line in lines)
    code, out, _ = check(capsys, world, "--", "python3", "scripts/extract.py")
    assert out.splitlines()[0] == "ask" and "would allow: `python3` in `scripts/`" in out


def test_skill_dir_is_where_the_command_runs(capsys: pytest.CaptureFixture[str], world: World) -> None:
    skill_dir = str(world.workspace / "skills" / "pdf")
    code, out, _ = check(capsys, world, "--skill-dir", skill_dir, "--json", "--", "cat", "../../README.md")
    assert code == 0 and json.loads(out)["decision"] == "allow"


def test_workspace_defaults_to_the_current_folder(
    capsys: pytest.CaptureFixture[str], world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(world.workspace)
    code, out, _ = run(capsys, "policy", "check", "--", "cat", "README.md")
    assert code == 0 and out.splitlines()[0] == "allow"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["policy", "check"], "give the command"),
        (["policy", "check", "--"], "give the command"),
        (["policy", "check", "--workspace", "/no/such/folder", "--", "ls"], "is not a folder"),
        (["policy", "check", "--skill-dir", "/", "--", "ls"], "not inside the workspace"),
        (["policy"], "choose an action"),
    ],
)
def test_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str],
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(world.workspace)
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_every_check_is_audited(capsys: pytest.CaptureFixture[str], world: World) -> None:
    check_json(capsys, world, "rm", "-rf", "/")
    entries = list(AuditLog().entries())
    assert entries[-1].event == "check" and entries[-1].command == "rm -rf /"
    assert entries[-1].decision == "block"
    code, out, _ = run(capsys, "policy", "log", "-n", "1")
    assert code == 0 and "rm -rf /" in out and "block" in out


def test_remembered_grants_apply_and_can_be_listed_and_revoked(
    capsys: pytest.CaptureFixture[str], world: World
) -> None:
    Grants().add(Grant("python3", "scripts/", world.workspace), remember=True)
    assert check_json(capsys, world, "python3 scripts/extract.py")["decision"] == "allow"
    code, out, _ = check(capsys, world, "--no-grants", "--", "python3", "scripts/extract.py")
    assert out.splitlines()[0] == "ask"
    code, out, _ = run(capsys, "policy", "grants")
    assert code == 0 and "python3:scripts/" in out
    code, out, _ = run(capsys, "policy", "revoke", "python3:scripts/")
    assert code == 0 and "revoked python3:scripts/" in out
    code, _, err = run(capsys, "policy", "revoke", "python3:scripts/")
    assert code == 1 and "there is no grant" in err
    assert check_json(capsys, world, "python3 scripts/extract.py")["decision"] == "ask"


def test_a_broken_grants_file_is_reported_but_checks_still_work(
    capsys: pytest.CaptureFixture[str], world: World
) -> None:
    path = Grants().path
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("grants: [unclosed\n")
    code, out, err = check(capsys, world, "--", "ls")
    assert code == 0 and out.splitlines()[0] == "allow" and "not valid YAML" in err
    code, _, err = run(capsys, "policy", "grants")
    assert code == 1 and "not valid YAML" in err
    assert path.read_text() == "grants: [unclosed\n"


def test_python_dash_m_studio(world: World) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "studio",
            "policy",
            "check",
            "--workspace",
            str(world.workspace),
            "--json",
            "--",
            "bash -c 'rm -rf ~'",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["decision"] == "block" and "ask the user" in data["reasons"][0]
