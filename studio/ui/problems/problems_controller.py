"""The Problems panel kept in step with the core `Library`: the current tab's problems, or the
whole library's (with the open editors' live problems in place of the saved ones), and a
summary line per root."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Generator, Iterator, Sequence

from PySide6.QtCore import QObject, QTimer

from studio.skills.library import Library, RootState, events
from studio.ui.editor.tabs import EditorTabs
from studio.ui.library.library_rows import root_labels
from studio.ui.numbers import count_text
from studio.ui.problems.problems_model import SLICE_SECONDS
from studio.ui.problems.problems_panel import ProblemsPanel
from studio.ui.problems.security_scans import SecurityScans

# While a scan or a fix of thousands of skills reports in batches, the whole library's list is
# rebuilt this long after the last rebuild was shown at the earliest, so the rebuilds never add up
# to a frozen window. Counted from the end: a rebuild of 100,000 skills' findings takes longer
# than this, and one started anew each time would never be shown.
LIBRARY_REFRESH_MS = 400
TOP_CODES = 4
# The roots' lines are counted this many skills a slice: at 100,000 skills the count took 25 to
# 60 ms of each refresh of the list.
SUMMARY_SLICE = 2000


def root_summary(state: RootState, label: str | None = None) -> str:
    """ "skills: 1,713 valid, 6,531 with errors; top codes SK131 ×4,741, ..." for one root,
    named `label` (as the library tree names it) or by its folder's name."""
    steps = root_summary_steps(state, label)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            text: str = done.value
            return text


def root_summary_steps(state: RootState, label: str | None = None) -> Generator[None, None, str]:
    """`root_summary`, yielding between slices of `SUMMARY_SLICE` skills."""
    skills = list(state.skills)
    valid = unchecked = 0
    codes: Counter[str] = Counter()
    for first in range(0, len(skills), SUMMARY_SLICE):
        piece = skills[first:first + SUMMARY_SLICE]
        valid += sum(1 for summary in piece if summary.valid)
        unchecked += sum(1 for summary in piece if not summary.checked)
        codes.update([d.code for summary in piece for d in summary.diagnostics])
        if first + SUMMARY_SLICE < len(skills):
            yield
    with_errors = len(skills) - valid - unchecked
    text = f"{label or state.path.name or state.path}: {count_text(valid)} valid, " \
           f"{count_text(with_errors)} with errors"
    if unchecked:
        text += f", {count_text(unchecked)} being checked"
    if codes:
        top = ", ".join(f"{code} ×{count_text(count)}"
                        for code, count in codes.most_common(TOP_CODES))
        text += f"; top codes {top}"
        if len(codes) > TOP_CODES:
            text += ", …"
    if state.scanning:
        text += " (scanning…)"
    return text


def summaries_steps(states: Sequence[RootState],
                    labels: Sequence[str]) -> Generator[None, None, list[str]]:
    lines = []
    for state, label in zip(states, labels, strict=True):
        lines.append((yield from root_summary_steps(state, label)))
    return lines


