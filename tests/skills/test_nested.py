"""Nothing silently skipped: every SKILL.md on disk is shown as a skill or reported (SK303)."""

from __future__ import annotations

import os
from pathlib import Path

from studio.skills import codes
from studio.skills.scan.roots import SkillRoot, scan_library
from tests.skills.helpers import frontmatter, write_skill


def _on_disk(root: Path) -> int:
    return sum(name in ("SKILL.md", "skill.md")
               for _, _, files in os.walk(root) for name in files)


def test_every_skill_md_on_disk_is_shown_or_reported(tmp_path: Path) -> None:
    root = tmp_path / "library"
    write_skill(root, "alpha", frontmatter("alpha"),
                {"assets/sample/SKILL.md": frontmatter("sample")})
    write_skill(root, "bundle", frontmatter("bundle"),
                {"plugins/tool/skills/inner/SKILL.md": frontmatter("inner"),
                 "plugins/tool/skills/other/skill.md": frontmatter("other")})
    write_skill(root / "team", "copy-one", frontmatter("same"))
    write_skill(root / "team", "copy-two", frontmatter("same"))
    (root / ".claude" / "skills").mkdir(parents=True)
    (root / ".claude" / "skills" / "alpha").symlink_to("../../alpha")
    elsewhere = tmp_path / "elsewhere"
    write_skill(elsewhere, "stray", frontmatter("stray"))
    (root / "stray").symlink_to(elsewhere / "stray")

    (scan,) = scan_library([SkillRoot(root)])
    nested = [(s.name, d.file) for s in scan.skills for d in s.diagnostics
              if d.code == codes.NESTED_SKILL]
    assert sorted(nested) == [("alpha", "assets/sample/SKILL.md"),
                              ("bundle", "plugins/tool/skills/inner/SKILL.md"),
                              ("bundle", "plugins/tool/skills/other/skill.md")]
    assert len(scan.skills) + len(nested) == _on_disk(root) == 7
    assert [n.code for n in scan.notices] == [codes.LINK_OUT_OF_ROOT]
    message = next(d.message for s in scan.skills for d in s.diagnostics
                   if d.code == codes.NESTED_SKILL)
    assert "Claude Code" in message and "skills CLI" in message and "move" in message
