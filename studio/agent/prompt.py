"""The system prompt: how to use skills, and the catalog of them (never their bodies)."""

from __future__ import annotations

from collections.abc import Sequence

from studio.skills.catalog import build_catalog
from studio.skills.summary import SkillSummary

INSTRUCTIONS = """\
You are a helpful assistant working in the user's project. You can use Agent Skills: folders of
instructions, scripts and reference files. The catalog below lists each skill's name, what it does
and when to use it.

How to use skills:
- When the user's task matches a skill's description, first call `activate_skill` with its name to
  load its full instructions, then follow them.
- Use `read_skill_file` to read a file the instructions point to (paths are relative to the skill's
  folder), and `run_skill_script` to run a command in the skill's folder.
- Do not guess what a skill says before loading it. If no skill fits, answer directly.
- A command may be denied or blocked; then say so and do not try to get around it.
"""


def system_prompt(skills: Sequence[SkillSummary], extra: str | None = None) -> tuple[str, list[str]]:
    """The system prompt, and the names of the skills left out of it (they would not load)."""
    catalog = build_catalog(skills)
    parts = [INSTRUCTIONS, catalog.xml]
    if extra:
        parts.append(extra)
    skipped = [s.display_name for s in catalog.skipped]
    return "\n".join(parts), skipped
