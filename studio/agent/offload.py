"""File work too slow for the event loop (unpacking a zipped skill, scanning an agent's skills),
run in a worker thread of its own. Not `asyncio.to_thread`: under qasync the loop's default
executor is a pool of QThreads that outlive the app and abort it on exit. And no thread is kept
once the work is done: the library forks its scan workers only from a process with one thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


async def off_loop(function: Callable[..., T], *args: object) -> T:
    """`function(*args)` in a thread of its own, awaited. Cancelled, the work still finishes in
    its thread (it cannot be interrupted), and the thread then ends."""
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agent-files")
    try:
        return await asyncio.get_running_loop().run_in_executor(worker, function, *args)
    finally:
        worker.shutdown(wait=False)
