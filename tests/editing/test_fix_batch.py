"""Fixing one code in many skills through the core fix API, and undoing it file by file."""

from __future__ import annotations

from pathlib import Path

from studio.editing.fix_batch import (
    BatchPlan,
    BatchResult,
    Target,
    apply_one,
    plan_one,
    undo_all,
)


def _skill(root: Path, name: str, extra: str = "version: 1.0\n", folder: str = "") -> Path:
    directory = root / (folder or name)
    directory.mkdir(parents=True)
    (directory / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Does {name}. Use when testing.\n{extra}---\n# Body\n")
    return directory


def _plan(root: Path, folders: list[Path], code: str = "SK131") -> BatchPlan:
    batch = BatchPlan(code)
    for folder in folders:
        plan_one(Target(folder, root), code, batch)
    return batch


def test_plan_apply_and_undo(tmp_path: Path) -> None:
    folders = [_skill(tmp_path, f"skill-{n}") for n in range(3)]
    clean = _skill(tmp_path, "clean", extra="")
    before = {f: (f / "SKILL.md").read_bytes() for f in [*folders, clean]}

    batch = _plan(tmp_path, [*folders, clean])
    assert [p.skill_file.parent for p in batch.plans] == folders
    assert [(item.directory, "SK131" in item.reason) for item in batch.left_out] == [(clean, True)]
    assert all((f / "SKILL.md").read_bytes() == before[f] for f in folders)

    result = BatchResult()
    for plan in batch.plans:
        apply_one(plan, result)
    assert len(result.changed) == 3 and not result.failed
    assert all("metadata:\n  version:" in (f / "SKILL.md").read_text() for f in folders)

    (folders[1] / "SKILL.md").write_text("changed by hand\n")
    undone = undo_all(result.changed)

    assert [c.directory for c in undone.changed] == [folders[0], folders[2]]
    assert [item.directory for item in undone.failed] == [folders[1]]
    assert "changed since the fix" in undone.failed[0].reason
    assert (folders[0] / "SKILL.md").read_bytes() == before[folders[0]]
    assert (folders[1] / "SKILL.md").read_text() == "changed by hand\n"


def test_a_file_edited_between_plan_and_apply_is_refused(tmp_path: Path) -> None:
    folder = _skill(tmp_path, "edited")
    batch = _plan(tmp_path, [folder])
    (folder / "SKILL.md").write_text((folder / "SKILL.md").read_text() + "More.\n")

    result = BatchResult()
    apply_one(batch.plans[0], result)

    assert not result.changed
    assert "changed since the fixes were planned" in result.failed[0].reason
    assert (folder / "SKILL.md").read_text().endswith("More.\n")


def test_links_out_of_the_root_and_renames_are_left_out(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = _skill(tmp_path / "elsewhere", "linked")
    root.mkdir()
    (root / "linked").symlink_to(outside)
    renamed = _skill(root, "right-name", extra="", folder="Wrong Folder")

    batch = _plan(root, [root / "linked"])
    batch_rename = _plan(root, [renamed], code="SK108")

    assert not batch.plans and "outside" in batch.left_out[0].reason
    assert not batch_rename.plans and "renames the folder" in batch_rename.left_out[0].reason


def test_undo_leaves_a_deleted_file_alone(tmp_path: Path) -> None:
    folder = _skill(tmp_path, "gone")
    result = BatchResult()
    apply_one(_plan(tmp_path, [folder]).plans[0], result)
    (folder / "SKILL.md").unlink()

    undone = undo_all(result.changed)

    assert not undone.changed and not (folder / "SKILL.md").exists()
