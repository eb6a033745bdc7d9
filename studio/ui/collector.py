"""When Python's cyclic garbage collector may run in the window's process.

A full collection walks every object the collector tracks and holds the interpreter lock while it
does, whichever thread set it off: with a library of thousands of skills, or just after the
imports of the start, one such walk froze the window for 0.1 to 1 s on a busy machine. Two tools
keep it short: `paused()` around work that makes many objects which reference counting frees
anyway (a render, the warm-up of the lexers), and `settle()` once long-lived objects are made (the
window, a batch of the library), which moves everything alive to the collector's permanent
generation so that later collections walk only what came after.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside (nests, and across threads: the collector is one for the
    process, so it comes back on when the last pause ends, if it was on before the first)."""
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


def settle() -> None:
    """Exempt every object alive now from later collections (objects that live as long as the
    window does: walking them again and again is what stalls it). Garbage among them is still
    freed by reference counting; only cycles among them would be kept, which is the price."""
    gc.freeze()
