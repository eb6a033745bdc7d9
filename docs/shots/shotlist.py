"""The shots: each one's name (docs/screenshot-NAME.png), the screen it is taken on and what it
shows. No Qt here: tests/test_shots.py reads it to check every shot the docs embed is taken."""

from __future__ import annotations

from typing import NamedTuple

SMALL = (1280, 720)
LARGE = (1600, 1000)


class Shot(NamedTuple):
    size: tuple[int, int]
    what: str


SHOTS: dict[str, Shot] = {
    "window": Shot(SMALL, "the default layout: unit-convert open, the Problems panel"),
    "library": Shot(SMALL, "a generated 3,000-skill collection filtered by api-1"),
    "problems": Shot(SMALL, "the Problems panel on the whole library, grouped by skill"),
    "targets": Shot(SMALL, "a root validated for Claude Code"),
    "first-run": Shot(SMALL, "the chat's first run: no server, the ways forward"),
    "chat": Shot(SMALL, "a chat using csv-profiler: the command's card, then the answer"),
    "approval": Shot(SMALL, "the approval dialog for a command reading outside the skill"),
    "fork": Shot(SMALL, "a context: fork skill's card nested in the Load skill card"),
    "agents": Shot(SMALL, "the chat running as the agent csv-helper"),
    "small-model": Shot(SMALL, "a 135M model guided through unit-convert"),
    "evals-1280": Shot(SMALL, "the Evals view of unit-convert after a run"),
    # The manual sets the two sizes side by side (docs/evals.md): this one stays larger.
    "evals-1600": Shot(LARGE, "the same run at 1600x1000"),
}
