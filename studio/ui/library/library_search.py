"""Searching the library from its panel: the index is brought up to date in a worker thread (with
progress in the panel) whenever the library changed since, then the query runs there too.

With an embedding model at hand (the one named in Settings on the chat's server, else
all-MiniLM-L6-v2 in the studio when installed: `studio.agent.default_search_embedder`), the
library is embedded in a second worker thread, with progress in the panel; until it is done the
results are ranked by words, then the query runs again ranked as `studio search` ranks it: words
and meaning fused. The panel says which ranking each result list used.

Only the latest query counts: typing on cancels the wait for an older one, whose answer is dropped.
The work runs in plain Python threads of the controller's own, not in the event loop's default
executor: qasync's is made of QThreads, and Qt aborts the process when one is still running at
exit. For the same reason progress reaches the GUI thread through the event loop, never as a Qt
signal emitted from the worker (Qt would adopt that thread). The signals below are emitted on the
GUI thread: the offer of meaning and the status bar's progress follow them (`meaning_offer`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

from studio.skills.library import Library, events
from studio.skills.search import Embedder, EmbeddingError, SearchIndex, SearchOutcome
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.meaning_offer import MeaningOffer
from studio.ui.tasks import TaskSet

RESULTS = 50
T = TypeVar("T")
EmbedderSource = Callable[[], Embedder | None]


class LibrarySearch(QObject):
    """The panel's search mode over one index file.

    Attributes:
        embedder_source: gives the embedding model to rank by meaning with (None: words only);
            asked at each search, so a model chosen in Settings counts from the next one.
        offer: the offer of meaning under the search box, and the indexing's progress.

    Signals:
        searched: (object) a search's outcome was shown (None: the box was empty).
        embedding_progressed: (str model, int done, int total) skills embedded so far.
        embedding_ended: (str) the library is embedded ("") or why it is not (the model failed).
    """

    searched = Signal(object)
    embedding_progressed = Signal(str, int, int)
    embedding_ended = Signal(str)

    def __init__(self, library: Library, panel: LibraryPanel, tasks: TaskSet,
                 index_file: Path | None, parent: QObject | None = None,
                 embedder_source: EmbedderSource | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._panel = panel
        self._tasks = tasks
        self._index_file = index_file
        self.embedder_source: EmbedderSource = embedder_source or (lambda: None)
        self._index: SearchIndex | None = None
        self._stale = True
        self._current: asyncio.Task[object] | None = None
        self._query = ""
        # The model whose vectors cover every skill searched; None while embedding or without one.
        self._embedded: str | None = None
        self._embedding: asyncio.Task[None] | None = None
        self._progress = ""
        self._failed: dict[str, str] = {}
        self._closed = False
        # One worker for index updates and queries, which never overlap and run in order; one
        # for embedding, which takes minutes on a large library while queries go on by words.
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="library-search")
        self._embed_worker = ThreadPoolExecutor(1, thread_name_prefix="library-embed")
        library.connect(self._on_library_event)
        panel.search_requested.connect(self._on_panel_search_requested)
        self.offer = MeaningOffer(self, panel, tasks, lambda: library.skill_count, self)
        self.searched.connect(self.offer.on_searched)
        self.embedding_progressed.connect(self.offer.on_embedding_progressed)
        self.embedding_ended.connect(self.offer.on_embedding_ended)

    @property
    def embedding(self) -> bool:
        """Whether the library is being embedded now."""
        return self._embedding is not None and not self._embedding.done()

    def _on_library_event(self, _event: events.LibraryEvent) -> None:
        self._stale = True

    def _on_panel_search_requested(self, query: str) -> None:
        if self._current is not None:
            self._current.cancel()
        self._current = self._tasks.spawn(self.search(query))

    def _show_progress(self, done: int, total: int) -> None:
        self._panel.show_search_status(f"Indexing skills for search: {done:,} of {total:,}…")

    def _show_embedding(self, label: str, done: int, total: int) -> None:
        self._progress = f"embedding for meaning with {label}: {done:,} of {total:,} skills"
        self._panel.show_search_progress(self._progress)
        self.embedding_progressed.emit(label, done, total)

    def meaning_at_hand(self) -> bool:
        """Whether an embedding model is at hand to rank by meaning with."""
        return self.embedder_source() is not None

    def meaning_failure(self) -> str | None:
        """Why the embedding model at hand failed, if it did (None: it did not, or there is none)."""
        embedder = self.embedder_source()
        return self._failed.get(embedder.key) if embedder is not None else None

    def retry_meaning(self) -> None:
        """Forget the failures and search again: an embedding model at hand is tried anew."""
        self._failed.clear()
        self._on_panel_search_requested(self._query)

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, work)

    async def search(self, query: str) -> SearchOutcome | None:
        """Run `query` and show its results; None when the query was empty (the index is made
        ready all the same, and the embedding started, so the first query finds them done)."""
        self._query = query
        index = await self._ready_index()
        embedder = self.embedder_source()
        use = embedder if embedder is not None and self._embedded == embedder.key else None
        note = self._failed.get(embedder.key) if embedder is not None else None
        if embedder is not None and use is None and note is None and not self.embedding:
            self._embedding = self._tasks.spawn(self._embed(index, embedder))
        if not query.strip():
            self._panel.show_search_results(None, self._progress if self.embedding else "")
            self.searched.emit(None)
            return None
        outcome = await self._in_worker(lambda: index.search(query, RESULTS, use))
        if note is not None:
            outcome = replace(outcome, note=note)
        self._panel.show_search_results(outcome, self._progress if self.embedding else "")
        self.searched.emit(outcome)
        return outcome

    async def _ready_index(self) -> SearchIndex:
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
            embedder = self.embedder_source()
            if (embedder is not None and self._embedded == embedder.key
                    and await self._in_worker(lambda: index.missing(embedder)) > 0):
                self._embedded = None
        return index

    async def _embed(self, index: SearchIndex, embedder: Embedder) -> None:
        """Embed what the model has not seen, until nothing is left (skills may arrive meanwhile),
        then run the query shown again, ranked by meaning too."""
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:
            loop.call_soon_threadsafe(self._show_embedding, embedder.label, done, total)

        def embed_all() -> None:
            while not self._closed and index.missing(embedder) > 0:
                index.embed(embedder, progress, lambda: self._closed)

        self._progress = f"embedding for meaning with {embedder.label}…"
        self._panel.show_search_progress(self._progress)
        self.embedding_progressed.emit(embedder.label, 0, 0)
        try:
            await loop.run_in_executor(self._embed_worker, embed_all)
        except EmbeddingError as exc:
            self._failed[embedder.key] = f"ranked by words only: {exc.user_message}"
            self.embedding_ended.emit(exc.user_message)
        else:
            self._embedded = embedder.key
            self.embedding_ended.emit("")
        finally:
            self._progress = ""
        if self._panel.searching:
            self._on_panel_search_requested(self._query)

    def close(self) -> None:
        self._closed = True
        self._library.disconnect(self._on_library_event)
        self._worker.shutdown(wait=False, cancel_futures=True)
        index, self._index = self._index, None
        if index is not None:
            # After the batch being embedded, if any: the index is not closed under it.
            self._embed_worker.submit(index.close)
        self._embed_worker.shutdown(wait=False, cancel_futures=False)
