"""The 2026 rules of each client, each tried on the client's own documented example (the sources
are cited in studio/skills/checks/clients.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.skills.checks.clients import CLAUDE_LISTING_CAP
from studio.skills.checks.fixes import apply_fix_to_text
from studio.skills.checks.openai_yaml import describe, parse_openai_yaml, read_openai_yaml
from studio.skills.checks.validate import validate_skill
from studio.skills.files import CLIENT_FOLDERS, load_skill, walks_into
from studio.skills.model import Diagnostic, Severity
from tests.skills.helpers import frontmatter, write_skill

# Claude Code's skills page: a skill only the user runs, with arguments.
CLAUDE_FIX_ISSUE = """---
name: fix-issue
description: Fix a GitHub issue. Use when the user names an issue to fix.
disable-model-invocation: true
argument-hint: "[issue-number]"
---
Fix GitHub issue $ARGUMENTS following our coding standards.
"""

# Codex's skills page: the agents/openai.yaml example.
CODEX_OPENAI_YAML = """interface:
  display_name: "Optional user-facing name"
  short_description: "Optional user-facing description"
  icon_small: "./assets/small-logo.svg"
  icon_large: "./assets/large-logo.png"
  brand_color: "#3B82F6"
  default_prompt: "Optional surrounding prompt to use the skill with"

dependencies:
  tools:
    - type: "mcp"
      value: "openaiDeveloperDocs"
      description: "OpenAI Docs MCP server"
      transport: "streamable_http"
      url: "https://developers.openai.com/mcp"

policy:
  allow_implicit_invocation: false
