"""Invoking a skill by name: `/NAME arguments` parsed, and the arguments put into the body as
Claude Code's skills page documents (its examples: `/fix-issue 123`, `/migrate-component
SearchBar React Vue`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.agent.invoke import Invocation, argument_names, parse_invocation, substitute

NAMES = {"fix-issue", "migrate-component", "deploy"}
HERE = Path("/skills/fix-issue")


@pytest.mark.parametrize(("text", "expected"), [
    ("/fix-issue 123", Invocation("fix-issue", "123", "/")),
    ("$fix-issue 123", Invocation("fix-issue", "123", "$")),
    ("  /deploy  ", Invocation("deploy", "", "/")),
    ("/migrate-component SearchBar React Vue",
     Invocation("migrate-component", "SearchBar React Vue", "/")),
    ("/deploy staging\nand then tell me", Invocation("deploy", "staging\nand then tell me", "/")),
    ("/unknown 1", None),
    ("please /deploy", None),
    ("/deployment", None),
])
def test_an_invocation_is_a_known_name_after_a_slash_or_a_dollar(
        text: str, expected: Invocation | None) -> None:
    assert parse_invocation(text, NAMES) == expected


@pytest.mark.parametrize(("body", "arguments", "expected"), [
    # Claude Code's fix-issue example.
    ("Fix GitHub issue $ARGUMENTS following our coding standards.", "123",
     "Fix GitHub issue 123 following our coding standards."),
    # Its migrate-component example: $ARGUMENTS[N] and $N count from 0.
    ("Migrate the $ARGUMENTS[0] component from $ARGUMENTS[1] to $ARGUMENTS[2].",
     "SearchBar React Vue", "Migrate the SearchBar component from React to Vue."),
    ("Migrate the $0 component from $1 to $2.", "SearchBar React Vue",
     "Migrate the SearchBar component from React to Vue."),
    # Quotes keep spaces in one argument.
    ("Title: $0; body: $1", '"a long title" body', "Title: a long title; body: body"),
    # A missing argument is empty; the whole string is kept as typed.
    ("[$0] [$3] [$ARGUMENTS]", "a  b", "[a] [] [a  b]"),
    ("Run ${CLAUDE_SKILL_DIR}/scripts/go.sh", "", "Run /skills/fix-issue/scripts/go.sh"),
    # No placeholder: the arguments are appended.
    ("Deploy the app.", "staging", "Deploy the app.\n\nARGUMENTS: staging\n"),
    ("Deploy the app.", "", "Deploy the app."),
    # A shell variable is left alone.
    ("echo $HOME $ARGUMENTS", "x", "echo $HOME x"),
])
def test_arguments_are_put_in_as_claude_code_does(body: str, arguments: str, expected: str) -> None:
    assert substitute(body, arguments, HERE) == expected


def test_named_arguments_stand_for_their_positions() -> None:
    names = argument_names("issue branch")
    assert names == ["issue", "branch"] and argument_names(["issue", "branch"]) == names
    assert substitute("Fix $issue on $branch ($HOME)", "42 main", HERE, names) == \
        "Fix 42 on main ($HOME)"
