"""Accessibility of the approval dialog, the chat's first-run panel and a skill's Evals view:
Qt's accessibility tree names every control, and Tab reaches each one (keyboard alone)."""

from __future__ import annotations

from pathlib import Path

import httpx
from pytestqt.qtbot import QtBot

from tests.ui.accessibility import unnamed_controls, unreachable_controls
from tests.ui.chat.chat_helpers import ChatWindowFactory, open_approval
from tests.ui.chat.test_approval_dialog import request
from tests.ui.chat.test_first_run import _down_pane
from tests.ui.evals.test_evals_tab import open_panel, write_evals
from tests.ui.helpers import run


def test_the_approval_dialog_names_and_reaches_every_control(qtbot: QtBot, parent: object) -> None:
    dialog = open_approval(qtbot, parent, request(scope="/skills/demo"))  # type: ignore[arg-type]
    assert unnamed_controls(dialog) == []
    assert unreachable_controls(dialog) == []


def test_the_first_run_panel_names_and_reaches_every_control(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    panel = pane.model_bar.first_run
    assert panel.isVisible()
    assert unnamed_controls(panel) == []
    assert unreachable_controls(panel) == []
    run(qtbot, pane.shutdown())


def test_the_evals_view_names_and_reaches_every_control(
        qtbot: QtBot, chat_window: ChatWindowFactory, chat_skills: Path) -> None:
    write_evals(chat_skills)
    window = chat_window()
    panel = open_panel(window, chat_skills)
    qtbot.waitUntil(panel.isVisible, timeout=5000)
    assert unnamed_controls(panel) == []
    assert unreachable_controls(panel) == []
