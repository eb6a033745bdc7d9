from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from studio.skills.checks import fixes
from studio.skills.checks.fixes import FixError, apply_plan, plan_fixes
from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill
from studio.skills.model import Fix, Skill
from studio.skills.parse import MAX_SKILL_BYTES, parse_skill
from studio.skills.yaml.yamledit import apply_edits
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


# --- Never lose a byte (issue 9) ---------------------------------------------------------------


def body_of(text: str) -> str:
    skill = parse_skill(text.encode("utf-8"), Path("/x/demo/SKILL.md"), max_bytes=None)
    assert skill.frontmatter is not None, text[:300]
    return skill.body


def test_a_fix_past_the_read_cap_keeps_the_whole_body(tmp_path: Path) -> None:
    head = "---\nname: demo\ndescription: Use when x\nversion: 1.0\nauthor: me\n---\n"
    line = "a line of the body, " * 4 + "\n"
    body = (line * (MAX_SKILL_BYTES // len(line) + 1))[: MAX_SKILL_BYTES - 18 - len(head)] + "the end.\n"
    original = head + body
    assert len(original.encode()) == MAX_SKILL_BYTES - 9
    text, directory = fixed_text(tmp_path, original)
    assert len(text.encode()) > MAX_SKILL_BYTES
    assert text == (
        "---\nname: demo\ndescription: Use when x\nmetadata:\n  version: '1.0'\n  author: me\n---\n"
        + body
    )
    assert validate_skill(load_skill(directory)).loadable


def test_a_file_too_large_to_rewrite_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fixes, "MAX_FIX_BYTES", 100)
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\n" + "x" * 80)
    with pytest.raises(FixError, match="up to"):
        plan_fixes(directory)


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        (
            '---\nname: demo\ndescription: Use when x\nmetadata:\n  release: &v "1.0"\n'
            "version: *v\n---\nbody\n",
            "---\nname: demo\ndescription: Use when x\nmetadata:\n  release: &v \"1.0\"\n"
            "  version: '1.0'\n---\nbody\n",
        ),
        (
            "---\nmetadata:\n  x: &n Bad_Name\nname: *n\ndescription: Use when x\n---\nbody\n",
            "---\nmetadata:\n  x: &n Bad_Name\nname: demo\ndescription: Use when x\n---\nbody\n",
        ),
        (
            "---\nname: demo\ndescription: Use when x\nv: &v 2\nauthor: *v\n---\nbody\n",
            "---\nname: demo\ndescription: Use when x\nmetadata:\n  author: '2'\n  v: '2'\n---\nbody\n",
        ),
    ],
)
def test_a_field_holding_an_alias_is_fixed_once_as_the_value_it_names(
    tmp_path: Path, original: str, expected: str
) -> None:
    directory = write_skill(tmp_path, "demo", original)
    plan = plan_fixes(directory)
    assert len(plan.applied) == len(set(plan.applied)) <= 3
    apply_plan(plan)
    assert (directory / "SKILL.md").read_text() == expected


@pytest.mark.parametrize(
    "original",
    [
        '---\nname: demo\ndescription: Use when x\nversion: &v "1.0"\nmetadata:\n  release: *v\n---\nbody\n',
        "---\nname: demo\ndescription: Use when x\nversion: &v \"1.0\"\nmetadata: {release: *v}\n---\nbody\n",
        "---\nname: &n Demo\ndescription: Use when x\nmetadata:\n  x: *n\n---\nbody\n",
        "---\nname: demo\ndescription: Use when x\nmetadata: &m\n  a: b\nversion: 1\nother: *m\n---\n",
        "---\nname: demo\ndescription: Use when x\nbase: &m\n  a: b\nmetadata: *m\nversion: 1\n---\n",
    ],
)
def test_no_fix_leaves_an_alias_without_its_anchor_or_changes_what_it_names(
    tmp_path: Path, original: str
) -> None:
    directory = write_skill(tmp_path, "demo", original)
    before = load_skill(directory)
    plan = plan_fixes(directory)
    apply_plan(plan)
    after = load_skill(directory)
    assert after.frontmatter is not None and before.frontmatter is not None
    assert after.body == before.body
    for key, value in before.frontmatter.data.items():
        if key in after.frontmatter.data and key not in ("name", "metadata"):
            assert after.frontmatter.data[key] == value
    assert after.frontmatter.data.get("metadata", {}).items() >= (
        before.frontmatter.data.get("metadata") or {}
    ).items()


