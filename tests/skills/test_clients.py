"""Validation targets: each client's fields are checked, fields it does not read are warnings, and
the bare spec (the default) keeps SK131 errors."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from studio.commands import validate as validate_command
from studio.skills.checks.clients import CLIENTS, frontmatter_rules
from studio.skills.checks.validate import validate_skill
from studio.skills.clients import SPEC, TARGETS
from studio.skills.files import load_skill
from studio.skills.model import Diagnostic, Severity
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.scan.targets import scan
from tests.skills.helpers import frontmatter, write_skill

CLAUDE_SKILL = frontmatter(extra=(
    "context: fork\nmodel: sonnet\nagent: Explore\nargument-hint: '[file]'\n"
    "disable-model-invocation: true\nuser-invocable: false\nhooks: {}\n"
))


def check(tmp_path: Path, text: str, target: str) -> list[Diagnostic]:
    return validate_skill(load_skill(write_skill(tmp_path, "demo", text)), target).diagnostics


def found(diagnostics: list[Diagnostic]) -> list[tuple[str, str, str | None]]:
    return [(d.code, str(d.severity), d.field) for d in diagnostics]


def test_every_client_the_registry_names_is_judged_and_offered() -> None:
    assert tuple(CLIENTS) == TARGETS
    assert TARGETS[0] == SPEC
    parser = argparse.ArgumentParser()
    validate_command.register(parser.add_subparsers())
    args = parser.parse_args(["validate", "x"])
    assert args.target == SPEC
    for target in TARGETS:
        assert parser.parse_args(["validate", "--target", target, "x"]).target == target


def test_a_claude_code_skill_is_valid_for_claude_code_and_not_for_the_spec(tmp_path: Path) -> None:
    assert check(tmp_path, CLAUDE_SKILL, "claude-code") == []
    spec = check(tmp_path, CLAUDE_SKILL, SPEC)
    assert {d.code for d in spec} == {"SK131"} and len(spec) == 7
    assert all(d.severity is Severity.ERROR for d in spec)


@pytest.mark.parametrize(
    ("target", "extra", "expected"),
    [
        ("claude-code", "context: fork_with_context\n", [("SK133", "error", "context")]),
        ("claude-code", "model: 3\n", [("SK133", "error", "model")]),
        ("claude-code", "user-invocable: 'maybe'\n", [("SK133", "error", "user-invocable")]),
        ("claude-code", "hooks: [a]\n", [("SK133", "error", "hooks")]),
        ("claude-code", "version: 1\n", [("SK132", "warning", "version")]),
        ("eino", "context: fork_with_context\nagent: a\nmodel: m\n", []),
        ("eino", "context: inline\n", [("SK133", "error", "context")]),
        ("eino", "argument-hint: x\n", [("SK132", "warning", "argument-hint")]),
        ("ollama", "context: fork\n", [("SK132", "warning", "context")]),
        ("codex", "model: gpt\n", [("SK132", "warning", "model")]),
        ("codex", "license: MIT\n", []),
        ("spec", "context: fork\n", [("SK131", "error", "context")]),
    ],
)
def test_each_target_checks_its_own_fields(
    tmp_path: Path, target: str, extra: str, expected: list[tuple[str, str, str]]
) -> None:
    assert found(check(tmp_path, frontmatter(extra=extra), target)) == expected


def test_a_wrong_value_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    [diagnostic] = check(tmp_path, frontmatter(extra="context:   forked\n"), "eino")
    assert (diagnostic.line, diagnostic.column) == (4, 12)
    assert "`fork`, `fork_with_context`" in diagnostic.message and "forked" in diagnostic.message


def test_an_unknown_field_keeps_its_fix_under_every_target(tmp_path: Path) -> None:
    [diagnostic] = check(tmp_path, frontmatter(extra="tags: x\n"), "ollama")
    assert diagnostic.fix is not None and "metadata" in diagnostic.fix.title


def test_an_unknown_target_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown target 'nobody'"):
        frontmatter_rules("nobody")


def test_every_client_reads_the_spec_fields_but_those_that_document_otherwise() -> None:
    assert all(client.reads("name") and client.reads("description") for client in CLIENTS.values())
    assert [key for key, client in CLIENTS.items() if not client.reads("allowed-tools")] == [
        "gemini-cli", "github-copilot", "cursor", "goose", "opencode"]


def test_a_cache_kept_for_one_target_is_not_used_by_another(tmp_path: Path) -> None:
    write_skill(tmp_path / "lib", "demo", CLAUDE_SKILL)
    cache_file = tmp_path / "cache.marshal"
    root = SkillRoot(tmp_path / "lib")
    claude = ScanCache(cache_file, "claude-code")
    [summary] = scan_root(root, claude, target="claude-code").skills
    claude.save()
    assert summary.valid
    [again] = scan_root(root, ScanCache(cache_file, SPEC), target=SPEC).skills
    assert not again.valid
    [cached] = scan_root(root, ScanCache(cache_file, "claude-code"), target="claude-code").skills
    assert cached.valid
    # A cache handed over for another target is left alone rather than mixed.
    [mixed] = scan_root(root, ScanCache(cache_file, "claude-code"), target=SPEC).skills
    assert not mixed.valid


def test_collect_judges_as_the_target(tmp_path: Path) -> None:
    write_skill(tmp_path, "demo", CLAUDE_SKILL)
    assert scan([tmp_path], target="claude-code").skills[0].valid
    assert not scan([tmp_path]).skills[0].valid


def test_many_skills_are_judged_as_the_target_in_worker_processes(tmp_path: Path) -> None:
    for number in range(70):
        write_skill(tmp_path, f"s{number}", CLAUDE_SKILL.replace("name: demo", f"name: s{number}"))
    skills = scan([tmp_path], target="eino").skills
    assert len(skills) == 70
    assert all(
        found(list(s.diagnostics)) == [
            ("SK132", "warning", key) for key in (
                "argument-hint", "disable-model-invocation", "user-invocable", "hooks"
            )
        ]
        for s in skills
    )
