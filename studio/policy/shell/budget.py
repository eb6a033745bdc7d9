"""How long one check may take: a deadline the pipeline's loops look at, so that no command line,
however hostile, keeps the checker busy. Running out is an answer, not a crash: `judge` turns it
into a block ("could not be checked"), since what was not checked cannot be allowed."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# The checker answers within 250 ms of its own work: the deadline comes earlier, leaving room to
# stop and answer. The clock is this thread's CPU time, not the wall's: the same command must get
# the same verdict on a busy machine, where another process can take the core for longer than
# the whole budget.
BUDGET_SECONDS = 0.2
Clock = Callable[[], float]


class CheckAborted(Exception):
    """The check stopped before it could explain the whole command; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Budget:
    """A deadline on `clock`; `tick()` raises CheckAborted once it has passed."""

    def __init__(self, seconds: float = BUDGET_SECONDS, clock: Clock = time.thread_time) -> None:
        self._clock = clock
        self._deadline = clock() + seconds

    def tick(self) -> None:
        if self._clock() > self._deadline:
            raise CheckAborted("it took longer than the checker may spend on one command")


_CURRENT: ContextVar[Budget | None] = ContextVar("policy_budget", default=None)


@contextmanager
def running(budget: Budget) -> Iterator[Budget]:
    """Make `budget` the one `tick()` looks at while the block runs."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def tick() -> None:
    """Called in every loop whose length the command line decides."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.tick()
