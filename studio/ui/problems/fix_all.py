"""Fix every finding of one code across the library: plan in the background, preview the diffs,
apply in the background with progress, as one step that Edit ▸ Undo takes back.

The file work runs in a worker thread a chunk at a time; between chunks the GUI thread shows the
progress, hears Cancel and hands the library the skills' new state, so the window never stalls.
What the GUI thread itself looks up per skill (its tab, its root, its target) is looked up a chunk
at a time too, just before the chunk goes to the worker: done for 77,000 skills at once, each of
those lookups held the window for most of a second. A skill whose tab gained unsaved changes
after the preview is left as it is (its tab is the user's work). What each chunk made (plans,
changes kept for Undo) is exempted from later collections as it comes (`collector.settle`): a
full collection walks every object not exempted, holding the interpreter lock whichever thread
set it off, and over 77,000 plans one froze the window for seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QProgressDialog

from studio.editing import (
    BatchPlan,
    BatchResult,
    FileChange,
    LeftOut,
    Target,
    apply_one,
    plan_one,
    undo_one,
)
from studio.skills import SkillSummary
from studio.skills.checks import fixes
from studio.skills.library import Library
from studio.ui import asyncqt, collector
from studio.ui.editor.tabs import EditorTabs
from studio.ui.library.roots import summary_of
from studio.ui.numbers import plural
from studio.ui.problems.fix_preview import FixPreviewDialog
from studio.ui.status_messages import Feedback

CHUNK = 25
SHOWN_REASONS = 12
# The library is handed the skills read again at most this long per turn of the event loop (a
# skill at least): every view of it reacts to each changed skill, and at 100,000 skills the
# library tree and the counts took up to 10 ms a skill, 25 at once a third of a second.
HAND_OVER_SECONDS = 0.012
Item = TypeVar("Item")
Work = TypeVar("Work")


@dataclass(frozen=True, slots=True)
class FixStep:
    """One applied fix-all, as it can be undone."""

    code: str
    changes: tuple[FileChange, ...]

    @property
    def title(self) -> str:
        return f"Fix of {self.code} in {plural(len(self.changes), 'Skill')}"


def _reasons(items: Sequence[LeftOut]) -> str:
    lines = [f"• {item.directory.name}: {item.reason}" for item in items[:SHOWN_REASONS]]
    if len(items) > SHOWN_REASONS:
        lines.append(f"… and {plural(len(items) - SHOWN_REASONS, 'more skill')}")
    return "\n".join(lines)


class FixAll(QObject):
    """Fix every finding of a code, and undo it.

    Signals:
        undo_changed: (str) the title of the step Undo would take back, "" when there is none.
    """

    undo_changed = Signal(str)

    def __init__(self, library: Library, editors: EditorTabs, feedback: Feedback,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._editors = editors
        self._feedback = feedback
        self._steps: list[FixStep] = []
        self.busy = False
        self.progress: QProgressDialog | None = None

    @property
    def undo_title(self) -> str:
        return self._steps[-1].title if self._steps else ""

    # -- doing -------------------------------------------------------------------------------------

    async def fix_every(self, code: str, directories: Sequence[Path]) -> bool:
        """Plan, preview and apply the fixes of `code` in the skills at `directories`."""
        if self.busy:
            self._feedback.status("A fix of many skills is already under way; wait for it.")
            return False
        self.busy = True
        try:
            batch = await self._plan(code, directories)
            if batch is None:
                return False
            dialog = FixPreviewDialog(batch, self._feedback.parent)
            if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
                self._feedback.status(f"Nothing was changed: the fix of {code} was cancelled.")
                return False
            result = BatchResult()

            def unless_edited(plans: Sequence[fixes.FixPlan]) -> list[fixes.FixPlan]:
                kept = []
                for plan in plans:
                    tab = self._editors.skill_tab(plan.skill_file.parent)
                    if tab is not None and tab.dirty:
                        result.failed.append(LeftOut(
                            plan.skill_file.parent, "it gained unsaved changes in its tab after "
                            "the preview; save or close it, then fix again"))
                    else:
                        kept.append(plan)
                return kept

            try:
                await self._in_chunks(f"Fixing {code}…", batch.plans, apply_one, result,
                                      unless_edited)
            finally:
                # Whatever stopped it, what was written can be undone.
                if result.changed:
                    self._steps.append(FixStep(code, tuple(result.changed)))
                    self.undo_changed.emit(self.undo_title)
            await self._show_new_state(sorted({c.directory for c in result.changed}))
        finally:
            self.busy = False
        done = f"Fixed {code} in {plural(len(result.changed), 'skill')}."
        if result.failed:
            self._feedback.tell("Some skills were not fixed",
                                f"{done} {plural(len(result.failed), 'skill')} were left as "
                                f"they were:\n{_reasons(result.failed)}")
        else:
            self._feedback.status(f"{done} Edit ▸ Undo takes it back.", 15000)
        return bool(result.changed)

    async def undo_last(self) -> bool:
        """Put back every file the last fix-all rewrote, except those changed since."""
        if self.busy or not self._steps:
            return False
        step = self._steps.pop()
        self.undo_changed.emit(self.undo_title)
        self.busy = True
        try:
            result = BatchResult()
            await self._in_chunks(f"Undoing the {step.title.lower()}…", step.changes, undo_one,
                                  result, list)
            await self._show_new_state(sorted({c.directory for c in result.changed}
                                              | {f.directory for f in result.failed}))
        finally:
            self.busy = False
        done = f"Undid the fix of {step.code} in {plural(len(result.changed), 'skill')}."
        if result.failed:
            self._feedback.tell("Some files were not put back",
                                f"{done} {plural(len(result.failed), 'file')} changed since the "
                                f"fix and were left as they are:\n{_reasons(result.failed)}")
        else:
            self._feedback.status(done, 15000)
        return True

    # -- inside ----------------------------------------------------------------------------------------

    async def _plan(self, code: str, directories: Sequence[Path]) -> BatchPlan | None:
        batch = BatchPlan(code)

        def targets(chunk: Sequence[Path]) -> list[Target]:
            made = []
            for directory in chunk:
                tab = self._editors.skill_tab(directory)
                if tab is not None and tab.dirty:
                    batch.left_out.append(LeftOut(directory, "it has unsaved changes in its tab; "
                                                  "save or close it, then fix again"))
                    continue
                root = self._library.deepest_root(directory)
                if root is not None and root.root.read_only:
                    batch.left_out.append(LeftOut(directory, "it is inside an archive"))
                    continue
                made.append(Target(directory, root.path if root is not None else None,
                                   self._library.target_of(directory)))
            return made

        def plan(target: Target, into: BatchPlan) -> None:
            plan_one(target, code, into)

        if not await self._in_chunks(f"Working out the fixes of {code}…", directories, plan,
                                     batch, targets):
            self._feedback.status(f"Nothing was changed: the fix of {code} was cancelled.")
            return None
        return batch

    async def _in_chunks(self, label: str, items: Sequence[Item],
                         work: Callable[[Work, Any], None], into: object,
                         prepare: Callable[[Sequence[Item]], Sequence[Work]]) -> bool:
        """Run `work(w, into)` in a worker thread for each `w` that `prepare` (on the GUI
        thread) makes of the items, a chunk at a time, with a progress dialog whose Cancel
        stops after the chunk under way. False when cancelled."""
        parent = self._feedback.parent
        progress = QProgressDialog(label, "Cancel", 0, len(items), parent)
        progress.setWindowModality(Qt.WindowModality.NonModal)
        progress.setMinimumDuration(0)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        self.progress = progress
        progress.show()
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(1, thread_name_prefix="fix-all")

        def run(chunk: Sequence[Work]) -> None:
            for item in chunk:
                work(item, into)

        try:
            for start in range(0, len(items), CHUNK):
                if progress.wasCanceled():
                    return False
                ready = prepare(items[start:start + CHUNK])
                if ready:
                    await loop.run_in_executor(pool, run, ready)
                    collector.settle()
                else:
                    await asyncio.sleep(0)
                progress.setValue(min(len(items), start + CHUNK))
                progress.setLabelText(f"{label} {start + CHUNK:,} of {len(items):,}"
                                      if start + CHUNK < len(items) else label)
        finally:
            pool.shutdown(wait=False)
            self.progress = None
            progress.close()
            progress.deleteLater()
        return True

    async def _show_new_state(self, directories: Sequence[Path]) -> None:
        """Read the changed skills again (in the worker) and give the library their new state,
        for at most `HAND_OVER_SECONDS` a turn of the event loop."""
        loop = asyncio.get_running_loop()
        library = self._library

        def read(chunk: Sequence[tuple[Path, Path, str]]) -> list[SkillSummary]:
            return [summary_of(directory, root, target) for directory, root, target in chunk]

        with ThreadPoolExecutor(1, thread_name_prefix="fix-all-read") as pool:
            for start in range(0, len(directories), CHUNK):
                known = [(summary.directory, summary.root, library.target_of(summary.directory))
                         for summary in (library.summary_for(directory)
                                         for directory in directories[start:start + CHUNK])
                         if summary is not None]
                if known:
                    await self._hand_over(await loop.run_in_executor(pool, read, known))
                    collector.settle()

    async def _hand_over(self, summaries: Sequence[SkillSummary]) -> None:
        """Give the library these skills' new state, a few a turn of the event loop."""
        given = 0
        while given < len(summaries):
            deadline = time.perf_counter() + HAND_OVER_SECONDS
            first = given
            while given < len(summaries) and (given == first or time.perf_counter() < deadline):
                self._library.update_skills(summaries[given:given + 1])
                given += 1
            if given < len(summaries):
                await asyncio.sleep(0)

