"""Waiting on a condition the test cannot be told about (a process the kernel reaps, a file another
process writes): ask again until it holds, for as long as a loaded machine might need."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

# Long enough for a loaded 2-core machine; a condition that holds returns at once.
PATIENCE = 60.0


async def eventually(condition: Callable[[], bool], patience: float = PATIENCE) -> bool:
    """Whether `condition()` came true within `patience` seconds, asked every few milliseconds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + patience
    while not condition():
        if loop.time() > give_up:
            return False
        await asyncio.sleep(0.02)
    return True
