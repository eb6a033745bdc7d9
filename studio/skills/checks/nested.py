"""A SKILL.md inside another skill's folder: a plugin bundled in a skill's repository, a sample
under `assets/`. The library takes the outer folder for the skill and does not look further in,
and neither does Claude Code, which reads `skills/NAME/SKILL.md` one level deep; but the skills
CLI installs such a file as a skill of its own when it searches a repository in depth
(`npx skills add --full-depth`, or any repository with no skill where it first looks:
vercel-labs/skills `src/skills.ts`, `findSkillDirs`). So each one is reported, never dropped.
"""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter

import studio.skills.codes as codes
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE, Diagnostic, Severity, Skill

_relative = attrgetter("relative")
_NESTED = ("/" + SKILL_FILE, "/" + LOWERCASE_SKILL_FILE)


def nested_skills_rule(skill: Skill) -> list[Diagnostic]:
    """A list, as the other rules that nearly always find nothing (see
    `studio.skills.checks.rules.Rule`)."""
    files = skill.files
    # Nearly no skill holds another: a C loop over the paths says so before the Python one.
    if not any(map(str.endswith, map(_relative, files), repeat(_NESTED))):
        return []
    found = []
    for file in files:
        folder, _, base = file.relative.rpartition("/")
        if not folder or base not in (SKILL_FILE, LOWERCASE_SKILL_FILE):
            continue
        found.append(Diagnostic(
            codes.NESTED_SKILL, Severity.WARNING,
            f"`{file.relative}` is a skill inside this skill's folder: Claude Code and this "
            f"library never load it (they stop at this folder's SKILL.md), while the skills "
            f"CLI, searching in depth, installs `{folder}` as a skill of its own. If it is a "
            f"skill, move `{folder}` to a folder of its own beside this one; if it is a sample, "
            f"rename it (for example `{folder}/{base}.example`)",
            file=file.relative,
        ))
    return found
