"""Each shot's scene: the state of the window, set up through its objects (open a tab, show the
Problems of the whole library, send a prompt to the scripted model, ...), never by clicking at
positions, so layout changes do not break it. A scene ends when the window shows what its shot
is for; scene_run.py then grabs the screen."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable

from conversations import (
    AGENT_MODEL,
    CHAT_PROMPT,
    FORK_PROMPT,
    SMALL_MODEL,
    SMALL_PROMPT,
    TOOL_MODEL,
    agent_turns,
    approval_turns,
    chat_turns,
    fork_turns,
    small_model_turns,
    write_agent,
    write_fork_skill,
    write_outside_file,
    write_skill_with_problems,
)
from evals_run import run_unit_convert_evals
from PySide6.QtWidgets import QApplication
from scene_run import CHECKOUT, Stage

from studio.ui.chat.approval_dialog import ApprovalDialog
from studio.ui.mainwindow import MainWindow

Scene = Callable[[Stage], Awaitable[None]]
# A generated collection shaped like public ones (benchmarks/corpus.py), the same every run.
COLLECTION_SIZE = 3000
COLLECTION_SEED = 3
LIBRARY_FILTER = "api-1"


def _approval_dialog() -> ApprovalDialog | None:
    shown = [widget for widget in QApplication.topLevelWidgets()
             if isinstance(widget, ApprovalDialog) and widget.isVisible()]
    return shown[-1] if shown else None


async def _approve_each(stage: Stage, window: MainWindow, count: int) -> None:
    """Answer `count` approvals with Execute once, as the user would."""
    for _ in range(count):
        await stage.until(lambda: _approval_dialog() is not None, "the approval dialog")
        dialog = _approval_dialog()
        assert dialog is not None
        dialog.once_button.click()
        await stage.until(lambda: _approval_dialog() is None, "the approval dialog to close")


async def _chat_window(stage: Stage, models: dict[str, list[str]], parameter_size: str = "8B",
                       ) -> MainWindow:
    stage.ollama(models, parameter_size)
    window = await stage.open_window()
    window.chat.dock.show()
    return window


async def _turn(stage: Stage, window: MainWindow, prompt: str, approvals: int) -> None:
    pane = window.chat.pane
    task = pane.send(prompt)
    assert task is not None, "the chat did not send"
    await _approve_each(stage, window, approvals)
    await stage.until(task.done, "the answer")
    task.result()


async def window(stage: Stage) -> None:
    window = await stage.open_window(ready="down")
    window.editors.open_skill(stage.skills / "unit-convert")
    window.library_panel.select_skill(stage.skills / "unit-convert")


async def library(stage: Stage) -> None:
    sys.path.insert(0, str(CHECKOUT / "benchmarks"))
    from corpus import generate_corpus

    collection = stage.scratch / "collection"
    generate_corpus(collection, COLLECTION_SIZE, COLLECTION_SEED, small=True, layout="collection")
    window = await stage.open_window(collection, ready="down")
    panel = window.library_panel
    panel.filter_edit.setText(LIBRARY_FILTER)
    panel.apply_filter()
    await stage.settle()


async def problems(stage: Stage) -> None:
    write_skill_with_problems(stage.skills)
    window = await stage.open_window(ready="down")
    window.show_library_problems()
    panel = window.problems_panel
    if not panel.group_button.isChecked():
        panel.group_button.click()
    panel.tree.expandAll()


async def targets(stage: Stage) -> None:
    window = await stage.open_window(ready="down")
    window.roots.set_target(stage.skills, "claude-code")
    await stage.until(lambda: not window.loader.busy, "the revalidation")
    window.library_panel.select_skill(stage.skills / "csv-profiler")
    window.editors.open_skill(stage.skills / "csv-profiler")


async def first_run(stage: Stage) -> None:
    window = await stage.open_window(ready="down")
    window.chat.dock.show()
    pane = window.chat.pane
    panel = pane.model_bar.first_run
    await stage.until(lambda: panel.isVisibleTo(pane), "the first-run choices")
    panel.local_button.click()
    await stage.settle()


async def chat(stage: Stage) -> None:
    window = await _chat_window(stage, {TOOL_MODEL: ["completion", "tools", "thinking"]})
    assert stage.fake is not None
    stage.fake.script(*chat_turns())
    window.editors.open_skill(stage.skills / "csv-profiler")
    window.chat.try_action.trigger()
    await _turn(stage, window, CHAT_PROMPT, approvals=1)


async def approval(stage: Stage) -> None:
    write_outside_file(stage.scratch / "home")
    window = await _chat_window(stage, {TOOL_MODEL: ["completion", "tools", "thinking"]})
    assert stage.fake is not None
    stage.fake.script(*chat_turns(), *approval_turns())
    window.editors.open_skill(stage.skills / "csv-profiler")
    window.chat.try_action.trigger()
    await _turn(stage, window, CHAT_PROMPT, approvals=1)
    task = window.chat.pane.send("Now profile the full export, ~/Downloads/orders-2024.csv")
    assert task is not None
    await stage.until(lambda: _approval_dialog() is not None, "the approval dialog")


async def fork(stage: Stage) -> None:
    write_fork_skill(stage.skills)
    window = await _chat_window(stage, {TOOL_MODEL: ["completion", "tools", "thinking"]})
    # `context: fork` is Claude Code's field: its root is written for Claude Code.
    window.roots.set_target(stage.skills, "claude-code")
    await stage.until(lambda: not window.loader.busy, "the revalidation")
    assert stage.fake is not None
    stage.fake.script(*fork_turns())
    await _turn(stage, window, FORK_PROMPT, approvals=1)
    [card] = [card for card in window.chat.pane.transcript.cards() if card.fork_card is not None]
    assert card.fork_card is not None
    card.fork_card.set_folded(False)
    # The revalidation's "Validating…" outlives it on the status bar; the shot is of the chat.
    window.statusBar().clearMessage()


async def agents(stage: Stage) -> None:
    write_agent(stage.scratch / "home" / "studio-config", stage.skills)
    window = await _chat_window(stage, {TOOL_MODEL: ["completion", "tools", "thinking"],
                                        AGENT_MODEL: ["completion", "tools"]})
    assert stage.fake is not None
    stage.fake.script(*agent_turns())
    pane = window.chat.pane
    pane.agent_picker.refresh()
    chosen = pane.agent_picker.choose("csv-helper")
    await stage.until(chosen.done, "the agent csv-helper")
    chosen.result()
    await _turn(stage, window, CHAT_PROMPT, approvals=1)


async def small_model(stage: Stage) -> None:
    window = await _chat_window(stage, {SMALL_MODEL: ["completion", "tools"]}, "135M")
    assert stage.fake is not None
    stage.fake.script(*small_model_turns())
    await _turn(stage, window, SMALL_PROMPT, approvals=1)


async def evals(stage: Stage) -> None:
    """The same run at either size, in that size's default layout: the chat dock starts hidden
    below 1600 px wide and shown from 1600."""
    fake = stage.ollama({TOOL_MODEL: ["completion", "tools", "thinking"]})
    window = await stage.open_window()
    await run_unit_convert_evals(stage, window, fake)


SCENES: dict[str, Scene] = {
    "window": window,
    "library": library,
    "problems": problems,
    "targets": targets,
    "first-run": first_run,
    "chat": chat,
    "approval": approval,
    "fork": fork,
    "agents": agents,
    "small-model": small_model,
    "evals-1280": evals,
    "evals-1600": evals,
}