class ProblemsController(QObject):
    """Fills the Problems panel from the library.

    The whole library's list is rebuilt once per turn of the event loop however many changes
    arrive in it, and while they keep coming, `LIBRARY_REFRESH_MS` after the last rebuild was
    shown (a change during a rebuild waits for it)."""

    def __init__(self, library: Library, editors: EditorTabs, panel: ProblemsPanel,
                 scans: SecurityScans, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._editors = editors
        self._panel = panel
        self._scans = scans
        self._last_library_refresh = 0.0
        self._library_pending = QTimer(self)
        self._library_pending.setSingleShot(True)
        self._library_pending.timeout.connect(self.refresh)
        # A change came while the list was being rebuilt: refresh once that rebuild is shown.
        self._stale = False
        panel.model.rebuilt.connect(self._on_model_rebuilt)
        # The roots' lines, counted a slice per turn of the event loop after each refresh; the
        # last ones counted stay shown meanwhile.
        self._summaries: list[str] = []
        self._counting: Iterator[None] | None = None
        self._count_slices = QTimer(self)
        self._count_slices.setSingleShot(True)
        self._count_slices.setInterval(0)
        self._count_slices.timeout.connect(self._count_summaries)
        library.connect(self._on_library_event)
        panel.scope_changed.connect(self._on_panel_scope_changed)
        editors.tabs.currentChanged.connect(self._on_tabs_current_changed)
        editors.file_saved.connect(scans.path_changed)
        scans.changed.connect(self.refresh_security)
        self.refresh_security()

    def refresh_security(self) -> None:
        """Show the scanner's findings: the whole library's, or the open skill's (that of the
        current tab, a skill's or one of its files')."""
        tab = self._editors.current_tab()
        open_skill = self._scans.skill_of(tab.path) if tab is not None else None
        if self._panel.library_scope:
            self._panel.security.show_scans(self._scans.findings(), open_skill,
                                            self._scans.pending)
        elif open_skill is None:
            self._panel.security.show_scans((), None, 0, "open a skill to see its findings")
        else:
            waiting = self._scans.waiting(open_skill)
            self._panel.security.show_scans(
                self._scans.findings(open_skill), open_skill, self._scans.pending,
                "scanning this skill…" if waiting else "no findings in this skill")

    def refresh(self) -> None:
        self._library_pending.stop()
        self._stale = False
        panel = self._panel
        if panel.library_scope:
            states = self._library.roots()
            labels = root_labels([state.path for state in states])
            if len(self._summaries) != len(states):
                self._summaries = [f"{label}: counting…" for label in labels]
            panel.set_findings(self._library.findings(), "No problems in the library.",
                               self._summaries)
            panel.roots_summary.setToolTip("\n".join(
                f"{label}: {state.path}" for state, label in zip(states, labels, strict=True)))
            self._counting = self._steps(summaries_steps(states, labels))
            self._count_summaries()
            return
        self._counting = None
        tab = self._editors.current_skill_tab()
        if tab is None:
            panel.set_problems([], "Open a skill to see its problems.")
            return
        panel.set_problems(self._library.problems_of(tab.directory),
                           f"No problems in {tab.title}.")

    def _steps(self, counting: Generator[None, None, list[str]]) -> Iterator[None]:
        self._summaries = yield from counting
        if self._panel.library_scope:
            self._panel.show_roots_summary(self._summaries)

    def _count_summaries(self) -> None:
        counting = self._counting
        if counting is None:
            return
        deadline = time.perf_counter() + SLICE_SECONDS
        for _ in counting:
            if time.perf_counter() > deadline:
                self._count_slices.start()
                return
        if self._counting is counting:
            self._counting = None

    @property
    def counting(self) -> bool:
        """The roots' lines are being counted (those shown are the last ones counted)."""
        return self._counting is not None

    def _on_library_event(self, _event: events.LibraryEvent) -> None:
        if not self._panel.library_scope:
            self.refresh()
            return
        if self._library_pending.isActive() or self._stale:
            return
        if self._panel.model.busy:
            self._stale = True
            return
        since = (time.monotonic() - self._last_library_refresh) * 1000
        self._library_pending.start(max(0, int(LIBRARY_REFRESH_MS - since)))

    def _on_model_rebuilt(self) -> None:
        self._last_library_refresh = time.monotonic()
        if self._stale:
            self._stale = False
            self._library_pending.start(LIBRARY_REFRESH_MS)

    def _on_panel_scope_changed(self, _scope: int) -> None:
        self.refresh()
        self.refresh_security()

    def _on_tabs_current_changed(self, _index: int) -> None:
        tab = self._editors.current_tab()
        directory = self._scans.skill_of(tab.path) if tab is not None else None
        if directory is not None:
            self._scans.prioritize(directory)
        if not self._panel.library_scope:
            self.refresh()
        self.refresh_security()
