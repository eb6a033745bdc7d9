"""Gemini CLI, GitHub Copilot (VS Code), Cursor, goose and OpenCode as validation targets: one
held-out skill per documented rule, judged as that client's own documentation and source say (the
sources are cited in docs/clients.md and in each record's `source`)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from studio.commands import validate as validate_command
from studio.skills.checks.validate import validate_skill
from studio.skills.clients import BY_KEY, client_key
from studio.skills.files import load_skill
from studio.skills.model import Diagnostic
from tests.skills.helpers import frontmatter, write_skill

Found = list[tuple[str, str, str | None]]


def judged(tmp_path: Path, text: str, target: str, folder: str = "demo") -> Found:
    skill = load_skill(write_skill(tmp_path, folder, text))
    found: list[Diagnostic] = validate_skill(skill, target).diagnostics
    return [(d.code, str(d.severity), d.field) for d in found]


def with_fields(extra: str) -> str:
    return frontmatter(extra=extra)


LONG = "Builds reports. Use when asked for a report. " + "x" * 1100


@pytest.mark.parametrize(
    ("target", "text", "expected"),
    [
        # Gemini CLI reads `name` and `description` only (skillLoader.ts parseFrontmatter).
        ("gemini-cli", with_fields("license: MIT\nmetadata:\n  a: b\n"), []),
        ("gemini-cli", with_fields("when_to_use: x\n"), [("SK132", "warning", "when_to_use")]),
        ("gemini-cli", with_fields("allowed-tools: Read\n"),
         [("SK132", "warning", "allowed-tools")]),
        # It puts no limit on a name's letters or length, nor ties it to the folder.
        ("gemini-cli", frontmatter(name="Demo-Tool"),
         [("SK104", "warning", "name"), ("SK108", "warning", "name")]),
        ("gemini-cli", frontmatter(description=LONG), [("SK113", "warning", "description")]),
        # It skips a skill without a description (both must be strings).
        ("gemini-cli", "---\nname: demo\n---\nBody.\n", [("SK111", "error", "description")]),
        # It never reads `compatibility`, so its shape is no concern of Gemini CLI's.
        ("gemini-cli", with_fields("compatibility: [a]\n"), []),

        # VS Code's skill attributes (promptFileAttributes.ts skillAttributes).
        ("github-copilot", with_fields(
            "argument-hint: '[file]'\nuser-invocable: false\ndisable-model-invocation: true\n"
            "context: fork\nlicense: MIT\n"), []),
        ("github-copilot", with_fields("context: fork_with_context\n"),
         [("SK133", "error", "context")]),
        ("github-copilot", with_fields("user-invocable: 'no'\n"),
         [("SK133", "error", "user-invocable")]),
        ("github-copilot", with_fields("argument-hint: ''\n"),
         [("SK133", "error", "argument-hint")]),
        ("github-copilot", with_fields("allowed-tools: Read\n"),
         [("SK132", "warning", "allowed-tools")]),
        ("github-copilot", with_fields("model: gpt-5\n"), [("SK132", "warning", "model")]),
        # `license` and `compatibility` may be mappings in VS Code.
        ("github-copilot", with_fields("license:\n  name: MIT\n"), []),
        # A name unlike its folder is a warning in VS Code's validator (validateSkillFolderName).
        ("github-copilot", frontmatter(name="other"), [("SK108", "warning", "name")]),

        # Cursor's documented fields: the spec's, and `disable-model-invocation`.
        ("cursor", with_fields("disable-model-invocation: true\nlicense: MIT\n"), []),
        ("cursor", with_fields("disable-model-invocation: 'yes'\n"),
         [("SK133", "error", "disable-model-invocation")]),
        ("cursor", with_fields("user-invocable: false\n"),
         [("SK132", "warning", "user-invocable")]),
        ("cursor", with_fields("allowed-tools: Read\n"), [("SK132", "warning", "allowed-tools")]),
        ("cursor", frontmatter(name="other"), [("SK108", "error", "name")]),

        # goose reads `name` (required, without `/`) and `description` (may be missing).
        ("goose", with_fields("license: MIT\n"), []),
        ("goose", with_fields("allowed-tools: Read\n"), [("SK132", "warning", "allowed-tools")]),
        ("goose", with_fields("context: fork\n"), [("SK132", "warning", "context")]),
        ("goose", "---\nname: demo\n---\nBody.\n", [("SK111", "warning", "description")]),
        ("goose", frontmatter(name="Demo"),
         [("SK104", "warning", "name"), ("SK108", "warning", "name")]),
        ("goose", frontmatter(name="team/demo"),
         [("SK105", "warning", "name"), ("SK108", "warning", "name"),
          ("SK134", "error", "name")]),

        # OpenCode recognizes five fields and ignores the rest; names and lengths as the spec.
        ("opencode", with_fields("license: MIT\ncompatibility: opencode\n"), []),
        ("opencode", with_fields("allowed-tools: Read\n"), [("SK132", "warning", "allowed-tools")]),
        ("opencode", with_fields("model: x\n"), [("SK132", "warning", "model")]),
        ("opencode", frontmatter(name="other"), [("SK108", "error", "name")]),
        ("opencode", frontmatter(description=LONG), [("SK113", "error", "description")]),
    ],
)
def test_each_new_client_judges_as_its_documentation_says(
        tmp_path: Path, target: str, text: str, expected: Found) -> None:
    assert judged(tmp_path, text, target) == expected


def test_a_rule_the_client_does_not_enforce_says_so(tmp_path: Path) -> None:
    skill = load_skill(write_skill(tmp_path, "demo", frontmatter(name="Demo-Tool")))
    messages = [d.message for d in validate_skill(skill, "gemini-cli").diagnostics]
    assert all("Gemini CLI loads the skill anyway" in m for m in messages)


def test_goose_names_the_slash_it_refuses(tmp_path: Path) -> None:
    skill = load_skill(write_skill(tmp_path, "demo", frontmatter(name="team/demo")))
    [refused] = [d for d in validate_skill(skill, "goose").diagnostics if d.code == "SK134"]
    assert "/" in refused.message and "goose" in refused.message


@pytest.mark.parametrize("name", ["copilot", "github-copilot"])
def test_copilot_is_accepted_as_a_target_by_either_name(name: str) -> None:
    parser = argparse.ArgumentParser()
    validate_command.register(parser.add_subparsers())
    assert parser.parse_args(["validate", "--target", name, "x"]).target == "github-copilot"
    assert client_key(name) == "github-copilot"


def test_an_alias_is_not_another_record() -> None:
    assert "copilot" not in BY_KEY
    assert BY_KEY["github-copilot"].aliases == ("copilot",)
