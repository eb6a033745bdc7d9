"""Where a skill came from: the root's lock file and the skill's metadata."""

from __future__ import annotations

from pathlib import Path

from skills.helpers import frontmatter, write_skill

from studio.skills.library import SkillRoot, scan_root
from studio.skills.lockfile import InstallRecord, record_install
from studio.skills.provenance import Provenance


def test_installed_and_drafted_skills_say_where_they_came_from(tmp_path: Path) -> None:
    write_skill(tmp_path, "packed", frontmatter("packed"))
    write_skill(tmp_path, "drafted", frontmatter(
        "drafted", extra="metadata:\n  created-by: qwen3\n  created-at: '2026-01-01T00:00:00+00:00'\n"))
    write_skill(tmp_path, "mine", frontmatter("mine"))
    provenance = Provenance()
    skills = {s.name: s for s in scan_root(SkillRoot(tmp_path)).skills}
    assert provenance.origin(skills["packed"]) is None
    record_install(tmp_path, InstallRecord("https://example.org/p.zip", "0" * 64, "now", ("packed",)))
    assert provenance.origin(skills["packed"]) == "https://example.org/p.zip"
    assert provenance.describe(skills["packed"]) == ["Installed from https://example.org/p.zip"]
    assert provenance.describe(skills["drafted"]) == ["Created by qwen3 (2026-01-01T00:00:00+00:00)"]
    assert provenance.describe(skills["mine"]) == []


def test_a_damaged_lock_file_means_no_origin(tmp_path: Path) -> None:
    write_skill(tmp_path, "packed", frontmatter("packed"))
    (tmp_path / "skills-lock.json").write_text("{not json", encoding="utf-8")
    (summary,) = scan_root(SkillRoot(tmp_path)).skills
    assert Provenance().origin(summary) is None
