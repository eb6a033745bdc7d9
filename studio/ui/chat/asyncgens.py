"""Closing dropped async generators on the qasync loop.

asyncio's own loops install hooks (`sys.set_asyncgen_hooks`) so that an async generator dropped
before its end is closed by a task on the loop; qasync's loop never installs them. httpx streams
are chains of async generators, and the inner ones are always dropped suspended when a response
closes early (a chat that ends, a Stop), so without the hooks each is finalized by the garbage
collector outside the loop ("async generator ignored GeneratorExit", "no running event loop").
`AsyncGenHooks` installs the hooks for the app's life and closes what is left at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import weakref
from collections.abc import AsyncGenerator
from typing import Any

log = logging.getLogger(__name__)

AnyAsyncGen = AsyncGenerator[Any, Any]


class AsyncGenHooks:
    """Async-generator hooks for one loop: `install()` when the loop runs, `await shutdown()`
    before it stops."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._live: weakref.WeakSet[AnyAsyncGen] = weakref.WeakSet()
        self._closing: set[asyncio.Task[None]] = set()
        self._previous: Any = None
        self._thread = threading.get_ident()

    def install(self) -> None:
        """Install the hooks; called on the loop's thread (hooks are per thread)."""
        self._thread = threading.get_ident()
        self._previous = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(firstiter=self._on_first_iteration, finalizer=self._on_finalize)

    def _on_first_iteration(self, generator: AnyAsyncGen) -> None:
        self._live.add(generator)

    def _on_finalize(self, generator: AnyAsyncGen) -> None:
        # Called wherever the generator is collected, often a worker thread (any thread's
        # allocations start the garbage collector): there the task is made on the loop's thread,
        # as asyncio's own hook does. Made in the worker, qasync would start its timer from the
        # wrong thread, which Qt refuses, and the generator would never be closed. On the loop's
        # thread it is made at once, so that `shutdown` waits for it.
        if threading.get_ident() != self._thread:
            with contextlib.suppress(RuntimeError):   # the loop closed meanwhile
                self.loop.call_soon_threadsafe(self._schedule_close, generator)
        else:
            self._schedule_close(generator)

    def _schedule_close(self, generator: AnyAsyncGen) -> None:
        if self.loop.is_closed():
            return
        task = self.loop.create_task(self._close(generator))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _close(self, generator: AnyAsyncGen) -> None:
        try:
            await generator.aclose()
        except Exception:
            # Closing a stream nobody reads any more; nothing the user could act on.
            log.debug("closing a dropped async generator failed", exc_info=True)

    async def shutdown(self) -> None:
        """Close the generators still open, wait for those being closed, restore the hooks."""
        for generator in list(self._live):
            await self._close(generator)
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
        if self._previous is not None:
            sys.set_asyncgen_hooks(*self._previous)
            self._previous = None
