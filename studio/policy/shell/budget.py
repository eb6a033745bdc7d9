"""How much work one check may do: a count of steps the pipeline's loops spend as they go, so
that no command line, however hostile, keeps the checker busy. Running out is an answer, not a
crash: `judge` turns it into a block ("could not be checked"), since what was not checked cannot
be allowed.

Steps, not time: a clock (the wall's, or even this thread's CPU time, which a busy core slows
through its caches) would give one command two verdicts on two machines, or on one machine under
two loads. Each loop spends what one round of it costs, in steps of about a microsecond on a
2020s laptop (the costs below were measured so), so the budget also bounds the time: 200,000
steps are about 200 ms there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

BUDGET_STEPS = 200_000

# What one round of each kind of loop costs, in steps.
CHARACTER = 8
BRACE = 8
TOKEN = 40
WORD = 60
COMMAND = 60
FOLDER = 250
PROGRAM_CHUNK = 1000
FILE_READ = 200


class CheckAborted(Exception):
    """The check stopped before it could explain the whole command; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Budget:
    """A number of steps; `tick(cost)` spends them and raises CheckAborted once they run out.

    Attributes:
        steps: how many steps the check may spend.
        used: how many it has spent so far.
    """

    def __init__(self, steps: int = BUDGET_STEPS) -> None:
        self.steps = steps
        self.used = 0

    def tick(self, cost: int = 1) -> None:
        self.used += cost
        if self.used > self.steps:
            raise CheckAborted("it needs more work than the checker may spend on one command")


_CURRENT: ContextVar[Budget | None] = ContextVar("policy_budget", default=None)


@contextmanager
def running(budget: Budget) -> Iterator[Budget]:
    """Make `budget` the one `tick()` spends while the block runs."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def tick(cost: int = 1) -> None:
    """Called in every loop whose length the command line (or the file system) decides, with
    what one round costs."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.tick(cost)
