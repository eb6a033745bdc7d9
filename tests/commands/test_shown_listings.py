"""A skill's name, description or lock-file entry never acts on the terminal: `studio prompt`,
`studio search` and `studio list` show what a terminal would obey (`\\e[2J`, `<U+202E>`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from studio.cli import main

RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
DESCRIPTION = "Reads tides \x1b]52;c;aGk=\x07 then \x1b[2J clears \u202eevil."
SHOWN = "\\e]52;c;aGk=\\a then \\e[2J clears <U+202E>evil."


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    folder = tmp_path / "skills" / "tides"
    folder.mkdir(parents=True)
    quoted = json.dumps(DESCRIPTION)  # a YAML double-quoted scalar reads JSON's escapes
    (folder / "SKILL.md").write_text(f"---\nname: tides\ndescription: {quoted}\n---\nBody.\n")
    return folder.parent


@pytest.mark.parametrize("command", [["prompt"], ["search", "tides", "--skills"]])
def test_descriptions_are_shown_not_obeyed(
        skills: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    assert main([*command, str(skills)]) == 0
    out, err = capsys.readouterr()
    assert RAW.search(out + err) is None, repr(out)
    assert SHOWN in out.replace("[tides]", "tides")


def test_search_json_escapes_what_a_terminal_would_obey_and_keeps_the_text(
        skills: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "tides", "--skills", str(skills), "--json"]) == 0
    out = capsys.readouterr().out
    assert RAW.search(out) is None, repr(out)
    snippet = json.loads(out)["results"][0]["snippet"]
    assert "\x1b]52;c;aGk=\x07" in snippet and "\u202e" in snippet


def test_a_hostile_lock_file_entry_is_shown_by_studio_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lock = {"version": 1, "skills": {"tides": {
        "source": "https://example.com/x\x1b]0;owned\x07.git", "sourceType": "git",
        "ref": "main\x1b[2K\r", "computedHash": "0" * 64}}}
    (tmp_path / "skills-lock.json").write_text(json.dumps(lock))
    code = main(["list", "--project", str(tmp_path)])
    out, err = capsys.readouterr()
    assert RAW.search(out + err) is None, repr(out + err)
    assert code == 0, err
    assert "x\\e]0;owned\\a.git#main\\e[2K\\r" in out, out


def test_what_studio_install_quotes_from_a_source_is_shown_not_obeyed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "source" / "ti\x1b[2Jdes\u202e"
    source.mkdir(parents=True)
    quoted = json.dumps(DESCRIPTION)
    (source / "SKILL.md").write_text(f"---\nname: tides\ndescription: {quoted}\n---\nBody.\n")
    main(["install", str(source.parent), "--into", str(tmp_path / "into"), "--yes"])
    out, err = capsys.readouterr()
    assert out + err, "studio install said nothing"
    assert RAW.search(out + err) is None, repr(out + err)
    assert "ti\\e[2Jdes<U+202E>" in out + err, out + err
