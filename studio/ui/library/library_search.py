"""Searching the library from its panel: the index is brought up to date in a worker thread (with
progress in the panel) whenever the library changed since, then the query runs there too.

Only the latest query counts: typing on cancels the wait for an older one, whose answer is dropped.
The work runs in a plain Python thread of the controller's own, not in the event loop's default
executor: qasync's is made of QThreads, and Qt aborts the process when one is still running at
exit. For the same reason progress reaches the GUI thread through the event loop, never as a Qt
signal emitted from the worker (Qt would adopt that thread).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject

from studio.skills.library.collection import Library, LibraryEvent
from studio.skills.search.index import SearchIndex, SearchOutcome
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.tasks import TaskSet

RESULTS = 50
T = TypeVar("T")


class LibrarySearch(QObject):
    """The panel's search mode over one index file."""

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
        # One worker: index updates and queries never overlap, and they run in order.
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="library-search")
        library.connect(self._on_library_event)
        panel.search_requested.connect(self._on_panel_search_requested)

    def _on_library_event(self, _event: LibraryEvent) -> None:
        self._stale = True

    def _on_panel_search_requested(self, query: str) -> None:
        if self._current is not None:
            self._current.cancel()
        self._current = self._tasks.spawn(self.search(query))

    def _show_progress(self, done: int, total: int) -> None:
        self._panel.show_search_status(f"Indexing skills for search: {done:,} of {total:,}…")

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, work)

    async def search(self, query: str) -> SearchOutcome | None:
        """Run `query` and show its results; None when the query was empty."""
        if not query.strip():
            self._panel.show_search_results(None)
            return None
        if self._index is None:
            self._index = await self._in_worker(lambda: SearchIndex(self._index_file))
        index = self._index
        if self._stale:
            self._stale = False
            summaries = self._library.summaries()
            loop = asyncio.get_running_loop()

            def progress(done: int, total: int) -> None:
                loop.call_soon_threadsafe(self._show_progress, done, total)

            await self._in_worker(lambda: index.update(summaries, progress))
        outcome = await self._in_worker(lambda: index.search(query, RESULTS))
        self._panel.show_search_results(outcome)
        return outcome

    def close(self) -> None:
        self._library.disconnect(self._on_library_event)
        self._worker.shutdown(wait=False, cancel_futures=True)
        index, self._index = self._index, None
        if index is not None:
            index.close()
