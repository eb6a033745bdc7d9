"""One window per user: a second `studio PATH` opens PATH in the window already running, and
exits; nothing else reaches that window."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtNetwork import QLocalSocket
from pytestqt.qtbot import QtBot

from studio.paths import runtime_dir
from studio.ui import instance
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


def test_the_socket_is_in_a_folder_only_this_user_can_enter(qtbot: QtBot) -> None:
    server = InstanceServer()
    assert server.listen()
    try:
        socket = Path(server.name)
        assert socket.parent == runtime_dir()
        assert stat.S_IMODE(os.lstat(socket.parent).st_mode) == 0o700
        assert stat.S_ISSOCK(os.lstat(socket).st_mode)
        assert not str(socket).startswith("/tmp/skill-studio")
    finally:
        server.close()


def test_a_runtime_folder_others_can_enter_is_refused_and_a_window_opens_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("STUDIO_RUNTIME_DIR", str(shared))
    with caplog.at_level(logging.WARNING):
        assert hand_over(["/x"]) is None
        server = InstanceServer()
        assert not server.listen()
    assert "can be entered by other users (mode 0777)" in caplog.text
    assert f"chmod 700 {shared}" in server.problem
    assert list(shared.iterdir()) == []


def test_a_peer_of_another_user_is_refused(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    server = InstanceServer()
    assert server.listen()
    received: list[list[str]] = []
    server.paths_received.connect(received.append)
    monkeypatch.setattr(instance, "peer_uid", lambda socket: os.geteuid() + 1)
    client = QLocalSocket()
    client.connectToServer(server.name)
    client.write(b'["/etc"]\n')
    client.flush()
    with caplog.at_level(logging.WARNING):
        qtbot.waitUntil(lambda: client.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert received == []
    assert "refused a connection" in caplog.text
    server.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_PEERCRED is Linux's")
def test_the_peer_is_known_to_be_this_user_and_its_paths_arrive(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int | None] = []
    real = instance.peer_uid

    def spy(socket: QLocalSocket) -> int | None:
        seen.append(real(socket))
        return seen[-1]

    monkeypatch.setattr(instance, "peer_uid", spy)
    server = InstanceServer()
    assert server.listen()
    received: list[list[str]] = []
    server.paths_received.connect(received.append)
    client = QLocalSocket()
    client.connectToServer(server.name)
    client.write(b'["/srv/skills"]\n')
    client.flush()
    qtbot.waitUntil(lambda: received == [["/srv/skills"]])
    assert seen == [os.geteuid()]
    qtbot.waitUntil(lambda: client.bytesAvailable() == len(instance.ACK))
    client.abort()
    server.close()
