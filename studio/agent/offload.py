"""File work too slow for the event loop (unpacking a zipped skill, scanning an agent's skills),
run in a worker thread of our own: `asyncio.to_thread` would use the loop's default executor,
which under qasync is a pool of QThreads that outlive the app and abort it on exit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_WORKER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="agent-files")


async def off_loop(function: Callable[..., T], *args: object) -> T:
    """`function(*args)` in the worker thread, awaited."""
    return await asyncio.get_running_loop().run_in_executor(_WORKER, function, *args)
