"""The async-generator hooks of the window's loop (studio.ui.chat.asyncgens): a stream dropped
anywhere is closed on the loop's own thread. The garbage collector (or the last reference) may
finalize a generator in any thread: the scan, search and model-finding workers all allocate."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

from pytestqt.qtbot import QtBot

from tests.ui.helpers import run


def test_a_generator_dropped_in_a_worker_thread_is_closed_on_the_loop(
        qtbot: QtBot, qloop: asyncio.AbstractEventLoop) -> None:
    closed_in: list[threading.Thread] = []

    async def stream() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            closed_in.append(threading.current_thread())

    async def first(generator: AsyncIterator[int]) -> int:
        return await generator.__anext__()

    held = [stream()]
    assert run(qtbot, first(held[0])) == 1
    # Its last reference dropped in another thread: its finalizer runs there.
    worker = threading.Thread(target=held.clear)
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: bool(closed_in), timeout=5000)
    assert closed_in == [threading.main_thread()]
