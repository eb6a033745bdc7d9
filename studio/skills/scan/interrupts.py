"""Ctrl+C while worker processes validate: noted, and raised where the scan can stop cleanly.

A KeyboardInterrupt raised inside `concurrent.futures` can land between a lock's acquire and the
`with` that releases it (Python runs a signal's handler at any bytecode). A future's condition is
then held for good by the main thread, the executor's manager thread waits on it forever, and the
pool's shutdown, which joins that thread, never returns: the command hangs after Ctrl+C. So while
a pool runs, the main thread's SIGINT only sets a flag; the scan looks at it between chunks, where
no lock is held, and raises the KeyboardInterrupt itself. The workers ignore Ctrl+C and finish
the chunk they are on (see `roots._end_with_parent`), so a wait for a result ends with that chunk."""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType


class DeferredInterrupt:
    """Within `with`: SIGINT noted, not raised (only in the main thread, and only when SIGINT has
    Python's own handler: a caller's handler is left alone); `check()` raises it."""

    def __init__(self) -> None:
        self.seen = False
        self._installed = False

    def __enter__(self) -> DeferredInterrupt:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            signal.signal(signal.SIGINT, self._note)
            self._installed = True
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._installed = False
        if self.seen and kind is None:
            raise KeyboardInterrupt

    def _note(self, _signal: int, _frame: FrameType | None) -> None:
        self.seen = True

    def check(self) -> None:
        """Raise the noted Ctrl+C, if there was one."""
        if self.seen:
            raise KeyboardInterrupt
