"""The Evals shots' run: unit-convert's evals and trigger queries, twice each, with and without
the skill, against the scripted model. Runs go out in no fixed order, so the model answers each
request from what it holds (the query, the tool results so far, whether the skill is offered)
rather than from a queue; the script still really runs."""

from __future__ import annotations

import json
from typing import Any

from scene_run import Stage

from studio.ui.evals.panel import EvalsPanel
from studio.ui.mainwindow import MainWindow
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, Turn, calls, reply

SKILL = "unit-convert"
CONVERT = "python3 scripts/convert.py 26.2 miles kilometres"
RUNS = 2
# The trigger queries the scripted model takes for conversions: it misses one, as small models do.
CONVERSIONS = ("How many kilometres is 26.2 miles?",)


def _text(message: dict[str, Any]) -> str:
    content = message.get("content", "")
    return content if isinstance(content, str) else json.dumps(content)


def answer(body: dict[str, Any]) -> Turn:
    """This request's turn: load the skill, run its script, then answer from its output; or,
    without the skill (or for a query that is not a conversion), answer from memory."""
    messages = body.get("messages", [])
    offered = SKILL in json.dumps(body.get("tools", [])) or any(
        SKILL in _text(message) for message in messages if message.get("role") == "system")
    asked = next((_text(m) for m in messages if m.get("role") == "user"), "")
    results = [_text(m) for m in messages if m.get("role") == "tool"]
    wants = offered and ("26.2 miles" in asked or asked in CONVERSIONS)
    if not wants:
        return reply("26.2 miles is about 42.2 km." if "26.2" in asked else "Here you go.")
    if not results:
        return calls(Call("activate_skill", {"name": SKILL}))
    if len(results) == 1:
        return calls(Call("run_skill_script", {"skill": SKILL, "command": CONVERT}))
    return reply(f"26.2 miles is {results[-1].strip().split('= ')[-1]} (the script's answer).")


async def run_unit_convert_evals(stage: Stage, window: MainWindow, fake: FakeOllama,
                                 ) -> EvalsPanel:
    """The run, done, in unit-convert's Evals view; the view."""
    fake.responder = answer
    tab = window.editors.open_skill(stage.skills / SKILL)
    assert tab is not None
    panel = window.evals.panel_for(tab)
    assert panel is not None
    tab.views.setCurrentWidget(panel)
    panel.options.runs_box.setValue(RUNS)
    task = panel.run(without=True)
    assert task is not None, panel.status.text()
    await stage.until(lambda: not panel.busy, "the eval run", seconds=180)
    assert panel.report is not None and not panel.report.problems, panel.status.text()
    # The first result's output and verdicts beside the table, as after a click on it.
    view = panel.results.evals_view
    view.setCurrentIndex(view.model().index(0, 2))
    return panel
