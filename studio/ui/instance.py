"""One window per user: a second `studio PATH` hands PATH to the window already running and exits.

The running studio listens on a local socket keyed by the config folder, so a test with its own
config folder never reaches another's window. On Unix the socket is a full path in the user's
private runtime folder (`studio.paths.runtime_dir`: theirs, mode 0700), never a name in `/tmp`,
which another user could take first and so receive the paths (and answer as if the window had
opened them); and the window takes messages only from a peer of its own user (`SO_PEERCRED` on
Linux). On Windows it is a named pipe, keyed by the user too. The message is one line of JSON:
the paths, already absolute (the second call's working folder is not the window's).
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
import os
import socket as pysocket
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from studio.paths import PrivateFolderError, config_dir, runtime_dir

log = logging.getLogger(__name__)

CONNECT_MS = 500
ANSWER_MS = 5000
ACK = b"opened\n"
MAX_MESSAGE = 1 << 20


def server_name(config: Path | None = None) -> str:
    """Where the socket is for this user and config folder: a path in the private runtime folder
    (short: Unix socket paths are limited), or a pipe's name on Windows.

    Raises:
        PrivateFolderError: the runtime folder is not private to this user.
    """
    folder = str((config or config_dir()).expanduser().resolve())
    digest = hashlib.sha256(f"{getpass.getuser()}\0{folder}".encode()).hexdigest()[:16]
    if sys.platform == "win32":
        return f"skill-studio-{digest}"
    return str(runtime_dir() / f"window-{digest}")


def peer_uid(socket: QLocalSocket) -> int | None:
    """The user id of the process at the other end of an accepted connection (Linux's
    SO_PEERCRED); None where the system does not say (there the private folder is the guard)."""
    option = getattr(pysocket, "SO_PEERCRED", None)
    descriptor = int(socket.socketDescriptor())
    if option is None or descriptor < 0:
        return None
    # fromfd duplicates the descriptor, so closing this copy leaves Qt's open.
    with pysocket.fromfd(descriptor, pysocket.AF_UNIX, pysocket.SOCK_STREAM) as copy:
        _pid, uid, _gid = struct.unpack("3i", copy.getsockopt(pysocket.SOL_SOCKET, option,
                                                              struct.calcsize("3i")))
    return int(uid)


def hand_over(paths: list[str], name: str | None = None) -> bool | None:
    """Send `paths` to the running studio. True when it took them, None when none is running (or
    the runtime folder is not private, logged: then this call opens its own window), False when
    one answered the connection but not the message (it is busy or hung)."""
    if name is None:
        try:
            name = server_name()
        except PrivateFolderError as exc:
            log.warning("not looking for a running studio window: %s", exc)
            return None
    socket = QLocalSocket()
    socket.connectToServer(name)
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
        self.problem = ""
        if name is None:
            try:
                name = server_name()
            except PrivateFolderError as exc:
                self.problem = str(exc)
        self.name = name or ""
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_server_new_connection)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        """Start listening; False (logged) when the name cannot be taken."""
        if self.problem:
            log.warning("a second `studio PATH` will open a second window: %s", self.problem)
            return False
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
        # Connections still open end first, so none reports its end to a server being torn down;
        # they are the server's children and go with it.
        for socket in list(self._buffers):
            socket.disconnected.disconnect()
            socket.abort()
        self._buffers.clear()
        self._server.close()

    def _on_server_new_connection(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            uid = peer_uid(socket)
            if uid is not None and uid != os.geteuid():
                log.warning("refused a connection to %s from user %s: only your own `studio "
                            "PATH` may open paths in this window", self.name, uid)
                socket.abort()
                socket.deleteLater()
                continue
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
