"""Where a skill came from, for the library to show and filter by: the URL it was installed from
(its root's `skills-lock.json`), and who drafted or last changed it (`created-by` / `updated-by`
in its `metadata:`, which the agent's drafts write).

Lock files are read once per root and again only when their stamp changes, so asking for every
skill of a large library costs one `stat` per root.
"""

from __future__ import annotations

from pathlib import Path

from studio.skills.files import load_skill
from studio.skills.lockfile import LOCK_FILE, origins
from studio.skills.stamps import Stamp, stamp_of
from studio.skills.summary import SkillSummary


class Provenance:
    def __init__(self) -> None:
        self._origins: dict[Path, tuple[Stamp, dict[str, str]]] = {}

    def origin(self, summary: SkillSummary) -> str | None:
        """The URL the skill was installed from, when its root records one."""
        if summary.read_only:
            return None
        root = summary.root
        stamp = stamp_of(str(root / LOCK_FILE))
        known = self._origins.get(root)
        if known is None or known[0] != stamp:
            known = (stamp, origins(root) if stamp[1] != -1 else {})
            self._origins[root] = known
        try:
            relative = summary.directory.relative_to(root)
        except ValueError:
            return None
        return known[1].get(str(relative)) if len(relative.parts) == 1 else None

    def describe(self, summary: SkillSummary) -> list[str]:
        """Lines for a tooltip: where it was installed from, who created and who changed it.
        Reads the skill's frontmatter through the one parser; meant for one skill at a time."""
        lines: list[str] = []
        url = self.origin(summary)
        if url is not None:
            lines.append(f"Installed from {url}")
        if summary.read_only:
            return lines
        metadata = load_skill(summary.directory).metadata
        for key, verb in (("created-by", "Created by"), ("updated-by", "Changed by")):
            who = metadata.get(key)
            if isinstance(who, str) and who:
                when = metadata.get(key.replace("-by", "-at"))
                lines.append(f"{verb} {who}" + (f" ({when})" if isinstance(when, str) else ""))
        return lines
