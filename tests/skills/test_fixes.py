from __future__ import annotations

from pathlib import Path

import pytest

from studio.skills.files import load_skill
from studio.skills.fixes import FixError, apply_plan, plan_fixes
from studio.skills.parse import parse_skill
from studio.skills.validate import validate_skill
from studio.skills.yamledit import apply_edits
from tests.skills.helpers import write_skill


def fixed_text(tmp_path: Path, text: str, dir_name: str = "demo") -> tuple[str, Path]:
    directory = write_skill(tmp_path, dir_name, text)
    plan = plan_fixes(directory)
    apply_plan(plan)
    target = plan.rename_to or directory
    return (target / "SKILL.md").read_bytes().decode("utf-8"), target


def test_quote_a_description_holding_colon_space(tmp_path: Path) -> None:
    text, _ = fixed_text(tmp_path, "---\nname: demo\ndescription: Use when: asked\n---\nbody\n")
    assert text == "---\nname: demo\ndescription: 'Use when: asked'\n---\nbody\n"


def test_lowercase_name_and_keep_everything_else_byte_for_byte(tmp_path: Path) -> None:
    original = "---\r\nname: Demo   # comment\r\ndescription: Use when x\r\n---\r\n\r\nBody  \r\n"
    text, _ = fixed_text(tmp_path, original)
    assert text == original.replace("name: Demo", "name: demo")


def test_name_follows_a_valid_folder(tmp_path: Path) -> None:
    text, directory = fixed_text(tmp_path, "---\nname: other\ndescription: Use when x\n---\n")
    assert "name: demo\n" in text and directory.name == "demo"


def test_folder_follows_a_valid_name_when_the_folder_name_is_invalid(tmp_path: Path) -> None:
    _, directory = fixed_text(
        tmp_path, "---\nname: good-name\ndescription: Use when x\n---\n", "Bad Folder"
    )
    assert directory.name == "good-name" and not (tmp_path / "Bad Folder").exists()
    assert validate_skill(load_skill(directory)).valid


def test_unknown_fields_move_under_existing_metadata(tmp_path: Path) -> None:
    original = (
        "---\nname: demo\ndescription: Use when x\nmodel: opus\nmetadata:\n    author: me\n"
        "user-invocable: false\n---\nbody\n"
    )
    text, directory = fixed_text(tmp_path, original)
    assert text == (
        "---\nname: demo\ndescription: Use when x\nmetadata:\n    author: me\n    model: opus\n"
        "    user-invocable: 'false'\n---\nbody\n"
    )
    assert validate_skill(load_skill(directory)).diagnostics == []


def test_unknown_field_creates_metadata(tmp_path: Path) -> None:
    text, _ = fixed_text(tmp_path, "---\nname: demo\nargument-hint: '[file]'\ndescription: Use when x\n---\n")
    assert text == "---\nname: demo\ndescription: Use when x\nmetadata:\n  argument-hint: '[file]'\n---\n"


def test_list_allowed_tools_becomes_a_string(tmp_path: Path) -> None:
    text, _ = fixed_text(
        tmp_path,
        "---\nname: demo\ndescription: Use when x\n"
        "allowed-tools:\n  - Bash(git:*)\n  - Read\nlicense: MIT\n---\n",
    )
    assert (
        text
        == "---\nname: demo\ndescription: Use when x\nallowed-tools: Bash(git:*) Read\nlicense: MIT\n---\n"
    )


def test_bom_is_stripped(tmp_path: Path) -> None:
    text, _ = fixed_text(tmp_path, "\ufeff---\nname: demo\ndescription: Use when x\n---\n")
    assert text == "---\nname: demo\ndescription: Use when x\n---\n"


def test_dry_run_diff_changes_nothing(tmp_path: Path) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\n")
    before = (directory / "SKILL.md").read_bytes()
    plan = plan_fixes(directory)
    assert "-name: Demo\n+name: demo\n" in plan.diff()
    assert (directory / "SKILL.md").read_bytes() == before


def test_apply_refuses_when_the_file_changed_meanwhile(tmp_path: Path) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\n")
    plan = plan_fixes(directory)
    (directory / "SKILL.md").write_text("---\nname: Demo\ndescription: edited\n---\n")
    with pytest.raises(FixError, match="changed since"):
        apply_plan(plan)
    assert "edited" in (directory / "SKILL.md").read_text()


def test_rename_refuses_to_overwrite(tmp_path: Path) -> None:
    directory = write_skill(tmp_path, "Bad Folder", "---\nname: taken\ndescription: Use when x\n---\n")
    (tmp_path / "taken").mkdir()
    plan = plan_fixes(directory)
    with pytest.raises(FixError, match="already exists"):
        apply_plan(plan)
    assert directory.exists()


@pytest.mark.parametrize("end", ["...\n", "... # done\n", "...\r\n"])
def test_a_field_moved_under_new_metadata_goes_before_the_document_end(end: str) -> None:
    # Found by the fuzz test: appended after `...`, the new field began a second document.
    newline = "\r\n" if end.endswith("\r\n") else "\n"
    text = f"---{newline}name: demo{newline}version: []{newline}{end}---{newline}"
    skill = parse_skill(text.encode(), Path("/x/demo/SKILL.md"))
    [diagnostic] = [d for d in validate_skill(skill).diagnostics if d.code == "SK131"]
    assert diagnostic.fix is not None
    fixed = apply_edits(skill.source, diagnostic.fix.edits)
    moved = f"metadata:{newline}  version: '[]'{newline}"
    assert fixed == f"---{newline}name: demo{newline}{moved}{end}---{newline}"
    again = parse_skill(fixed.encode(), Path("/x/demo/SKILL.md"))
    assert again.frontmatter is not None and again.frontmatter.data["metadata"] == {"version": "[]"}
