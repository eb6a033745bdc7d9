"""Watching one run's writes: a snapshot of the folders it may write before it starts, and after
it ends (however it ends) the difference, with the files other tools would run held back
(`studio.agent.holding`) before anything else runs. Gives the `ToolWrites` event."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from studio.agent.events import HeldWrite, ToolWrites
from studio.agent.holding import Hold, HoldingArea
from studio.agent.writes import (
    MAX_ENTRIES,
    MAX_LISTED,
    Difference,
    Snapshot,
    compare,
    inside,
    outermost,
    take,
)


class RunWatch:
    """The writes of one run in `folders`, relative to `root` when shown.

    Attributes:
        before: the snapshot taken before the run.
        limit: the most names compared (`MAX_ENTRIES`).
    """

    def __init__(self, folders: Iterable[Path], root: Path, *, limit: int = MAX_ENTRIES,
                 ignore: Iterable[Path] = ()) -> None:
        self.folders = tuple(folders)
        self.root = root.resolve()
        self.limit = limit
        # The studio's own files it writes during a run (the audit log, in a workspace that
        # holds the data folder): not the run's writes.
        self.ignore = frozenset(str(path.resolve()) for path in ignore)
        self.before: Snapshot | None = None

    def start(self) -> None:
        """Take the snapshot before the run (blocking: call it off the event loop)."""
        self.before = take(self.folders, limit=self.limit, ignore=self.ignore)

    def finish(self, holding: HoldingArea, call_id: str, *, command: str, cwd: Path,
               skill: str) -> ToolWrites:
        """Compare, hold back what other tools would run, and say what happened (blocking)."""
        assert self.before is not None, "start() comes first"
        after = take(self.folders, limit=self.limit, backups=False, ignore=self.ignore)
        difference = compare(self.before, after)
        hold = holding.hold(difference.held, self.before, command=command, cwd=cwd, skill=skill)
        return self._event(call_id, difference, hold, after)

    def _show(self, path: str, is_dir: bool) -> str:
        root = str(self.root)
        shown = path[len(root):].lstrip("/") if inside(path, root) and path != root else path
        return shown + "/" if is_dir else shown

    def _event(self, call_id: str, difference: Difference, hold: Hold, after: Snapshot) -> ToolWrites:
        held_paths = [str(item.path) for item in hold.items]

        def landed(paths: Iterable[str]) -> list[str]:
            return [path for path in paths
                    if not any(inside(path, unit) for unit in held_paths)]

        before = self.before
        assert before is not None
        lists: list[tuple[str, ...]] = []
        omitted = 0
        for shown, snapshot in ((outermost(landed(difference.created)), after),
                                (sorted(landed(difference.changed)), after),
                                (outermost(landed(difference.deleted)), before)):
            omitted += max(0, len(shown) - MAX_LISTED)
            lists.append(tuple(self._show(path, snapshot.entries[path].kind == "dir")
                               for path in shown[:MAX_LISTED]))
        created, changed, deleted = lists
        held = tuple(HeldWrite(self._show(str(item.path), item.is_dir), item.kind, item.reason)
                     for item in hold.items)
        problems = hold.problems
        if not difference.complete:
            problems = (*problems, self._incomplete(before, after))
        return ToolWrites(call_id, str(self.root), created, changed, deleted, held, hold.hold_id,
                          difference.complete, omitted, problems)

    def _incomplete(self, before: Snapshot, after: Snapshot) -> str:
        unreadable = [*before.unreadable, *after.unreadable]
        if unreadable:
            return (f"{unreadable[0]} could not be read, so what the run wrote there is "
                    "unknown")
        return (f"the folders hold more than {self.limit:,} names; only that many were "
                "compared, so what the run wrote past them is unknown")