def test_moving_an_anchored_field_puts_its_text_where_the_aliases_were(tmp_path: Path) -> None:
    # Its comment moves with it (the issue: a moved value lost its comment).
    original = (
        '---\nname: demo\ndescription: Use when x\nversion: &v "1.0" # why\nmetadata:\n'
        "  release: *v\n  again: [*v, x]\nlater: other\nlast: *v\n---\nbody\n"
    )
    text, _ = fixed_text(tmp_path, original)
    assert text == (
        '---\nname: demo\ndescription: Use when x\nmetadata:\n  release: "1.0"\n'
        '  again: ["1.0", x]\n  version: \'1.0\'  # why\n  later: other\n  last: \'1.0\'\n---\nbody\n'
    )


@pytest.mark.parametrize("anchored", ["&v [1, 2]", "&v |\n  two\n  lines", "&v !!str 1"])
def test_an_anchor_whose_text_cannot_replace_its_alias_is_not_moved(anchored: str) -> None:
    text = f"---\nname: demo\ndescription: Use when x\nversion: {anchored}\nmetadata:\n  release: *v\n---\n"
    skill = parse_skill(text.encode(), Path("/x/demo/SKILL.md"))
    [move] = [d for d in validate_skill(skill).diagnostics if d.code == "SK131"]
    assert move.fix is None


def test_a_fix_whose_result_parses_to_other_data_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = "---\nname: Demo\ndescription: Use when x\nlicense: MIT\n---\nbody\n"
    directory = write_skill(tmp_path, "demo", original)

    def careless(skill: Skill, fix: Fix) -> str:
        return skill.source.replace("Demo", "demo").replace("MIT", "GPL")

    monkeypatch.setattr(fixes, "apply_fix_to_text", careless)
    plan = plan_fixes(directory)
    assert not plan.changes_anything and plan.applied == []
    assert plan.refused[0] == "SK104: Rename to `demo`: not applied, it would also change `license`"
    assert all(refused.endswith("it would also change `license`") for refused in plan.refused)
    assert [d.code for d in plan.errors] == ["SK104", "SK108"]


def test_a_fix_that_breaks_the_yaml_or_the_body_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\nbody\n")
    refusals: list[str] = []
    breakers = iter([
        lambda source: source.replace("name: Demo", "name: [demo"),
        lambda source: source.replace("body", "bod"),
    ])
    for breaker in breakers:
        monkeypatch.setattr(fixes, "apply_fix_to_text", lambda skill, fix, b=breaker: b(skill.source))
        plan = plan_fixes(directory)
        assert plan.fixed == plan.original and plan.applied == []
        assert len(plan.refused) == 2, plan.refused
        refusals.append(plan.refused[0])
    assert refusals[0].startswith("SK104: Rename to `demo`: not applied, the result would not parse")
    assert refusals[1] == "SK104: Rename to `demo`: not applied, it would change the body"


def test_a_fix_that_makes_no_progress_is_applied_once_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\nbody\n")
    monkeypatch.setattr(fixes, "apply_fix_to_text", lambda skill, fix: skill.source)
    plan = plan_fixes(directory)
    assert plan.applied == [] and plan.refused == [
        "SK104: Rename to `demo`: not applied, it makes no progress",
        "SK108: Set the name to the folder's, `demo`: not applied, it makes no progress",
    ]


def test_quoting_that_leaves_the_yaml_broken_writes_nothing(tmp_path: Path) -> None:
    original = "---\nname: demo\ndescription: Use when: asked\nlicense: [MIT\n---\nbody\n"
    directory = write_skill(tmp_path, "demo", original)
    plan = plan_fixes(directory)
    assert not plan.changes_anything and plan.applied == []
    assert "frontmatter unreadable" in plan.refused[-1]


def test_a_concurrent_edit_just_before_the_rename_is_refused_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when x\n---\nbody\n")
    skill_file = directory / "SKILL.md"
    plan = plan_fixes(directory)
    real_write = fixes.atomic_write_bytes

    def edited_meanwhile(path: Path, data: bytes, **kwargs: Any) -> None:
        # An editor saves in place while the temp file is written: same size, same mtime.
        info = skill_file.stat()
        with skill_file.open("r+b") as handle:
            handle.write(b"---\nname: Dem0")
        os.utime(skill_file, ns=(info.st_atime_ns, info.st_mtime_ns))
        real_write(path, data, **kwargs)

    monkeypatch.setattr(fixes, "atomic_write_bytes", edited_meanwhile)
    with pytest.raises(FixError, match="changed since"):
        apply_plan(plan)
    assert skill_file.read_text() == "---\nname: Dem0\ndescription: Use when x\n---\nbody\n"
    assert [p.name for p in directory.iterdir()] == ["SKILL.md"]