"""


def check(tmp_path: Path, text: str, target: str, dir_name: str = "demo",
          files: dict[str, str] | None = None) -> list[Diagnostic]:
    directory = write_skill(tmp_path, dir_name, text, files)
    return validate_skill(load_skill(directory), target).diagnostics


def codes_of(diagnostics: list[Diagnostic]) -> list[tuple[str, Severity]]:
    return [(d.code, d.severity) for d in diagnostics]


def test_a_non_ascii_name_warns_for_the_spec_and_is_an_error_for_ollama(tmp_path: Path) -> None:
    text = frontmatter(name="café")
    [spec] = check(tmp_path / "a", text, "spec", "café")
    assert (spec.code, spec.severity) == ("SK109", Severity.WARNING) and "`cafe`" in spec.message
    [ollama] = check(tmp_path / "b", text, "ollama", "café")
    assert (ollama.code, ollama.severity) == ("SK109", Severity.ERROR)
    assert "Ollama refuses" in ollama.message


def test_the_non_ascii_fix_renames_the_skill_and_its_folder(tmp_path: Path) -> None:
    skill = load_skill(write_skill(tmp_path, "café", frontmatter(name="café")))
    [found] = validate_skill(skill).diagnostics
    assert found.fix is not None and found.fix.rename_directory_to == "cafe"
    assert apply_fix_to_text(skill, found.fix).startswith("---\nname: cafe\n")


def test_ollama_refuses_an_empty_body(tmp_path: Path) -> None:
    # skills.go: `instructions are empty` for a SKILL.md with frontmatter only.
    text = "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n\n"
    assert codes_of(check(tmp_path / "a", text, "ollama")) == [("SK214", Severity.ERROR)]
    assert check(tmp_path / "b", text, "spec") == []


def test_claude_codes_documented_skill_is_valid_for_claude_code(tmp_path: Path) -> None:
    assert check(tmp_path, CLAUDE_FIX_ISSUE.replace("fix-issue", "demo"), "claude-code") == []


@pytest.mark.parametrize(("extra", "expected"), [
    ("effort: xhigh\n", []),
    ("effort: extreme\n", [("SK133", Severity.ERROR)]),
    ("disable-model-invocation: yes\nuser-invocable: off\nbackground: on\n", []),
    ("default-enabled: no\n", []),
    ("background: sometimes\n", [("SK133", Severity.ERROR)]),
    ("disallowed-tools: Bash Write\n", []),
    ("disallowed-tools: [Bash, Write]\n", []),
    ("arguments: issue branch\n", []),
    ("display-name: Fix an issue\n", []),
    ("display-name: [a]\n", [("SK133", Severity.ERROR)]),
    # A list and commas are Claude Code's own forms: no SK206 for it.
    ("allowed-tools: [Read, Grep]\n", []),
    ("allowed-tools: Read, Grep, Bash(git diff:*)\n", []),
])
def test_claude_codes_new_fields(tmp_path: Path, extra: str,
                                 expected: list[tuple[str, Severity]]) -> None:
    assert codes_of(check(tmp_path, frontmatter(extra=extra), "claude-code")) == expected


def test_claude_code_cuts_the_listing_at_1536_characters(tmp_path: Path) -> None:
    description = "Use when testing. " + "x" * 1000
    when = "y" * (CLAUDE_LISTING_CAP - len(description))
    [cut] = check(tmp_path / "a", frontmatter(description=description,
                                              extra=f"when_to_use: {when}\n"), "claude-code")
    assert (cut.code, cut.severity, cut.field) == ("SK114", Severity.WARNING, "description")
    assert "1,536" in cut.message
    fits = frontmatter(description=description, extra=f"when_to_use: {when[:-1]}\n")
    assert [d.code for d in check(tmp_path / "b", fits, "claude-code")] == []


@pytest.mark.parametrize(("target", "tools", "expected"), [
    ("spec", "Read, Grep", []),
    ("codex", "Read, Grep", ["SK143"]),
    ("ollama", "Read, Grep", ["SK143"]),
    ("claude-api", "Read, Grep", ["SK143"]),
    ("codex", "Bash(git diff,log) Read", []),
    ("codex", "Read Grep", []),
])
def test_allowed_tools_is_space_separated_except_for_claude_code(
        tmp_path: Path, target: str, tools: str, expected: list[str]) -> None:
    text = frontmatter(extra=f"allowed-tools: {tools}\n")
    assert [d.code for d in check(tmp_path, text, target)] == expected


def test_the_comma_fix_separates_with_spaces(tmp_path: Path) -> None:
    skill = load_skill(write_skill(tmp_path, "demo", frontmatter(extra="allowed-tools: Read, Grep\n")))
    [found] = validate_skill(skill, "codex").diagnostics
    assert found.fix is not None
    assert "allowed-tools: Read Grep\n" in apply_fix_to_text(skill, found.fix)


@pytest.mark.parametrize(("text", "expected"), [
    (frontmatter(), []),
    (frontmatter(extra="version: 1\n"), [("SK134", Severity.ERROR)]),
    (frontmatter(extra="license: MIT\ncompatibility: Python 3\nmetadata: {a: b}\n"
                 "allowed-tools: Read\n"), []),
    (frontmatter(name="claude-helper"), [("SK110", Severity.ERROR)]),
    (frontmatter(description="Makes <b>bold</b> text. Use when asked."),
     [("SK134", Severity.ERROR), ("SK208", Severity.ERROR)]),
])
def test_claude_api_takes_the_six_spec_fields_only(
        tmp_path: Path, text: str, expected: list[tuple[str, Severity]]) -> None:
    name = "claude-helper" if "claude-helper" in text else "demo"
    assert sorted(codes_of(check(tmp_path, text, "claude-api", name))) == expected


def test_codexs_documented_openai_yaml_is_read_and_clean(tmp_path: Path) -> None:
    files = {"agents/openai.yaml": CODEX_OPENAI_YAML, "assets/small-logo.svg": "<svg/>",
             "assets/large-logo.png": "png"}
    assert check(tmp_path, frontmatter(), "codex", files=files) == []
    found = read_openai_yaml(tmp_path / "demo")
    assert found is not None and found.allow_implicit_invocation is False
    assert found.interface["brand_color"] == "#3B82F6"
    assert found.tools == [{"type": "mcp", "value": "openaiDeveloperDocs",
                            "description": "OpenAI Docs MCP server",
                            "transport": "streamable_http",
                            "url": "https://developers.openai.com/mcp"}]
    assert ("policy.allow_implicit_invocation",
            "false (only `$NAME` or /skills loads it)") in describe(found)


def test_a_wrong_openai_yaml_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    text = "interface:\n  brand_color: blue\npolicy:\n  allow_implicit_invocation: 'no'\nextra: 1\n"
    found = check(tmp_path, frontmatter(), "codex", files={"agents/openai.yaml": text})
    assert [(d.code, d.file, d.line, d.column) for d in found] == [
        ("SK151", "agents/openai.yaml", 2, 16), ("SK151", "agents/openai.yaml", 4, 30),
        ("SK152", "agents/openai.yaml", 5, 1)]
    assert all(d.severity is Severity.WARNING for d in found)
    # The other targets do not read the file.
    assert check(tmp_path / "other", frontmatter(), "spec",
                 files={"agents/openai.yaml": text}) == []


def test_openai_yaml_that_does_not_parse_says_where() -> None:
    [finding] = parse_openai_yaml("interface:\n  display_name: [unclosed\n").findings
    assert "not valid YAML" in finding.message and finding.line == 3


def test_ollama_and_copilot_folders_are_searched() -> None:
    assert {".ollama", ".copilot"} <= CLIENT_FOLDERS
    assert walks_into(".ollama", include_hidden=False)
    assert walks_into(".copilot", include_hidden=False)
