"""What the library tree lists under an expanded skill, in a folder or inside a zip archive."""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath

from studio.skills.scan.listing import Entry, skill_entries
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.scan.zippath import enclosing_zip
from studio.skills.summary import SkillSummary
from tests.skills.helpers import frontmatter, write_skill

SKILL = frontmatter("pdf-tools")


def _summary(root: Path, directory: Path) -> SkillSummary:
    return next(s for s in scan_root(SkillRoot(root)).skills if s.directory == directory)


def test_a_folder_lists_skill_md_first_and_its_standard_folders_even_empty(tmp_path: Path) -> None:
    directory = write_skill(tmp_path, "pdf-tools", SKILL, {"scripts/run.py": "print()\n",
                                                           "notes.txt": "n\n"})
    (directory / "assets").mkdir()
    entries = skill_entries(_summary(tmp_path, directory))
    assert entries[0] == Entry(PurePosixPath("SKILL.md"))
    assert Entry(PurePosixPath("assets"), True) in entries
    assert Entry(PurePosixPath("scripts"), True) in entries
    assert Entry(PurePosixPath("scripts/run.py")) in entries
    assert Entry(PurePosixPath("notes.txt")) in entries
    assert Entry(PurePosixPath("references"), True) not in entries
    assert [e.relative for e in entries].count(PurePosixPath("SKILL.md")) == 1


def test_a_zip_lists_its_members_without_the_skills_nested_inside(tmp_path: Path) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("pdf-tools/SKILL.md", SKILL)
        out.writestr("pdf-tools/references/guide.md", "# Guide\n")
        out.writestr("pdf-tools/inner/SKILL.md", frontmatter("inner"))
        out.writestr("pdf-tools/inner/secret.md", "x\n")
    summary = _summary(archive, archive / "pdf-tools")
    relatives = {str(e.relative) for e in skill_entries(summary)}
    assert relatives == {"SKILL.md", "references/guide.md"}


def test_an_unreadable_zip_lists_only_skill_md(tmp_path: Path) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("pdf-tools/SKILL.md", SKILL)
    summary = _summary(archive, archive / "pdf-tools")
    archive.write_bytes(b"not a zip any more")
    assert skill_entries(summary) == [Entry(PurePosixPath("SKILL.md"))]


def test_enclosing_zip_finds_the_archive_and_the_member(tmp_path: Path) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("pdf-tools/SKILL.md", SKILL)
    assert enclosing_zip(archive / "pdf-tools" / "SKILL.md") == (
        archive, PurePosixPath("pdf-tools/SKILL.md"))
    assert enclosing_zip(tmp_path / "pdf-tools" / "SKILL.md") is None
    (tmp_path / "folder.zip").mkdir()
    assert enclosing_zip(tmp_path / "folder.zip" / "SKILL.md") is None