def test_a_skill_reached_through_a_link_out_of_the_root_is_never_written(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    root.mkdir()
    outside = write_skill(tmp_path / "elsewhere", "Other", "---\nname: other\ndescription: Use when x\n---\n")
    (root / "link").symlink_to(outside.parent, target_is_directory=True)
    before = (outside / "SKILL.md").read_bytes()
    with pytest.raises(FixError, match="outside"):
        plan_fixes(root / "link" / "Other", root=root)
    plan = plan_fixes(outside)
    plan.root = root
    with pytest.raises(FixError, match="outside"):
        apply_plan(plan)
    assert (outside / "SKILL.md").read_bytes() == before and outside.exists()


def test_a_linked_skill_md_inside_the_root_stays_a_link(tmp_path: Path) -> None:
    real = write_skill(tmp_path, "store", "---\nname: Demo\ndescription: Use when x\n---\n")
    directory = tmp_path / "demo"
    directory.mkdir()
    (directory / "SKILL.md").symlink_to(real / "SKILL.md")
    apply_plan(plan_fixes(directory, root=tmp_path))
    assert (directory / "SKILL.md").is_symlink()
    assert (real / "SKILL.md").read_text() == "---\nname: demo\ndescription: Use when x\n---\n"


def test_a_fifo_named_skill_md_is_refused_without_blocking(tmp_path: Path) -> None:
    directory = tmp_path / "demo"
    directory.mkdir()
    os.mkfifo(directory / "SKILL.md")
    with pytest.raises(FixError, match="not a regular file"):
        plan_fixes(directory)


def test_a_skill_given_as_dot_uses_its_real_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: other\ndescription: Use when x\n---\n")
    monkeypatch.chdir(directory)
    for given in (Path("."), Path("SKILL.md")):
        plan = plan_fixes(given)
        assert plan.skill_file == directory / "SKILL.md" and plan.rename_to is None
        assert plan.fixed == "---\nname: demo\ndescription: Use when x\n---\n"


def test_a_plan_that_would_cut_the_body_is_never_written(tmp_path: Path) -> None:
    original = "---\nname: Demo\ndescription: Use when x\n---\nthe body\n"
    directory = write_skill(tmp_path, "demo", original)
    plan = plan_fixes(directory)
    plan.fixed = plan.fixed[:-3]
    with pytest.raises(FixError, match="change the body"):
        apply_plan(plan)
    assert (directory / "SKILL.md").read_text() == original


def test_validation_only_decides_a_move_its_edits_are_built_when_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.skills.yaml import yamledit

    text = "---\nname: demo\ndescription: Demo. Use when testing.\ntags: [a, b]\n---\nbody\n"
    skill = load_skill(write_skill(tmp_path, "demo", text))
    built: list[str] = []
    real = yamledit._metadata_line
    monkeypatch.setattr(yamledit, "_metadata_line",
                        lambda s, key, found: built.append(key) or real(s, key, found))
    move = next(d for d in validate_skill(skill).diagnostics if d.code == "SK131")
    assert move.fix is not None and move.fix.title == "Move `tags` under `metadata:`"
    assert built == []
    fixed = apply_edits(skill.source, move.fix.edits)
    assert built == ["tags"]
    assert fixed == ("---\nname: demo\ndescription: Demo. Use when testing.\n"
                     "metadata:\n  tags: '[a, b]'\n---\nbody\n")
    assert move.fix.edits and built == ["tags"]  # built once


def test_plan_fixes_can_keep_only_the_fixes_of_one_field(tmp_path: Path) -> None:
    text = ("---\nname: demo\ndescription: Demo. Use when testing.\nversion: 1.0\nauthor: Ann\n"
            "---\nbody\n")
    directory = write_skill(tmp_path, "demo", text)
    plan = plan_fixes(directory, {"SK131"}, fields={"version"})
    assert plan.applied == ["SK131: Move `version` under `metadata:`"]
    apply_plan(plan)
    assert (directory / "SKILL.md").read_text() == (
        "---\nname: demo\ndescription: Demo. Use when testing.\nauthor: Ann\n"
        "metadata:\n  version: '1.0'\n---\nbody\n"
    )
    assert [d.field for d in plan.errors] == ["author"]
