"""One window per user: a second `studio PATH` opens PATH in the window already running, and
exits; nothing else reaches that window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtNetwork import QLocalSocket
from pytestqt.qtbot import QtBot

from studio.ui.app import open_paths
from studio.ui.instance import InstanceServer, hand_over, server_name
from tests.ui.helpers import WindowFactory, write_skill

CHECKOUT = Path(__file__).resolve().parents[2]


def test_a_second_studio_call_opens_its_skill_in_the_running_window(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    server = InstanceServer(parent=window)
    assert server.listen()
    server.paths_received.connect(lambda paths: open_paths(window, paths))
    extra = write_skill(tmp_path / "more", "extra-skill")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(CHECKOUT))
    second = subprocess.Popen([sys.executable, "-m", "studio", "extra-skill"], cwd=extra.parent,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        qtbot.waitUntil(lambda: second.poll() is not None, timeout=60000)
    finally:
        if second.poll() is None:
            second.kill()
    out, err = second.communicate()
    assert second.returncode == 0, err
    assert "opened in the running studio window: extra-skill" in out
    qtbot.waitUntil(lambda: window.editors.skill_tab(extra) is not None)
    assert window.library.root(extra) is not None
    assert str(extra) not in window.settings.roots, "a handed-over root is for this session only"


def test_without_a_running_window_nothing_is_handed_over(tmp_path: Path) -> None:
    assert hand_over([str(tmp_path)], name=server_name(tmp_path / "nobody-runs-here")) is None


def test_each_config_folder_has_its_own_window(tmp_path: Path) -> None:
    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")
    assert server_name(tmp_path / "a") == server_name(tmp_path / "a")


def test_a_malformed_message_opens_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    server = InstanceServer(server_name(tmp_path / "config"))
    assert server.listen()
    received: list[list[str]] = []
    server.paths_received.connect(received.append)
    client = QLocalSocket()
    client.connectToServer(server.name)
    qtbot.waitUntil(lambda: client.state() == QLocalSocket.LocalSocketState.ConnectedState)
    client.write(b'{"not": "a list"}\n')
    qtbot.waitUntil(lambda: client.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert received == []
    server.close()
