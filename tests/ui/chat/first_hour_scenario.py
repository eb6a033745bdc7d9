"""A new user's first hour, scripted: an empty home, the README's window on the example skills at
1280x720, no model server, a model file already on disk opened from the first-run panel, a skill
tried in the chat, its script approved, and the answer read.

Run by tests/ui/chat/test_first_hour.py in a pytest of its own on a real X server (Xvfb), the
way a person meets the window; it records how long each step took in the file named by
`FIRST_HOUR_TIMES` (for the closing note, never asserted). Not collected on its own: its name
does not start with `test_`.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import httpx
import pytest
import shiboken6
import yaml
from PySide6.QtWidgets import QFileDialog, QLineEdit
from pytestqt.qtbot import QtBot

from studio.ui.chat.approval_dialog import ApprovalDialog
from tests.fakes.localmodels import INSTALL_HINT, smollm2_gguf
from tests.ui.helpers import WindowFactory, open_dialog, run

SHIPPED = Path(__file__).resolve().parents[3] / "skills"
DEAD_URL = "http://127.0.0.1:9"
# A real engine on two loaded cores: loading the model and a guided turn can take minutes.
MODEL_TIMEOUT = 600_000
QUESTION = "How many kilometres is 10 miles? Use the unit-convert skill."


def test_a_new_users_first_hour(qtbot: QtBot, make_window: WindowFactory,
                                chat_http: httpx.AsyncClient, tmp_path: Path) -> None:
    model = smollm2_gguf()
    if model is None:
        pytest.skip(INSTALL_HINT)
    started = time.monotonic()
    times: dict[str, float] = {}

    def step(name: str) -> None:
        times[name] = round(time.monotonic() - started, 1)

    skills = tmp_path / "skills"
    shutil.copytree(SHIPPED, skills)
    settings = tmp_path / "settings.yaml"
    settings.write_text(yaml.safe_dump({"backend": {"kind": "ollama", "url": DEAD_URL}}),
                        encoding="utf-8")
    window = make_window(skills, settings=settings)
    window.resize(1280, 720)
    pane = window.chat.pane
    pane.model_bar.attach(chat_http)
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "down", timeout=20_000)
    window.chat.dock.show()
    panel = pane.model_bar.first_run
    qtbot.waitUntil(lambda: panel.isVisibleTo(pane), timeout=10_000)
    step("window open, first-run choices shown")

    panel.open_file_button.click()
    dialog = open_dialog(qtbot, QFileDialog)
    name_edit = dialog.findChild(QLineEdit, "fileNameEdit")
    name_edit.setText(str(model))
    dialog.accept()
    qtbot.waitUntil(lambda: "Chatting with" in window.statusBar().currentMessage(), timeout=30_000)
    assert pane.model_bar.backend.kind == "embedded"
    assert not panel.isVisibleTo(pane)
    step("model file opened")

    tab = window.editors.open_skill(skills / "unit-convert")
    assert tab is not None
    window.chat.try_action.trigger()
    assert pane.skill_chooser.chosen == ("unit-convert",)
    step("skill open and tried")

    task = pane.send(QUESTION)
    assert task is not None
    approval = open_dialog(qtbot, ApprovalDialog, timeout=MODEL_TIMEOUT)
    assert approval.command_box.toPlainText().startswith("python3 scripts/convert.py 10 ")
    step("approval asked")
    approval.once_button.click()
    qtbot.waitUntil(task.done, timeout=MODEL_TIMEOUT)
    answer = pane.transcript.answers()[-1].text
    assert "16.0934" in answer, answer
    step("answered")

    assert shiboken6.isValid(window.autosaver), "the window went away before the test ended"
    run(qtbot, pane.shutdown(), timeout=60_000)
    assert shiboken6.isValid(window.autosaver), "the window went away when the chat shut down"
    out = os.environ.get("FIRST_HOUR_TIMES")
    if out:
        Path(out).write_text(json.dumps(times, indent=2), encoding="utf-8")
