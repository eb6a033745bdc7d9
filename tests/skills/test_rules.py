from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.skills.checks.validate import ValidationResult, validate_skill
from studio.skills.files import load_skill
from studio.skills.model import Severity
from tests.skills.helpers import frontmatter, write_skill


def check(
    tmp_path: Path, text: str, dir_name: str = "demo", files: dict[str, str] | None = None
) -> ValidationResult:
    return validate_skill(load_skill(write_skill(tmp_path, dir_name, text, files)))


def codes(result: ValidationResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_a_clean_skill_is_valid_with_no_findings(tmp_path: Path) -> None:
    result = check(tmp_path, frontmatter(extra="license: MIT\ncompatibility: Requires python3\n"))
    assert result.valid and result.loadable
    assert result.diagnostics == []


@pytest.mark.parametrize(
    ("name", "dir_name", "expected"),
    [
        ("Demo", "Demo", ["SK104"]),
        ("pdf_tools", "pdf_tools", ["SK105"]),
        ("-demo", "-demo", ["SK106"]),
        ("demo-", "demo-", ["SK106"]),
        ("de--mo", "de--mo", ["SK107"]),
        ("a" * 65, "a" * 65, ["SK103"]),
        ("a" * 64, "a" * 64, []),
        ("other", "demo", ["SK108"]),
        ("demo", "demo ", ["SK108"]),
        ("café", "café", ["SK109"]),
        ("日本語", "日本語", ["SK109"]),
        ("ｄｅｍｏ", "demo", []),
        ("'123'", "123", []),
        ("123", "123", ["SK102"]),
        ("''", "demo", ["SK102"]),
        ("' demo '", "demo", []),
    ],
)
def test_name_rules(tmp_path: Path, name: str, dir_name: str, expected: list[str]) -> None:
    result = check(tmp_path, frontmatter(name=name), dir_name)
    found = [c for c in codes(result) if c.startswith("SK1")]
    assert found == expected
    # SK109 (a non-ASCII name) is a warning: the spec's validator accepts the name.
    assert result.valid is (not [c for c in expected if c != "SK109"])


def test_name_message_suggests_a_valid_name(tmp_path: Path) -> None:
    result = check(tmp_path, frontmatter(name="Pdf-Tools"), "Pdf-Tools")
    [diagnostic] = result.errors
    assert diagnostic.message == "uppercase letters: use `pdf-tools`"
    assert (diagnostic.line, diagnostic.column, diagnostic.field) == (2, 7, "name")


def test_missing_name_and_description(tmp_path: Path) -> None:
    result = check(tmp_path, "---\nlicense: MIT\n---\nbody\n")
    assert {"SK101", "SK111"} <= set(codes(result))
    assert not result.valid and not result.loadable


@pytest.mark.parametrize(
    ("description", "expected", "loadable"),
    [
        ("''", ["SK112"], False),
        ("null", ["SK112"], False),
        ("'   '", ["SK112"], False),
        ("x" * 1024 + " when", ["SK113"], True),
        ("'" + "w" * 1025 + "'", ["SK113"], True),
        ("'" + "when " + "w" * 1019 + "'", [], True),
    ],
    ids=["empty", "null", "blank", "plain-1029", "quoted-1025", "exactly-1024"],
)
def test_description_rules(tmp_path: Path, description: str, expected: list[str], loadable: bool) -> None:
    result = check(tmp_path, frontmatter(description=description))
    assert [c for c in codes(result) if c.startswith("SK11")] == expected
    assert result.loadable is loadable


@pytest.mark.parametrize(
    ("line", "expected", "valid"),
    [
        ("compatibility: Requires git\n", [], True),
        ("compatibility: 5\n", ["SK121"], False),
        ("compatibility: '" + "c" * 501 + "'\n", ["SK122"], False),
        ("compatibility:\n", ["SK123"], True),
    ],
)
def test_compatibility_rules(tmp_path: Path, line: str, expected: list[str], valid: bool) -> None:
    result = check(tmp_path, frontmatter(extra=line))
    assert [c for c in codes(result) if c.startswith("SK12")] == expected
    assert result.valid is valid


def test_unknown_fields_name_their_owner_and_offer_a_move(tmp_path: Path) -> None:
    result = check(tmp_path, frontmatter(extra="argument-hint: '[file]'\nfavourite-colour: blue\n"))
    messages = {d.field: d for d in result.errors}
    assert "Claude Code" in messages["argument-hint"].message
    assert "Claude Code" not in messages["favourite-colour"].message
    assert all(d.code == "SK131" and d.fix is not None for d in result.errors)
    assert result.loadable and not result.valid


def test_warnings_beyond_the_spec(tmp_path: Path) -> None:
    text = (
        "---\nname: demo\ndescription: Converts <b> tags\nallowed-tools:\n  - Bash\n  - Read\n"
        "metadata:\n  version: 1.0\n---\n"
        "Run `scripts/go.py`, read [the guide](references/guide.md) and [ok](references/ok.md).\n"
        "See https://example.com/x.md and [anchor](#steps).\n"
    )
    directory = write_skill(
        tmp_path, "demo", text, {"references/ok.md": "ok", "scripts/tool.py": "print(1)\n"}
    )
    result = validate_skill(load_skill(directory))
    assert result.valid
    found = codes(result)
    for code in ("SK208", "SK209", "SK206", "SK207", "SK203", "SK204", "SK205"):
        assert code in found, (code, found)
    missing = sorted(d.message for d in result.diagnostics if d.code == "SK203")
    assert missing == [
        "the body mentions `references/guide.md`, which is not in the skill's folder",
        "the body mentions `scripts/go.py`, which is not in the skill's folder",
    ]
    assert all(d.severity is Severity.WARNING for d in result.diagnostics)


def test_an_executable_script_with_interpreter_line_is_fine(tmp_path: Path) -> None:
    directory = write_skill(tmp_path, "demo", frontmatter(), {"scripts/tool.py": "#!/usr/bin/env python3\n"})
    os.chmod(directory / "scripts/tool.py", 0o755)
    assert codes(validate_skill(load_skill(directory))) == []


def test_long_body_warns(tmp_path: Path) -> None:
    result = check(tmp_path, frontmatter() + "line when\n" * 600)
    assert "SK201" in codes(result)
    result = check(tmp_path, frontmatter() + ("word " * 5000 + "\n"))
    assert "SK202" in codes(result)


def test_lowercase_skill_md_is_found_with_a_warning(tmp_path: Path) -> None:
    directory = tmp_path / "demo"
    directory.mkdir()
    (directory / "skill.md").write_text(frontmatter())
    result = validate_skill(load_skill(directory))
    assert codes(result) == ["SK005"] and result.valid


def test_folder_without_skill_md(tmp_path: Path) -> None:
    result = validate_skill(load_skill(tmp_path))
    assert codes(result) == ["SK004"] and not result.loadable


def test_version_numbers_in_code_spans_are_not_files(tmp_path: Path) -> None:
    body = "Needs `2.3.0` and `1.5e3`; see `notes.md` and `scripts/x.py`.\n"
    result = check(tmp_path, frontmatter() + body)
    missing = sorted(d.message.split("`")[1] for d in result.diagnostics if d.code == "SK203")
    assert missing == ["notes.md", "scripts/x.py"]


@pytest.mark.parametrize(
    "description",
    [
        "TODO replace this sentence with what the skill does. Use when ...",
        "tbd",
        "todo - say what it does",
        "Describe what this skill does and when to use it.",
        "Lorem ipsum dolor sit amet. Use when testing.",
        "Use when the user asks for it. FIXME",
        "Your description here",
        "...",
    ],
)
def test_a_placeholder_description_is_a_warning(tmp_path: Path, description: str) -> None:
    result = check(tmp_path, frontmatter(description=description))
    found = [d for d in result.diagnostics if d.code == "SK213"]
    assert [d.severity for d in found] == [Severity.WARNING]
    assert found[0].line == 3 and found[0].field == "description"
    assert result.valid


@pytest.mark.parametrize(
    "description",
    [
        "Describes PDF files and fills their forms. Use when the user shares a PDF.",
        "Manages todo lists in Markdown files. Use when the user asks about tasks.",
        "Todo lists: adds, ticks and sorts items. Use when the user keeps a TODO.md file.",
    ],
)
def test_a_written_description_is_no_placeholder(tmp_path: Path, description: str) -> None:
    assert "SK213" not in codes(check(tmp_path, frontmatter(description=description)))
