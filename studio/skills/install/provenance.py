"""Where a skill came from, for the library to show and filter by: the URL it was installed from
(its root's `skills-lock.json`), and who drafted or last changed it (`created-by` / `updated-by`
in its `metadata:`, which the agent's drafts write).

Lock files are read once per root and again only when their stamp changes, so asking for every
skill of a large library costs one `stat` per root. Who drafted a skill comes with its summary,
from the one parse the scan made.
"""

from __future__ import annotations

from pathlib import Path

from studio.skills.install.lockfile import LOCK_FILE, origins
from studio.skills.scan.links import links_to
from studio.skills.scan.stamps import Stamp, stamp_of
from studio.skills.summary import USER, SkillSummary


class Provenance:
    def __init__(self) -> None:
        self._origins: dict[Path, tuple[Stamp, dict[str, str]]] = {}

    def origin(self, summary: SkillSummary) -> str | None:
        """The URL the skill was installed from, when its root records one."""
        root = summary.root
        # The lock file lists only skills directly in the root: any other is answered without
        # its stat (the filter asks this of every skill a scan brings in).
        if summary.read_only or summary.directory.parent != root:
            return None
        stamp = stamp_of(str(root / LOCK_FILE))
        known = self._origins.get(root)
        if known is None or known[0] != stamp:
            known = (stamp, origins(root) if stamp[1] != -1 else {})
            self._origins[root] = known
        return known[1].get(summary.directory.name)

    def describe(self, summary: SkillSummary) -> list[str]:
        """Lines for a tooltip: where it was installed from, the links that lead to it (a skill
        the skills CLI installed is linked from each client's folder), who created and who
        changed it ("Drafted by qwen3:0.6b on 2026-11-23")."""
        lines: list[str] = []
        url = self.origin(summary)
        if url is not None:
            lines.append(f"Installed from {url}")
        if not summary.read_only:
            lines.extend(f"Linked from {link}" for link in links_to(summary.directory))
        for who, when, verb in ((summary.created_by, summary.created_at, "Drafted"),
                                (summary.updated_by, summary.updated_at, "Changed")):
            if who:
                said = "Created" if verb == "Drafted" and who == USER else verb
                lines.append(f"{said} by {who}" + (f" on {_day(when)}" if when else ""))
        return lines


def _day(when: str) -> str:
    """The date of an ISO time ("2026-11-23T09:30:00+00:00" -> "2026-11-23"); other text as is."""
    day, _, _ = when.partition("T")
    return day if len(day) == 10 and day[4] == "-" and day[7] == "-" else when
