"""One window per user: a second `studio PATH` hands PATH to the window already running and exits.

The running studio listens on a local socket (a Unix socket, a named pipe on Windows) whose name
is keyed by the user and the config folder, so two users, or a test with its own config folder,
never reach each other's window. The message is one line of JSON: the paths, already absolute
(the second call's working folder is not the window's).
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from studio.paths import config_dir

log = logging.getLogger(__name__)

CONNECT_MS = 500
ANSWER_MS = 5000
ACK = b"opened\n"
MAX_MESSAGE = 1 << 20


def server_name(config: Path | None = None) -> str:
    """The socket's name for this user and config folder (short: Unix socket paths are limited)."""
    folder = str((config or config_dir()).expanduser().resolve())
    digest = hashlib.sha256(f"{getpass.getuser()}\0{folder}".encode()).hexdigest()[:16]
    return f"skill-studio-{digest}"


def hand_over(paths: list[str], name: str | None = None) -> bool | None:
    """Send `paths` to the running studio. True when it took them, None when none is running,
    False when one answered the connection but not the message (it is busy or hung)."""
    socket = QLocalSocket()
    socket.connectToServer(name or server_name())
    if not socket.waitForConnected(CONNECT_MS):
        return None
    message = json.dumps([str(Path(path).expanduser().resolve()) for path in paths]) + "\n"
    socket.write(message.encode("utf-8"))
    socket.flush()
    answer = b""
    while not answer.endswith(b"\n") and socket.waitForReadyRead(ANSWER_MS):
        answer += bytes(socket.readAll().data())
    socket.disconnectFromServer()
    return answer == ACK


class InstanceServer(QObject):
    """The running studio's end: takes the paths later `studio` calls hand over.

    Signals:
        paths_received: (list of absolute paths as strings) a second call asked to open them.
    """

    paths_received = Signal(list)

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name or server_name()
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_server_new_connection)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        """Start listening; False (logged) when the name cannot be taken."""
        if self._server.listen(self.name):
            return True
        # No studio answered on this name (hand_over came first), so a socket file left by one
        # that crashed is what holds it.
        QLocalServer.removeServer(self.name)
        if self._server.listen(self.name):
            return True
        log.warning("a second `studio PATH` will open a second window: %s", self._server.errorString())
        return False

    def close(self) -> None:
        self._server.close()

    def _on_server_new_connection(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._on_socket_ready_read(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))

    def _forget(self, socket: QLocalSocket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()

    def _on_socket_ready_read(self, socket: QLocalSocket) -> None:
        data = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if b"\n" not in data:
            if len(data) > MAX_MESSAGE:
                socket.abort()
            else:
                self._buffers[socket] = data
            return
        line = data.split(b"\n", 1)[0]
        try:
            paths = json.loads(line)
        except ValueError:
            paths = None
        if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
            log.warning("ignored a malformed message on %s", self.name)
            socket.abort()
            return
        socket.write(ACK)
        socket.flush()
        self.paths_received.emit(paths)
