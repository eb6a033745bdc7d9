"""Reading skill-creator's eval files: both trigger shapes, and errors that say where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.skills.checks.evalfiles import (
    MAX_PATTERN,
    EvalFileError,
    Expectation,
    TriggerQuery,
    parse_evals,
    parse_triggers,
    read_evals,
    read_triggers,
)


def write(skill: Path, name: str, text: str) -> None:
    (skill / "evals").mkdir(parents=True, exist_ok=True)
    (skill / "evals" / name).write_text(text, encoding="utf-8")


def test_skill_creators_evals_json_is_read_with_sentences_and_checks() -> None:
    data = {"skill_name": "pdf", "evals": [{
        "id": 1, "prompt": "Fill the form", "expected_output": "A filled form",
        "files": ["evals/files/form.pdf"],
        "expectations": ["The form is filled", {"contains": "done"}, {"exit_code": 0}],
    }]}
    evals = parse_evals(data)
    [case] = evals.evals
    assert evals.skill_name == "pdf"
    assert (case.id, case.prompt, case.files) == ("1", "Fill the form", ("evals/files/form.pdf",))
    assert case.expectations == (Expectation("model", "The form is filled"),
                                 Expectation("contains", "done"), Expectation("exit_code", 0))


def test_both_trigger_shapes_of_skill_creator_are_read() -> None:
    listed = [{"query": "make a pdf", "should_trigger": True}]
    wrapped = {"evals": [{"prompt": "weather?", "should_trigger": False}]}
    assert parse_triggers(listed) == (TriggerQuery("make a pdf", True),)
    assert parse_triggers(wrapped) == (TriggerQuery("weather?", False),)


def test_json_that_does_not_parse_names_the_file_line_and_column(tmp_path: Path) -> None:
    write(tmp_path, "triggers.json", '[\n  {"query": "x",\n   "should_trigger": tru}\n]')
    with pytest.raises(EvalFileError) as caught:
        read_triggers(tmp_path)
    assert (caught.value.file, caught.value.line) == ("evals/triggers.json", 3)
    assert str(caught.value).startswith("evals/triggers.json:3:")


@pytest.mark.parametrize(("data", "where", "words"), [
    ({"evals": [{"id": 1}]}, "evals[0].prompt", "must be a string, not null"),
    ({"evals": [{"prompt": "a", "expectations": [{"smells": "x"}]}]}, "evals[0].expectations[0]",
     "unknown check 'smells'"),
    ({"evals": [{"prompt": "a", "expectations": [{"exit_code": "0"}]}]},
     "evals[0].expectations[0].exit_code", "whole number"),
    ({"evals": [{"prompt": "a", "expectations": [{"regex": "(unclosed"}]}]},
     "evals[0].expectations[0].regex", "not a valid regular expression"),
    ({"evals": [{"prompt": "a", "expectations": [{"regex": "a" * (MAX_PATTERN + 1)}]}]},
     "evals[0].expectations[0].regex", "longer than"),
    ({"evals": [{"prompt": "a", "files": ["../../etc/passwd"]}]}, "evals[0].files[0]",
     "inside the skill's folder"),
    ({"evals": [{"id": 1, "prompt": "a"}, {"id": 1, "prompt": "b"}]}, "evals[1].id", "used twice"),
    ({"evals": "no"}, "evals", "must be a list, not a string"),
])
def test_a_value_of_the_wrong_shape_names_its_json_path(data: object, where: str, words: str) -> None:
    with pytest.raises(EvalFileError) as caught:
        parse_evals(data)
    assert caught.value.where == where
    assert words in str(caught.value)


def test_a_trigger_without_a_boolean_says_which_one() -> None:
    with pytest.raises(EvalFileError, match=r"at \[1\]\.should_trigger: must be true or false"):
        parse_triggers([{"query": "a", "should_trigger": True}, {"query": "b", "should_trigger": "yes"}])


def test_a_skill_without_eval_files_has_none(tmp_path: Path) -> None:
    assert read_evals(tmp_path) is None and read_triggers(tmp_path) is None


def test_files_on_disk_are_read(tmp_path: Path) -> None:
    write(tmp_path, "evals.json", json.dumps({"evals": [{"id": "a", "prompt": "p"}]}))
    evals = read_evals(tmp_path)
    assert evals is not None and [c.id for c in evals.evals] == ["a"]


def test_a_binary_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "evals.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(EvalFileError, match="not UTF-8"):
        read_evals(tmp_path)


def test_the_agentskills_guides_assertions_are_read_as_expectations() -> None:
    # The example shape of agentskills.io's docs/skill-creation/evaluating-skills.mdx.
    data = {"skill_name": "csv-analyzer", "evals": [{
        "id": 1, "prompt": "Summarise sales.csv", "expected_output": "A summary",
        "assertions": ["The output includes a chart", {"contains": "total"}],
    }]}
    [case] = parse_evals(data).evals
    assert case.expectations == (Expectation("model", "The output includes a chart"),
                                 Expectation("contains", "total"))


def test_assertions_of_the_wrong_shape_name_their_own_path() -> None:
    with pytest.raises(EvalFileError) as caught:
        parse_evals({"evals": [{"prompt": "p", "assertions": [{"bogus": 1}]}]})
    assert caught.value.where == "evals[0].assertions[0]"
    with pytest.raises(EvalFileError, match="both `expectations` and `assertions`"):
        parse_evals({"evals": [{"prompt": "p", "assertions": [], "expectations": []}]})
