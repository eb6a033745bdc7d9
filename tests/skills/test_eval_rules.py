"""The validator's checks of a skill's eval files (EV001-EV005)."""

from __future__ import annotations

import json
from pathlib import Path

from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill
from studio.skills.model import Diagnostic, Severity
from tests.skills.helpers import frontmatter, write_skill


def diagnostics(tmp_path: Path, files: dict[str, str]) -> list[Diagnostic]:
    directory = write_skill(tmp_path, "demo", frontmatter("demo"), files)
    return [d for d in validate_skill(load_skill(directory)).diagnostics if d.code.startswith("EV")]


def test_good_eval_files_give_nothing(tmp_path: Path) -> None:
    files = {
        "evals/evals.json": json.dumps({"skill_name": "demo", "evals": [
            {"id": 1, "prompt": "p", "files": ["evals/files/in.txt"], "expectations": ["ok"]}]}),
        "evals/files/in.txt": "input",
        "evals/triggers.json": json.dumps([{"query": "a", "should_trigger": True},
                                           {"query": "b", "should_trigger": False}]),
    }
    assert diagnostics(tmp_path, files) == []


def test_json_that_does_not_parse_is_reported_at_its_line(tmp_path: Path) -> None:
    [found] = diagnostics(tmp_path, {"evals/evals.json": '{\n  "evals": [\n    {"prompt": }\n]}'})
    assert (found.code, found.severity, found.file, found.line) == (
        "EV001", Severity.WARNING, "evals/evals.json", 3)


def test_a_trigger_of_the_wrong_shape_names_its_path(tmp_path: Path) -> None:
    [found] = diagnostics(tmp_path, {"evals/triggers.json": '[{"query": "a"}]'})
    assert found.code == "EV002" and "[0].should_trigger" in found.message


def test_evals_of_another_skill_and_a_missing_file_are_reported(tmp_path: Path) -> None:
    evals = {"skill_name": "pdf", "evals": [{"id": 2, "prompt": "p", "files": ["evals/files/no.pdf"]}]}
    found = diagnostics(tmp_path, {"evals/evals.json": json.dumps(evals)})
    assert sorted(d.code for d in found) == ["EV003", "EV004"]
    assert any("no.pdf" in d.message for d in found)


def test_triggers_that_all_should_fire_say_precision_cannot_be_measured(tmp_path: Path) -> None:
    [found] = diagnostics(tmp_path, {"evals/triggers.json": json.dumps(
        [{"query": "a", "should_trigger": True}])})
    assert (found.code, found.severity) == ("EV005", Severity.INFO)
    assert "precision" in found.message


def test_the_shipped_skills_eval_files_are_valid() -> None:
    shipped = Path(__file__).resolve().parents[2] / "skills"
    for directory in sorted(p for p in shipped.iterdir() if p.is_dir()):
        assert (directory / "evals" / "evals.json").is_file(), directory.name
        assert (directory / "evals" / "triggers.json").is_file(), directory.name
        result = validate_skill(load_skill(directory))
        assert [d for d in result.diagnostics if d.code.startswith("EV")] == [], directory.name


def test_a_bad_assertion_is_reported_like_a_bad_expectation(tmp_path: Path) -> None:
    [found] = diagnostics(tmp_path, {"evals/evals.json": json.dumps(
        {"evals": [{"prompt": "p", "assertions": [{"regex": "("}]}]})})
    assert found.code == "EV001" and "evals[0].assertions[0].regex" in found.message
