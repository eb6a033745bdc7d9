"""File ▸ Add MCP Server of Skills…: the server's skills are asked about, verified, and join the
library as a read-only root."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from studio.ui.library.served_root import add_served_root
from tests.skills.served.servers import fill, stdio_spec
from tests.ui.helpers import WindowFactory, open_dialog, start

# Starting a Python MCP server takes seconds on a loaded machine.
PATIENCE = 120_000


def test_a_servers_skills_join_the_library_read_only(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path
) -> None:
    served = tmp_path / "served"
    fill(served)
    window = make_window(skills_root)
    assert window.add_served_action in window.menus.file.actions()
    task = start(add_served_root(window.roots, window._feedback, window))
    address = open_dialog(qtbot, QInputDialog)
    address.setTextValue(stdio_spec(served))
    address.accept()
    question = open_dialog(qtbot, QMessageBox, timeout=PATIENCE)
    assert "serves 3 skill(s) you have not agreed to use" in question.text()
    assert "hello:" in question.detailedText()
    question.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(task.done, timeout=PATIENCE)
    task.result()
    served_roots = [path for path in window.roots.root_paths() if path.suffix == ".zip"]
    assert len(served_roots) == 1
    archive = served_roots[0]
    qtbot.waitUntil(lambda: window.library.summary_for(archive / "hello") is not None,
                    timeout=PATIENCE)
    summary = window.library.summary_for(archive / "hello")
    assert summary is not None and summary.read_only
