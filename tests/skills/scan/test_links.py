"""A project laid out by the skills CLI: one copy in `.agents/skills`, links from the clients'
folders. Each skill is read once, in its real folder; links anywhere else stay SK302."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.skills import codes
from studio.skills.checks.fixes import FixError, plan_fixes
from studio.skills.install.provenance import Provenance
from studio.skills.scan.links import links_to
from studio.skills.scan.roots import SkillRoot, scan_library, scan_root
from tests.skills.helpers import frontmatter, write_skill


def _cli_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    write_skill(project / ".agents" / "skills", "pdf", frontmatter("pdf"))
    write_skill(project / ".agents" / "skills", "xlsx", frontmatter("xlsx"))
    for client in (".claude", ".codex"):
        (project / client / "skills").mkdir(parents=True)
        for name in ("pdf", "xlsx"):
            os.symlink(f"../../.agents/skills/{name}", project / client / "skills" / name)
    return project


def test_a_client_folder_of_links_shows_each_skill_in_its_real_folder(tmp_path: Path) -> None:
    project = _cli_project(tmp_path)
    scan = scan_root(SkillRoot(project / ".claude" / "skills"))
    assert sorted(s.directory for s in scan.skills) == [
        project / ".agents" / "skills" / "pdf", project / ".agents" / "skills" / "xlsx"]
    assert scan.notices == [] and all(not s.diagnostics for s in scan.skills)
    assert sorted(Path(link.path).name for link in scan.links) == ["pdf", "xlsx"]


def test_the_whole_project_and_every_client_root_show_each_skill_once(tmp_path: Path) -> None:
    project = _cli_project(tmp_path)
    for roots in ([project], [project / c / "skills" for c in (".claude", ".agents", ".codex")]):
        scans = scan_library([SkillRoot(root) for root in roots])
        shown = [s.directory for scan in scans for s in scan.skills]
        assert sorted(shown) == [project / ".agents" / "skills" / "pdf",
                                 project / ".agents" / "skills" / "xlsx"], roots
        assert not any(d.code == codes.DUPLICATE_NAME
                       for scan in scans for s in scan.skills for d in s.diagnostics)


def test_a_link_into_another_library_root_is_followed_and_one_elsewhere_is_sk302(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    write_skill(shared, "common", frontmatter("common"))
    elsewhere = tmp_path / "elsewhere"
    write_skill(elsewhere, "stray", frontmatter("stray"))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "common").symlink_to(shared / "common")
    (mine / "stray").symlink_to(elsewhere / "stray")
    mine_scan, shared_scan = scan_library([SkillRoot(mine), SkillRoot(shared)])
    assert [s.directory for s in mine_scan.skills] == [shared / "common"]
    assert shared_scan.skills == []
    assert [(n.code, Path(n.path).name) for n in mine_scan.notices] == [(codes.LINK_OUT_OF_ROOT, "stray")]
    alone = scan_root(SkillRoot(mine))
    assert sorted(Path(n.path).name for n in alone.notices) == ["common", "stray"]


def test_fixes_write_in_a_linked_skills_real_folder_but_never_elsewhere(tmp_path: Path) -> None:
    project = _cli_project(tmp_path)
    root = project / ".claude" / "skills"
    plan = plan_fixes(root / "pdf", root=root)
    assert os.path.realpath(plan.skill_file) == str(project / ".agents" / "skills" / "pdf" / "SKILL.md")
    elsewhere = tmp_path / "elsewhere"
    write_skill(elsewhere, "stray", frontmatter("stray"))
    (root / "stray").symlink_to(elsewhere / "stray")
    with pytest.raises(FixError, match="outside"):
        plan_fixes(root / "stray", root=root)


def test_links_to_names_every_client_folder_that_points_at_a_skill(tmp_path: Path) -> None:
    project = _cli_project(tmp_path)
    assert links_to(project / ".agents" / "skills" / "pdf") == [
        project / ".claude" / "skills" / "pdf", project / ".codex" / "skills" / "pdf"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "my-pdf").symlink_to(project / ".agents" / "skills" / "pdf")
    assert other / "my-pdf" in links_to(project / ".agents" / "skills" / "pdf", [other])
    assert links_to(project / ".agents" / "skills" / "xlsx", [other]) == [
        project / ".claude" / "skills" / "xlsx", project / ".codex" / "skills" / "xlsx"]


def test_the_tooltip_says_where_a_skill_lives_and_who_links_to_it(tmp_path: Path) -> None:
    project = _cli_project(tmp_path)
    scan = scan_root(SkillRoot(project / ".claude" / "skills"))
    pdf = next(s for s in scan.skills if s.name == "pdf")
    assert Provenance().describe(pdf) == [
        f"Linked from {project / '.claude' / 'skills' / 'pdf'}",
        f"Linked from {project / '.codex' / 'skills' / 'pdf'}"]
