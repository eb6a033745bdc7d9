"""`studio list` and `studio catalog` a page at a time: `--limit` and `--offset`, JSON Lines,
and rows printed as they are made (issue 43: 100,000 skills never become one message)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills.install import installed
from tests.skills.catalog.catalog_helpers import write_skill

NAMES = [f"skill-{number:02d}" for number in range(25)]


def _lock(folder: Path) -> Path:
    """A lock file in `folder` (installs `--into` it) with an entry per name, each installed."""
    entries = {}
    for name in NAMES:
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(f"---\nname: {name}\n---\n", encoding="utf-8")
        entries[name] = {"source": f"owner/{name}", "sourceType": "github", "computedHash": ""}
    (folder / "skills-lock.json").write_text(json.dumps({"version": 1, "skills": entries}),
                                             encoding="utf-8")
    return folder


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_list_pages_of_json_lines_add_up_to_the_whole_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = ["--into", str(_lock(tmp_path / "into"))]
    assert main(["list", *into, "--format", "json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert [item["name"] for item in whole] == NAMES

    pages: list[dict[str, object]] = []
    offset = 0
    while True:
        assert main(["list", *into, "--format", "jsonl", "--limit", "10",
                     "--offset", str(offset)]) == 0
        captured = capsys.readouterr()
        page = _lines(captured.out)
        pages.extend(page)
        if len(page) < 10:
            assert "more follow" not in captured.err
            break
        assert f"--offset {offset + 10}" in captured.err
        offset += 10
    assert pages == whole


def test_list_text_and_json_take_the_page_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = ["--into", str(_lock(tmp_path / "into"))]
    assert main(["list", *into, "--limit", "3", "--offset", "22"]) == 0
    captured = capsys.readouterr()
    assert [line.split()[0] for line in captured.out.splitlines()] == NAMES[22:]
    assert "more follow" not in captured.err
    assert main(["list", *into, "--format", "json", "--limit", "2", "--offset", "1"]) == 0
    captured = capsys.readouterr()
    assert [item["name"] for item in json.loads(captured.out)] == NAMES[1:3]
    assert "add --offset 3 for the next page" in captured.err
    assert main(["list", *into, "--offset", "99"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "nothing recorded" not in captured.err


def test_list_prints_each_row_before_looking_at_the_next_and_skips_without_looking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    into = _lock(tmp_path / "into")
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    printed_before: list[int] = []
    real = installed._installed

    def looked_at(folder: Path, record: installed.InstallRecord) -> installed.Installed:
        printed_before.append(len(out.getvalue().splitlines()))
        return real(folder, record)

    monkeypatch.setattr(installed, "_installed", looked_at)
    assert main(["list", "--into", str(into), "--format", "jsonl", "--offset", "20",
                 "--limit", "4"]) == 0
    assert [row["name"] for row in _lines(out.getvalue())] == NAMES[20:24]
    # The four of the page, each after the one before was printed, and the one that tells
    # whether more follow; none of the twenty skipped.
    assert printed_before == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("value", ["-1", "x"])
def test_list_refuses_an_offset_that_is_not_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit):
        main(["list", "--into", str(tmp_path), "--offset", value])
    assert "--offset" in capsys.readouterr().err


def _catalog(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
    env.pop("CODEX_HOME", None)
    return subprocess.run([sys.executable, "-m", "studio", "catalog", "--user-only",
                           "--client", "claude-code", *arguments],
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_catalog_pages_in_json_lines_and_in_json_with_the_next_offset(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for name in NAMES[:12]:
        write_skill(home / ".claude/skills", name, f"The skill {name}.")
    done = _catalog(home, "--json")
    assert done.returncode == 0, done.stderr
    whole = json.loads(done.stdout)
    assert len(whole["skills"]) == 12 and whole["next"] is None

    done = _catalog(home, "--jsonl", "--limit", "5", "--offset", "5")
    assert done.returncode == 0, done.stderr
    assert _lines(done.stdout) == whole["skills"][5:10]
    assert "add --offset 10 for the next page" in done.stderr

    done = _catalog(home, "--json", "--limit", "5", "--offset", "10")
    page = json.loads(done.stdout)
    assert page["skills"] == whole["skills"][10:] and page["next"] is None
    assert page["budget"] == whole["budget"] and page["client"] == "claude-code"
    done = _catalog(home, "--json", "--limit", "4")
    assert json.loads(done.stdout)["next"] == 4

    done = _catalog(home, "--limit", "2", "--offset", "1")
    rows = [line for line in done.stdout.splitlines() if line.startswith("  loaded")]
    assert [row.split()[1] for row in rows] == [row["name"] for row in whole["skills"][1:3]]
    assert "12 loaded" in done.stdout

    done = _catalog(home, "--json", "--jsonl")
    assert done.returncode == 2 and "not allowed with" in done.stderr
