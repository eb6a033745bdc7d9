"""Searching the library from its panel: the index is brought up to date in a worker thread (with
progress in the panel) whenever the library changed since, then the query runs there too.

Only the latest query counts: typing on cancels the wait for an older one, whose answer is dropped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from studio.skills.collection import Library, LibraryEvent
from studio.skills.search import SearchIndex, SearchOutcome
from studio.ui.tasks import TaskSet
from studio.ui.widgets.library_panel import LibraryPanel

RESULTS = 50


class LibrarySearch(QObject):
    """The panel's search mode over one index file.

    Signals:
        index_progressed: (done, total) skills read into the index; emitted from the worker
            thread, delivered in the GUI thread.
    """

    index_progressed = Signal(int, int)

    def __init__(self, library: Library, panel: LibraryPanel, tasks: TaskSet,
                 index_file: Path | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._panel = panel
        self._tasks = tasks
        self._index_file = index_file
        self._index: SearchIndex | None = None
        self._stale = True
        self._current: asyncio.Task[object] | None = None
        library.connect(self._on_library_event)
        panel.search_requested.connect(self._on_panel_search_requested)
        self.index_progressed.connect(self._on_index_progressed)

    def _on_library_event(self, _event: LibraryEvent) -> None:
        self._stale = True

    def _on_panel_search_requested(self, query: str) -> None:
        if self._current is not None:
            self._current.cancel()
        self._current = self._tasks.spawn(self.search(query))

    def _on_index_progressed(self, done: int, total: int) -> None:
        self._panel.show_search_status(f"Indexing skills for search: {done:,} of {total:,}…")

    async def search(self, query: str) -> SearchOutcome | None:
        """Run `query` and show its results; None when the query was empty."""
        if not query.strip():
            self._panel.show_search_results(None)
            return None
        if self._index is None:
            self._index = await asyncio.to_thread(SearchIndex, self._index_file)
        index = self._index
        if self._stale:
            self._stale = False
            summaries = self._library.summaries()
            await asyncio.to_thread(index.update, summaries, self.index_progressed.emit)
        outcome = await asyncio.to_thread(index.search, query, RESULTS)
        self._panel.show_search_results(outcome)
        return outcome

    def close(self) -> None:
        self._library.disconnect(self._on_library_event)
        if self._index is not None:
            self._index.close()
            self._index = None
