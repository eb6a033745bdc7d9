"""Where a skill came from: the root's lock file and the skill's metadata."""

from __future__ import annotations

from pathlib import Path

from skills.helpers import frontmatter, write_skill

from studio.skills.install.lockfile import InstallRecord, record_install
from studio.skills.install.provenance import Provenance
from studio.skills.scan.entries import decode, encode
from studio.skills.scan.roots import SkillRoot, scan_root


def test_installed_and_drafted_skills_say_where_they_came_from(tmp_path: Path) -> None:
    write_skill(tmp_path, "packed", frontmatter("packed"))
    write_skill(tmp_path, "drafted", frontmatter(
        "drafted", extra="metadata:\n  created-by: qwen3\n  created-at: '2026-01-01T00:00:00+00:00'\n"))
    write_skill(tmp_path, "mine", frontmatter("mine"))
    provenance = Provenance()
    skills = {s.name: s for s in scan_root(SkillRoot(tmp_path)).skills}
    assert provenance.origin(skills["packed"]) is None
    record_install(tmp_path, InstallRecord("packed", "https://example.org/p.zip", "archive", ""))
    assert provenance.origin(skills["packed"]) == "https://example.org/p.zip"
    assert provenance.describe(skills["packed"]) == ["Installed from https://example.org/p.zip"]
    assert provenance.describe(skills["drafted"]) == ["Drafted by qwen3 on 2026-01-01"]
    assert provenance.describe(skills["mine"]) == []


def test_a_damaged_lock_file_means_no_origin(tmp_path: Path) -> None:
    write_skill(tmp_path, "packed", frontmatter("packed"))
    (tmp_path / "skills-lock.json").write_text("{not json", encoding="utf-8")
    (summary,) = scan_root(SkillRoot(tmp_path)).skills
    assert Provenance().origin(summary) is None


def test_the_summary_carries_who_drafted_and_changed_it_through_the_cache(tmp_path: Path) -> None:
    write_skill(tmp_path, "drafted", frontmatter("drafted", extra=(
        "metadata:\n  created-by: user\n  created-at: 2026-11-20T08:00:00Z\n"
        "  updated-by: qwen2.5\n  updated-at: '2026-11-23T09:30:00+00:00'\n")))
    write_skill(tmp_path, "odd", frontmatter("odd", extra="metadata:\n  created-by: [a, b]\n"))
    skills = {s.name: s for s in scan_root(SkillRoot(tmp_path)).skills}
    drafted = skills["drafted"]

    assert drafted.created_by == "user" and drafted.updated_by == "qwen2.5"
    assert drafted.created_at is not None and drafted.created_at.startswith("2026-11-20")
    assert drafted.drafted_by == "qwen2.5"
    assert decode(tmp_path, encode(drafted)) == drafted
    assert Provenance().describe(drafted) == ["Created by user on 2026-11-20",
                                              "Changed by qwen2.5 on 2026-11-23"]
    assert skills["odd"].created_by is None and skills["odd"].drafted_by is None
