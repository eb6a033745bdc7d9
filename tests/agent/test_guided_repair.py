"""The repair step's reading of a failed run's output: whether it says the call was wrong, the
values it lists, and which placeholder it rejected (issue 38)."""

from __future__ import annotations

import pytest

from studio.agent.guided.arguments import parse_usage
from studio.agent.guided.fill import values_of
from studio.agent.guided.repair import error_values, failure_sentence, rejected, says_call_was_wrong

ARGPARSE = ("usage: temp.py [-h] {C,F,K} {C,F,K} VALUE\n"
            "temp.py: error: argument FROM: invalid choice: 'Celsius' (choose from 'C', 'F', 'K')")


@pytest.mark.parametrize(("output", "values"), [
    ("unknown palette name ['tomato']; known: harbour-blue, ripe-tomato, moss-green, sand-dune",
     ["harbour-blue", "ripe-tomato", "moss-green", "sand-dune"]),
    (ARGPARSE, ["C", "F", "K"]),
    ("temp.py: error: invalid choice: 'x' (choose from C, F, K)", ["C", "F", "K"]),
    ("error: FROM must be one of C, F or K", ["C", "F", "K"]),
    ("unknown scale 'Celsius'; use C, F or K.", ["C", "F", "K"]),
    ("valid formats: json | csv | tsv", ["json", "csv", "tsv"]),
    ("usage: x.py {add,list,done} [ITEM]", ["add", "list", "done"]),
    # A pattern a checker quotes is no list.
    ("$.name: \"Billing API\" does not match the pattern /^[a-z][a-z0-9-]{2,39}$/", []),
    ("expected integer, got string \"8443\"", []),
    ("Traceback (most recent call last):\n  File \"x.py\"\nKeyError: 'q'", []),
    ("use the --force flag", []),
    # Fractions are values, not `a/b` alternatives; a remark in brackets is no value.
    ("'eighth' is not a note value such as 1/4, 1/8. (dotted) or 1/8t (triplet)", ["1/4", "1/8.", "1/8t"]),
    ("valid formats: json/yaml", ["json", "yaml"]),
    ("known: (a, b)", ["a", "b"]),
])
def test_the_values_an_error_lists(output: str, values: list[str]) -> None:
    assert error_values(output) == values


@pytest.mark.parametrize(("output", "wrong"), [
    (ARGPARSE, True),
    ("usage: x.py FILE", True),
    ("Traceback (most recent call last):\n  File \"x.py\"\nKeyError: 'q'", True),
    ("unknown unit", True),
    ("no such file: a.txt", True),
    # A checker's report: its findings a line each; the verdict is the answer.
    ("a.json: 5 errors\n" + "".join(f"  $.a{i}: expected integer\n" for i in range(5)), False),
    ("a.json: 5 errors\n" + "".join(f"  $.a{i}: expected one of a, b\n" for i in range(5)), False),
    ("the message is fine", False),
])
def test_whether_an_output_says_the_call_was_wrong(output: str, wrong: bool) -> None:
    assert says_call_was_wrong(output) is wrong


def test_a_short_error_quoting_a_value_the_call_gave_says_the_call_was_wrong() -> None:
    given = ["scripts/sum.py", "data.csv", "data.csv"]
    assert says_call_was_wrong("no column 'data.csv'; columns: a, b", given)
    # Quoting something else, or a value in a long report, is a verdict.
    assert not says_call_was_wrong("no column 'x'", given)
    assert not says_call_was_wrong("".join(f"row {i}: 'data.csv'\n" for i in range(6)), given)


def test_the_placeholder_the_error_rejected_is_the_one_whose_value_it_names() -> None:
    usage = parse_usage("python3 t.py VALUE FROM TO [--digits N]", "python3 t.py")
    assert usage is not None
    values = values_of("python3 t.py 100 Celsius F --digits 2", "python3 t.py", usage)
    assert values == {"VALUE": "100", "FROM": "Celsius", "TO": "F", "N": "2"}
    assert rejected(ARGPARSE, values) == ["FROM"]
    assert rejected("unknown palette name ['tomato']; known: a, b", {"NAME": "tomato"}) == ["NAME"]
    assert rejected("something broke", values) == []


def test_a_failure_is_said_in_one_sentence() -> None:
    output = "exit code 2 after 0.04 s\n" + ARGPARSE
    assert failure_sentence("python3 t.py x", output, 1).startswith(
        "The script failed; the run, `python3 t.py x`, stopped with exit code 2: ")
    assert failure_sentence("python3 t.py Celsius F 100", output) == (
        "The script failed twice; the last run, `python3 t.py Celsius F 100`, stopped with exit "
        "code 2: temp.py: error: argument FROM: invalid choice: 'Celsius' (choose from 'C', 'F', 'K').")
