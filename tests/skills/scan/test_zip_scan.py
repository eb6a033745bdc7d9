"""Scanning a zip archive: each member read once however many skills it holds, and member names
that lead out of the archive flagged, never used as a location."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from studio.skills.files import load_zip_skills
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.search.catalog import build_catalog
from tests.skills.helpers import frontmatter


def write_zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


class CountingList(list[Any]):
    """A list that counts the items every loop over it takes."""

    taken = 0

    def __iter__(self) -> Any:
        for item in super().__iter__():
            CountingList.taken += 1
            yield item


def members_read(monkeypatch: pytest.MonkeyPatch, archive: Path) -> int:
    original = zipfile.ZipFile.infolist
    monkeypatch.setattr(zipfile.ZipFile, "infolist", lambda self: CountingList(original(self)))
    CountingList.taken = 0
    load_zip_skills(archive)
    return CountingList.taken


@pytest.mark.parametrize("count", [50, 400])
def test_each_member_is_read_a_fixed_number_of_times_however_many_skills(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    members = {}
    for number in range(count):
        name = f"skill-{number}"
        members[f"pack/{name}/SKILL.md"] = frontmatter(name)
        members[f"pack/{name}/references/guide.md"] = "# Guide\n"
    archive = write_zip(tmp_path / "pack.zip", members)
    # Going over the member list once per skill took 57 s on 8,000 skills.
    assert members_read(monkeypatch, archive) <= 3 * len(members)


def test_files_of_nested_skills_and_scripts_are_still_listed(tmp_path: Path) -> None:
    archive = write_zip(tmp_path / "pack.zip", {
        "SKILL.md": frontmatter("pack"),
        "outer/SKILL.md": frontmatter("outer"),
        "outer/skill.md": frontmatter("outer"),
        "outer/scripts/run.sh": "#!/bin/sh\n",
        "outer/inner/SKILL.md": frontmatter("inner"),
    })
    by_dir = {str(s.directory.relative_to(archive)): s for s in load_zip_skills(archive)}
    assert list(by_dir) == [".", "outer", "outer/inner"]
    outer = sorted(str(f.path) for f in by_dir["outer"].files)
    assert outer == ["inner/SKILL.md", "scripts/run.sh", "skill.md"]
    assert [f.has_shebang for f in by_dir["outer"].files if f.path.name == "run.sh"] == [True]
    assert len(by_dir["."].files) == 4


@pytest.mark.parametrize(
    "member",
    ["/abs/evil/SKILL.md", "../evil/SKILL.md", "a/../../evil/SKILL.md", "win\\evil\\SKILL.md",
     "C:/evil/SKILL.md"],
)
def test_a_skill_named_out_of_the_archive_is_flagged_and_located_inside_it(
    tmp_path: Path, member: str
) -> None:
    archive = write_zip(tmp_path / "pack.zip", {
        member: frontmatter("evil"), "good/SKILL.md": frontmatter("good"),
    })
    scan = scan_root(SkillRoot(archive))
    by_name = {s.name: s for s in scan.skills}
    evil = by_name["evil"]
    assert "SK017" in [d.code for d in evil.diagnostics] and not evil.loadable
    for summary in scan.skills:
        assert summary.directory.is_relative_to(archive) and ".." not in summary.directory.parts
        assert summary.skill_file.is_relative_to(archive)
    catalog = build_catalog(scan.skills)
    assert "evil" not in catalog.xml and "good" in catalog.xml


def test_a_file_named_out_of_its_skill_is_flagged_and_not_listed(tmp_path: Path) -> None:
    archive = write_zip(tmp_path / "pack.zip", {
        "good/SKILL.md": frontmatter("good"), "good/../../etc/passwd": "root:x\n",
        "good/references/a.md": "# A\n",
    })
    [skill] = load_zip_skills(archive)
    assert [str(f.path) for f in skill.files] == ["references/a.md"]
    assert [(d.code, d.file) for d in skill.problems] == [("SK212", "../../etc/passwd")]
