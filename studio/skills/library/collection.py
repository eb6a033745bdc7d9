"""The library's state: its roots, the skills found under each, and their problems.

One `Library` holds what every view shows: the library tree, the skill counts (library, status
bar, chat) and the Problems panel all read it, and every change goes through it (scan results,
saves, renames, deletes, new skills, changes seen on disk). It tells its listeners what changed
with small events (rows added, removed or changed in a root; roots added or removed), so a Qt
model can adapt it without keeping a copy (napari's pattern). It knows nothing of Qt.

The live problems of a skill open in an editor (its unsaved text, with fixes) stand in for the
library's until the editor closes: `set_editing` and `stop_editing`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from studio.skills.clients import SPEC
from studio.skills.codes import DUPLICATE_NAME
from studio.skills.library.events import (
    EditingChanged,
    LibraryEvent,
    Listener,
    RootAdded,
    RootChanged,
    RootRemoved,
    SkillChanged,
    SkillsAdded,
    SkillsRemoved,
    SkillsReplaced,
    TargetChanged,
)
from studio.skills.model import Diagnostic
from studio.skills.scan.roots import RootScan, SkillRoot, mark_duplicates
from studio.skills.summary import SkillSummary

# Skills whose names one step of `Library.judge_shared_names` reads; a skill judged costs its
# listeners (the tree's rows, the Problems panel) about JUDGING_COST times as much as reading one.
JUDGING_STEP = 2000
JUDGING_COST = 20


@dataclass(frozen=True, slots=True)
class Problem:
    """A diagnostic and the skill it belongs to (its folder and the name to show)."""

    directory: Path
    skill_name: str
    diagnostic: Diagnostic


@dataclass(eq=False, slots=True)
class RootState:
    """One root of the library.

    Attributes:
        root: the folder or zip archive.
        skills: its skills, in the order they were found (rows of the library tree).
        scanning: a scan of it is under way.
        error: why reading it failed, if it did.
        target: the client its skills are judged for (`studio.skills.checks.clients`).
        stale: while its skills are validated again in place, those not yet seen again.
        index: each skill's row by its folder, made when first needed and kept while rows are
            only appended or replaced (a batch of a scan looked its rows up in a new index
            each time: quadratic in the library's size).
        gone: skills removed while it was being scanned: what that scan read of them before
            they went (a removal right after an install's rescan began) is not added back.
    """

    root: SkillRoot
    skills: list[SkillSummary] = field(default_factory=list)
    scanning: bool = False
    error: str | None = None
    target: str = SPEC
    stale: set[Path] | None = None
    index: dict[Path, int] | None = field(default=None, repr=False)
    gone: set[Path] = field(default_factory=set, repr=False)

    @property
    def path(self) -> Path:
        return self.root.path

    def row_of(self, directory: Path) -> int:
        """The row of the skill at `directory`; KeyError when the root has none there."""
        if self.index is None:
            self.index = {summary.directory: row for row, summary in enumerate(self.skills)}
        return self.index[directory]




@dataclass(frozen=True, slots=True)
class _Editing:
    name: str
    diagnostics: tuple[Diagnostic, ...]


class Library:
    """Roots, their skills and their problems; see the module's docstring."""

    def __init__(self) -> None:
        self._roots: list[RootState] = []
        self._where: dict[Path, RootState] = {}
        self._editing: dict[Path, _Editing] = {}
        self._listeners: list[Listener] = []
        self._count = 0
        self._unchecked = 0
        self._loadable = 0

    # -- listening ---------------------------------------------------------------------------------

    def connect(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _emit(self, event: LibraryEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # -- reading -----------------------------------------------------------------------------------

    @property
    def skill_count(self) -> int:
        return self._count

    @property
    def loadable_count(self) -> int:
        """The skills a client would load (`SkillSummary.loadable`): counted as they change, as
        counting them took the chat's skills button 58 ms at 100,000 skills."""
        return self._loadable

    @property
    def unchecked_count(self) -> int:
        """The skills listed but not yet validated (`SkillSummary.checked`)."""
        return self._unchecked

    def roots(self) -> Sequence[RootState]:
        return tuple(self._roots)

    def root(self, path: Path) -> RootState | None:
        for state in self._roots:
            if state.path == path:
                return state
        return None

    def root_row(self, path: Path) -> int:
        """The row of the root at `path`, or -1."""
        for row, state in enumerate(self._roots):
            if state.path == path:
                return row
        return -1

    def deepest_root(self, path: Path, *, writable: bool = False) -> RootState | None:
        """The innermost root that holds `path` (or is it)."""
        holding = [state for state in self._roots
                   if (path == state.path or path.is_relative_to(state.path))
                   and not (writable and state.root.read_only)]
        return max(holding, key=lambda state: len(state.path.parts), default=None)

    def target_of(self, path: Path) -> str:
        """The target a skill (or any path) is judged for: its root's, else the innermost root's
        that holds the path, else the bare spec."""
        state = self._where.get(path) or self.deepest_root(path)
        return state.target if state is not None else SPEC

    def summaries(self) -> list[SkillSummary]:
        return [summary for state in self._roots for summary in state.skills]

    def summary_for(self, directory: Path) -> SkillSummary | None:
        state = self._where.get(directory)
        if state is None:
            return None
        return state.skills[self._row_of(state, directory)]

    def root_of_skill(self, directory: Path) -> Path | None:
        state = self._where.get(directory)
        return state.path if state is not None else None

    def skills_below(self, folder: Path) -> list[SkillSummary]:
        return [summary for summary in self.summaries() if summary.directory.is_relative_to(folder)]

    def problems(self) -> list[Problem]:
        """Every problem in the library, the open editors' live ones in place of the saved."""
        found: list[Problem] = []
        for summary in self.summaries():
            found.extend(self.problems_of(summary.directory, summary))
        return found

    def findings(self) -> Iterator[tuple[Path, str, Sequence[Diagnostic]]]:
        """Each skill's folder, shown name and problems (its editor's live ones when open), as
        `problems()` lists them but without a `Problem` per finding: the Problems panel adapts
        these, and at 40,000 findings making the objects alone takes a quarter of a second."""
        for summary in self.summaries():
            editing = self._editing.get(summary.directory)
            if editing is not None:
                yield summary.directory, editing.name, editing.diagnostics
            else:
                yield summary.directory, summary.display_name, summary.diagnostics

    def problems_of(self, directory: Path, summary: SkillSummary | None = None) -> list[Problem]:
        """The problems of one skill: its editor's live ones when it is open, else the library's."""
        editing = self._editing.get(directory)
        if editing is not None:
            return [Problem(directory, editing.name, d) for d in editing.diagnostics]
        summary = summary or self.summary_for(directory)
        if summary is None:
            return []
        return [Problem(directory, summary.display_name, d) for d in summary.diagnostics]

    # -- roots ---------------------------------------------------------------------------------------

    def add_root(self, root: SkillRoot, target: str = SPEC) -> bool:
        """Add a root whose skills are judged for `target` (False when one at that path is
        already in). The skills a root around it listed below it are its own at once, before
        its scan: unchecked until then if that root judged them for another client."""
        if self.root(root.path) is not None:
            return False
        state = RootState(root, target=target)
        self._roots.append(state)
        self._emit(RootAdded(len(self._roots) - 1, root))
        if not root.is_zip:
            for outer in [other for other in self._roots if _inside(state, other)]:
                self._hand_over(outer.skills, outer.target, [state])
        return True

    def remove_root(self, path: Path) -> bool:
        """Take the root out; those of its skills inside another root go to the nearest such
        root at once (as `SkillsAdded`), unchecked if that root judges them for another client
        (until its scan judges them again)."""
        row = self.root_row(path)
        if row < 0:
            return False
        state = self._roots.pop(row)
        self._forget(state.skills)
        self._emit(RootRemoved(row, state.root, tuple(state.skills)))
        around = [other for other in self._roots if _inside(state, other) and not other.root.is_zip]
        if around:
            self._hand_over(state.skills, state.target, around)
        return True

    def _hand_over(self, summaries: Iterable[SkillSummary], target: str,
                   takers: list[RootState]) -> None:
        """Give each of `summaries` (judged for `target`) that lies in one of the roots `takers`
        to the nearest of them. On strings: 10,000 pathlib comparisons per root are slow."""
        places = sorted(((str(taker.path).rstrip(os.sep) + os.sep, taker) for taker in takers),
                        key=lambda place: -len(place[0]))
        moving: dict[int, tuple[RootState, list[SkillSummary]]] = {}
        for summary in summaries:
            directory = str(summary.directory)
            nearest = next((taker for base, taker in places if directory.startswith(base)), None)
            if nearest is None or self._where.get(summary.directory) is nearest:
                continue
            moving.setdefault(id(nearest), (nearest, []))[1].append(replace(
                summary, root=nearest.path, checked=summary.checked and nearest.target == target))
        for taker, moved in moving.values():
            self.add_skills(taker.path, moved)

    def set_target(self, path: Path, target: str) -> bool:
        """Judge the root's skills for `target` from now on; False when it already was (or there
        is no such root). The skills keep their old findings until `start_refresh` and the scan
        that follows replace them."""
        row = self.root_row(path)
        if row < 0 or self._roots[row].target == target:
            return False
        state = self._roots[row]
        state.target = target
        self._emit(TargetChanged(row, state.root, target))
        return True

    def start_refresh(self, path: Path) -> None:
        """The root is scanned again with its skills left in place: the scan's results replace
        them one by one (`add_skills`), and `finish_refresh` drops those it did not find."""
        state = self.root(path)
        if state is None:
            return
        state.error = None
        state.stale = {summary.directory for summary in state.skills}

    def finish_refresh(self, path: Path) -> None:
        state = self.root(path)
        if state is None or state.stale is None:
            return
        gone, state.stale = state.stale, None
        if not gone:  # a new root's refresh (at 100,000 skills, the loop below took 50 ms)
            return
        for row in range(len(state.skills) - 1, -1, -1):
            if state.skills[row].directory in gone:
                self._remove_rows(state, row, 1)

    def clear_root(self, path: Path) -> None:
        """Drop a root's skills and error before it is scanned again."""
        state = self.root(path)
        if state is None:
            return
        state.error = None
        state.stale = None
        if state.skills:
            self._remove_rows(state, 0, len(state.skills))

    def set_scanning(self, path: Path, scanning: bool, error: str | None = None) -> None:
        row = self.root_row(path)
        if row < 0:
            return
        state = self._roots[row]
        state.scanning = scanning
        state.gone.clear()
        if error is not None:
            state.error = error
        self._emit(RootChanged(row, state.root))

    # -- skills --------------------------------------------------------------------------------------

    def add_skills(self, path: Path, summaries: Iterable[SkillSummary]) -> int:
        """Append skills a scan found under the root at `path`. A validated one already known
        takes the place of the unchecked one listed before it (`SkillSummary.checked`), or of
        its old one while the root is refreshed; other known ones are left out. A skill belongs
        to the nearest root that holds it: one a root inside this one holds is left out, and
        one a root around this one holds moves here. Returns how many were added."""
        state = self.root(path)
        if state is None:
            return 0
        fresh: list[SkillSummary] = []
        seen: dict[Path, int] = {}  # where each in `fresh` is
        replaced: list[tuple[int, SkillSummary, SkillSummary]] = []
        nearer = self._roots_inside(state)
        taken: dict[int, tuple[RootState, list[Path]]] = {}  # from the roots around this one
        if state.gone:
            summaries = [s for s in summaries if s.directory not in state.gone]
        for summary in summaries:
            holder = self._where.get(summary.directory)
            if holder is state:
                # Known: a validated summary takes the place of an unchecked one (listed before
                # it was validated) or, while the root is refreshed, of its old one.
                row = state.row_of(summary.directory)
                old = state.skills[row]
                if summary.checked and (state.stale is not None or not old.checked):
                    replaced.append((row, old, summary))
                    self._put(state, row, summary)
                    if state.stale is not None:
                        state.stale.discard(summary.directory)
                continue
            if nearer and str(summary.directory).startswith(nearer):
                continue  # a root inside this one holds it
            if holder is not None:
                if id(holder) not in taken:
                    if not _inside(state, holder):
                        continue
                    taken[id(holder)] = (holder, [])
                taken[id(holder)][1].append(summary.directory)
            at = seen.get(summary.directory)
            if at is None:
                seen[summary.directory] = len(fresh)
                fresh.append(summary)
            elif summary.checked and not fresh[at].checked:  # listed and validated in one batch
                fresh[at] = summary
        if replaced:
            self._emit(SkillsReplaced(path, tuple(row for row, _, _ in replaced),
                                      tuple(old for _, old, _ in replaced),
                                      tuple(new for _, _, new in replaced)))
        for holder, directories in taken.values():
            self._take(holder, directories)
        if not fresh:
            return 0
        first = len(state.skills)
        state.skills.extend(fresh)
        if state.index is not None:
            state.index.update((summary.directory, row) for row, summary in enumerate(fresh, first))
        for summary in fresh:
            self._where[summary.directory] = state
        self._count += len(fresh)
        self._unchecked += sum(1 for summary in fresh if not summary.checked)
        self._loadable += sum(1 for summary in fresh if summary.loadable)
        self._emit(SkillsAdded(path, first, tuple(fresh)))
        return len(fresh)

    def update_skill(self, summary: SkillSummary, old_directory: Path | None = None) -> bool:
        """Show a skill's new state: after a save, a rename (from `old_directory`), a reload, or
        its creation (a skill not yet known is added to its root). False when no root holds it.
        The skills that shared its old name or share its new one are judged again (SK301)."""
        names: set[str] = set()
        done = self._update(summary, old_directory, names)
        self._mark_names(names)
        return done

    def update_skills(self, summaries: Iterable[SkillSummary]) -> None:
        """`update_skill` for many skills (read again after a fix of them all), with the names
        they share judged once at the end rather than once per skill."""
        names: set[str] = set()
        for summary in summaries:
            self._update(summary, None, names)
        self._mark_names(names)

    def _update(self, summary: SkillSummary, old_directory: Path | None,
                names: set[str]) -> bool:
        old_key = old_directory or summary.directory
        names.add(summary.name or "")
        state = self._where.get(old_key)
        if state is None:
            holder = self.root(summary.root)
            if holder is not None:
                holder.gone.discard(summary.directory)  # read afresh: made again since
            return self.add_skills(summary.root, [summary]) > 0
        if summary.directory != old_key and summary.directory in self._where:
            self.remove_skill(summary.directory)
        row = self._row_of(state, old_key)
        old = state.skills[row]
        names.add(old.name or "")
        self._put(state, row, summary)
        if summary.directory != old_key:
            if state.index is not None:
                del state.index[old_key]
                state.index[summary.directory] = row
            del self._where[old_key]
            self._where[summary.directory] = state
            editing = self._editing.pop(old_key, None)
            if editing is not None:
                self._editing[summary.directory] = editing
        self._emit(SkillChanged(state.path, row, old, summary))
        return True

    def remove_skill(self, directory: Path) -> bool:
        state = self._where.get(directory)
        if state is None:
            return False
        row = self._row_of(state, directory)
        name = state.skills[row].name
        if state.scanning:
            state.gone.add(directory)
        self._remove_rows(state, row, 1)
        self._mark_names({name or ""})
        return True

    def mark_duplicate_names(self) -> None:
        """Warn (SK301) on every skill whose name another skill in the library also uses."""
        for _ in self.judge_shared_names():
            pass

    def judge_shared_names(self, step: int = JUDGING_STEP) -> Iterator[None]:
        """`mark_duplicate_names` a step at a time: each `next()` reads about `step` skills'
        names, or judges the skills of a few names (about `step` / 20 skills, each judged one
        costing the listeners far more than one read), so a caller may spread the work over
        the ticks of a timer (at 100,000 skills, listing the names alone took a tenth of a
        second, and judging a slice of names re-read every skill's name).

        The names are read from the skills as they are at the first step. A skill removed or
        renamed meanwhile is judged by that change itself (`remove_skill`, `update_skill`) and
        left out here; skills added meanwhile call for judging again from the start."""
        snapshot = [list(state.skills) for state in self._roots]
        places: dict[str, list[Path]] = {}
        judged: set[str] = set()  # marked before: may need the mark taken off
        for skills in snapshot:
            for start in range(0, len(skills), step):
                for summary in skills[start:start + step]:
                    if summary.name:
                        places.setdefault(summary.name, []).append(summary.directory)
                        if any(d.code == DUPLICATE_NAME for d in summary.diagnostics):
                            judged.add(summary.name)
                yield
        judged.update(name for name, found in places.items() if len(found) > 1)
        names: list[str] = []
        size = 0
        for name in sorted(judged):
            names.append(name)
            size += len(places[name])
            if size * JUDGING_COST >= step:
                self._judge_places(names, places)
                names, size = [], 0
                yield
        if names:
            self._judge_places(names, places)
            yield

    def _judge_places(self, names: list[str], places: dict[str, list[Path]]) -> None:
        """Judge the skills named one of `names`, found at `places` when the judging began (those
        gone or renamed since are left out)."""
        rows: dict[int, list[int]] = {}
        for name in names:
            for directory in places[name]:
                state = self._where.get(directory)
                if state is None:
                    continue
                row = state.row_of(directory)
                if state.skills[row].name == name:
                    rows.setdefault(id(state), []).append(row)
        self._judge_names([sorted(rows.get(id(state), ())) for state in self._roots])

    def _mark_names(self, names: set[str]) -> None:
        """Judge again (SK301) the skills named one of `names`: after one of them changed, a
        name another skill had may be shared now, or no longer."""
        names.discard("")
        if names:
            self._judge_names([[row for row, s in enumerate(state.skills) if s.name in names]
                               for state in self._roots])

    def _judge_names(self, rows: list[list[int]]) -> None:
        """Mark the skills at `rows` (per root) whose name another of them shares, unmark the
        rest; `rows` holds every skill that bears any of the names concerned."""
        scans = [RootScan(state.root, [_without_duplicate_mark(state.skills[row]) for row in found])
                 for state, found in zip(self._roots, rows, strict=True)]
        mark_duplicates(scans)
        # One event per root, not per skill: listeners that count or list the library (the chat's
        # skills button, the Problems panel) ran once per skill, and at the end of a scan of a
        # collection where 1,500 forks share names that froze the window for half a second.
        for state, found, scan in zip(list(self._roots), rows, scans, strict=True):
            changed = [(row, state.skills[row], new)
                       for row, new in zip(found, scan.skills, strict=True)
                       if state.skills[row] != new]
            for row, _, new in changed:
                self._put(state, row, new)
            if changed:
                self._emit(SkillsReplaced(state.path, tuple(row for row, _, _ in changed),
                                          tuple(old for _, old, _ in changed),
                                          tuple(new for _, _, new in changed)))

    # -- open editors ------------------------------------------------------------------------------

    def set_editing(self, directory: Path, name: str, diagnostics: Iterable[Diagnostic]) -> None:
        """The skill at `directory` is open in an editor, whose text has these problems."""
        editing = _Editing(name, tuple(diagnostics))
        if self._editing.get(directory) == editing:
            return
        self._editing[directory] = editing
        self._emit(EditingChanged(directory))

    def stop_editing(self, directory: Path) -> None:
        if self._editing.pop(directory, None) is not None:
            self._emit(EditingChanged(directory))

    # -- inside --------------------------------------------------------------------------------------

    def _put(self, state: RootState, row: int, summary: SkillSummary) -> None:
        """Put `summary` in the root's row `row`, in place of the one there."""
        old = state.skills[row]
        self._unchecked += old.checked - summary.checked
        self._loadable += summary.loadable - old.loadable
        state.skills[row] = summary

    @staticmethod
    def _row_of(state: RootState, directory: Path) -> int:
        return state.row_of(directory)

    def _roots_inside(self, state: RootState) -> tuple[str, ...]:
        """The paths, each with a separator after it, of the roots inside the root `state`."""
        return tuple(str(other.path).rstrip(os.sep) + os.sep for other in self._roots
                     if _inside(other, state))

    def _take(self, holder: RootState, directories: list[Path]) -> None:
        """Remove the skills at `directories` from the root `holder`, a run of rows at a time,
        from the last run up (so the rows of the runs before stay where they are)."""
        rows = sorted({holder.row_of(directory) for directory in directories}, reverse=True)
        at = 0
        while at < len(rows):
            last = first = rows[at]
            at += 1
            while at < len(rows) and rows[at] == first - 1:
                first = rows[at]
                at += 1
            self._remove_rows(holder, first, last - first + 1)

    def _remove_rows(self, state: RootState, first: int, count: int) -> None:
        removed = state.skills[first:first + count]
        del state.skills[first:first + count]
        state.index = None  # the rows after them moved up
        self._forget(removed)
        self._emit(SkillsRemoved(state.path, first, tuple(removed)))

    def _forget(self, summaries: Iterable[SkillSummary]) -> None:
        for summary in summaries:
            if self._where.pop(summary.directory, None) is not None:
                self._count -= 1
                self._unchecked -= not summary.checked
                self._loadable -= summary.loadable


def _inside(inner: RootState, outer: RootState) -> bool:
    """Whether the root `inner` lies inside the root `outer` (and is not it)."""
    return inner.path != outer.path and inner.path.is_relative_to(outer.path)


def _without_duplicate_mark(summary: SkillSummary) -> SkillSummary:
    if not any(d.code == DUPLICATE_NAME for d in summary.diagnostics):
        return summary
    return replace(summary, diagnostics=tuple(d for d in summary.diagnostics
                                              if d.code != DUPLICATE_NAME))
