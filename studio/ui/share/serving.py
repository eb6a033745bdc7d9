"""Tools ▸ Serve Library over MCP: the window's library served to MCP clients over streamable HTTP
on 127.0.0.1 while the action is checked, to those that send the token the window shows. The
server is the core's (`studio.mcp`), run in a thread of its own so the window never waits on a
client."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QWidget

from studio.mcp import LoopbackService, SkillLibrary, build_server
from studio.ui import confirm
from studio.ui.status_messages import Feedback
from studio.ui.tasks import TaskSet

ACTION_TEXT = "Serve Library over &MCP"


class McpServing(QObject):
    """Starts and stops the MCP server of the window.

    Attributes:
        action: the checkable Tools menu action; its tooltip gives the address while serving.
        service: the running server, or None.

    Signals:
        serving_changed(str): the address served now, or "" when stopped.
    """

    serving_changed = Signal(str)

    def __init__(self, feedback: Feedback, tasks: TaskSet, roots: Callable[[], list[Path]],
                 parent: QWidget) -> None:
        super().__init__(parent)
        self._feedback = feedback
        self._tasks = tasks
        self._roots = roots
        self.service: LoopbackService | None = None
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="mcp-start")
        self._library: SkillLibrary | None = None
        self.action = QAction(ACTION_TEXT, parent)
        self.action.setCheckable(True)
        self.action.setStatusTip("Let MCP clients (Claude Desktop, Claude Code, Codex, ...) search "
                                 "and read this library at an address on this computer")
        self.action.toggled.connect(self._on_action_toggled)

    def _on_action_toggled(self, on: bool) -> None:
        if on and self.service is None:
            self._tasks.spawn(self.start())
        elif not on and self.service is not None:
            self.stop()

    async def start(self) -> str | None:
        """Serve the library's roots as they are now; returns the address, or None on failure."""
        roots = self._roots()
        if not roots:
            self._set_checked(False)
            self._feedback.status("The library has no roots to serve: add a folder of skills first.")
            return None
        self._feedback.status("Starting the MCP server…")
        try:
            library, service = await asyncio.get_running_loop().run_in_executor(
                self._worker, _serve, roots)
        except OSError as exc:
            self._set_checked(False)
            self._feedback.tell("MCP server", f"The MCP server could not start: {exc.strerror or exc}.")
            return None
        if not self.action.isChecked():
            service.stop()
            library.close()
            return None
        self._library, self.service = library, service
        self.action.setText(f"{ACTION_TEXT.replace('&', '')} ({service.url})")
        self.action.setToolTip(f"Serving {len(library.names)} skills at {service.url}")
        self._feedback.status(f"Serving {len(library.names):,} skills over MCP at {service.url}", 30000)
        box = confirm.information(self._feedback.parent, "MCP server",
                                  _how_to_connect(service.url, len(library.names), service.token)
                                  + _withheld(library),
                                  QMessageBox.Icon.Information)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the token
        box.open()
        self.serving_changed.emit(service.url)
        return service.url

    def close(self) -> None:
        """Stop serving and let the worker go: the window is closing."""
        self.stop()
        self._worker.shutdown(wait=False, cancel_futures=True)

    def stop(self) -> None:
        service, library = self.service, self._library
        self.service = self._library = None
        if service is not None:
            service.stop()
        if library is not None:
            library.close()
        self._set_checked(False)
        self.action.setText(ACTION_TEXT)
        self.action.setToolTip(self.action.statusTip())
        self.serving_changed.emit("")
        if service is not None:
            self._feedback.status("The MCP server stopped.")

    def _set_checked(self, on: bool) -> None:
        blocked = self.action.blockSignals(True)
        self.action.setChecked(on)
        self.action.blockSignals(blocked)


def _serve(roots: list[Path]) -> tuple[SkillLibrary, LoopbackService]:
    library = SkillLibrary(roots)
    try:
        service = LoopbackService(build_server(library))
    except OSError:
        library.close()
        raise
    service.start()
    return library, service


def _how_to_connect(url: str, count: int, token: str) -> str:
    shown = html.escape(url)
    header = html.escape(f"Authorization: Bearer {token}")
    return (f"<p>Serving {count:,} skills at <b>{shown}</b> until you uncheck Tools ▸ Serve Library "
            "over MCP or close the window. Only programs on this computer that send this "
            f"token can connect (it is new each time):</p><p><code>{header}</code></p>"
            f"<p>Claude Code: <code>claude mcp add --transport http skill-studio {shown} "
            f"--header &quot;{header}&quot;</code></p>"
            "<p>Clients that start a server themselves (Claude Desktop, Codex) can run "
            "<code>studio mcp --skills FOLDER</code> instead; see docs/mcp.md.</p>")


def _withheld(library: SkillLibrary) -> str:
    """Which skills are not served because the scanner found a threat in them (docs/mcp.md)."""
    if not library.threats:
        return ""
    names = ", ".join(html.escape(folder.name) for folder, _ in library.threats[:5])
    more = f" and {len(library.threats) - 5:,} more" if len(library.threats) > 5 else ""
    return (f"<p>Not served, for a threat the scanner found in them (high or above): {names}{more}. "
            "<code>studio scan FOLDER</code> shows what it found.</p>")
