"""Running coroutines from Qt slots: keeping references, and reporting their exceptions."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class TaskSet:
    """The background tasks of one owner: kept alive until done, cancelled together.

    An exception in a task goes to `sys.excepthook` (which logs it and tells the user), so a
    failing async slot is never silent.
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._on_task_done)
        return task

    def _on_task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            sys.excepthook(type(error), error, error.__traceback__)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def close(self) -> None:
        """Cancel every task and wait until each has unwound. A cancelled task still has steps to
        run (closing its connections); left to a loop that has stopped, they run from Qt's event
        processing with no running loop and fail there."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __len__(self) -> int:
        return len(self._tasks)
