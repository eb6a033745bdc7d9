"""One shot, in a process of its own (take.py starts it on its X server): the app's QApplication,
style and qasync loop, a window on fresh settings, the shot's scene (scenes.py), then the screen
grabbed into the PNG.

    python docs/shots/scene_run.py NAME OUTPUT.png SCRATCH_FOLDER
"""

from __future__ import annotations

import asyncio
import faulthandler
import shutil
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(CHECKOUT))

import httpx  # noqa: E402
import qasync  # noqa: E402
import yaml  # noqa: E402
from PySide6.QtGui import QColor, QPainter, QPalette, QPixmap  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialog  # noqa: E402
from shotlist import SHOTS  # noqa: E402

from studio.editing.recovery import RecoveryStore  # noqa: E402
from studio.llm import minilm  # noqa: E402
from studio.settings import SettingsStore  # noqa: E402
from studio.ui.chat.asyncgens import AsyncGenHooks  # noqa: E402
from studio.ui.mainwindow import MainWindow  # noqa: E402
from studio.ui.theme import apply_style  # noqa: E402
from tests.fakes.ollama import FakeOllama  # noqa: E402

WAIT_SECONDS = 60.0
# A scene that hangs (a nested event loop, a dialog nobody answers) prints where, then ends.
HANG_SECONDS = 280
# The default backend's address: the shots without a model show what a new user sees, so nothing
# may answer there while they are taken.
DEFAULT_OLLAMA = ("127.0.0.1", 11434)
SHADOW = 6


def _answering(address: tuple[str, int]) -> bool:
    try:
        socket.create_connection(address, timeout=1).close()
    except OSError:
        return False
    return True


class Stage:
    """What a scene works with: the scratch folder, the copy of the example skills, the fake
    Ollama (started on first use), the app's HTTP client and the window once made.

    Attributes:
        scratch: a temp folder that is removed after the shot.
        skills: the copy of the repository's skills/ in it.
        window: the main window, after `open_window`.
    """

    def __init__(self, scratch: Path, size: tuple[int, int]) -> None:
        self.scratch = scratch
        self.size = size
        self.skills = scratch / "skills"
        shutil.copytree(CHECKOUT / "skills", self.skills)
        self.http = httpx.AsyncClient()
        self.settings_file = scratch / "config" / "settings.yaml"
        self.fake: FakeOllama | None = None
        self.window: MainWindow | None = None

    def ollama(self, models: dict[str, list[str]], parameter_size: str = "8B") -> FakeOllama:
        """The fake Ollama serving `models`, and the settings that pick it and its first model."""
        server = FakeOllama(models)
        server.parameter_size = parameter_size
        server.start()
        self.fake = server
        self.write_settings({"backend": {"kind": "ollama", "url": server.url,
                                         "model": next(iter(models))}})
        return server

    def write_settings(self, values: dict[str, Any]) -> None:
        self.settings_file.parent.mkdir(parents=True, exist_ok=True)
        self.settings_file.write_text(yaml.safe_dump(values), encoding="utf-8")

    async def open_window(self, *roots: Path, ready: str = "ready") -> MainWindow:
        """The window as `studio gui ROOTS` opens it, filling the screen, once its scan is done
        and its model bar is in state `ready` (or "down", for no server)."""
        if not self.settings_file.exists() and _answering(DEFAULT_OLLAMA):
            raise SystemExit("a model server answers at http://127.0.0.1:11434; stop it while the "
                             "shots are taken, so they show a new user's window")
        window = MainWindow(SettingsStore(self.settings_file),
                            recovery=RecoveryStore(self.scratch / "recovery"),
                            cache_path=self.scratch / "library-cache.marshal",
                            session_roots=list(roots or (self.skills,)))
        self.window = window
        window.chat.pane.model_bar.attach(self.http)
        window.setGeometry(0, 0, *self.size)
        window.show()
        window.start()
        await self.until(lambda: not window.loader.busy, "the library's scan")
        bar = window.chat.pane.model_bar
        await self.until(lambda: bar.backend.state == ready, f"the model bar's {ready} state")
        return window

    async def until(self, condition: Callable[[], object], what: str,
                    seconds: float = WAIT_SECONDS) -> None:
        """Wait for `condition`, letting Qt and asyncio run; fail naming `what` after `seconds`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not condition():
            if loop.time() > deadline:
                raise TimeoutError(f"gave up waiting for {what}")
            await asyncio.sleep(0.05)

    async def settle(self) -> None:
        """Let layouts, repaints and queued signals finish before the grab (the loop runs Qt's
        events while this waits: a nested processEvents would re-enter running tasks)."""
        for _ in range(10):
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        for dialog in QApplication.topLevelWidgets():
            if isinstance(dialog, QDialog) and dialog.isVisible():
                dialog.reject()
        if self.window is not None:
            window = self.window
            window.loader.stop()
            await window.tasks.close()
            await window.chat.pane.shutdown()
            await window.chat.pane.tasks.close()
            window.close_without_asking()
        await self.http.aclose()
        if self.fake is not None:
            self.fake.stop()


def _frame_dialogs(picture: QPixmap) -> None:
    """Outline every open dialog, as a window manager's frame would: Xvfb runs none, and a
    frameless dialog melts into the window behind it."""
    painter = QPainter(picture)
    for dialog in QApplication.topLevelWidgets():
        if not (isinstance(dialog, QDialog) and dialog.isVisible()):
            continue
        area = dialog.frameGeometry()
        for step in range(1, SHADOW + 1):
            painter.setPen(QColor(0, 0, 0, 70 - step * 10))
            painter.drawRect(area.adjusted(-step, -step, step - 1, step - 1))
        painter.setPen(dialog.palette().color(QPalette.ColorRole.Dark))
        painter.drawRect(area.adjusted(-1, -1, 0, 0))
    painter.end()


async def shoot(name: str, output: Path, scratch: Path) -> None:
    from scenes import SCENES

    stage = Stage(scratch, SHOTS[name].size)
    scene: Callable[[Stage], Awaitable[None]] = SCENES[name]
    try:
        await scene(stage)
        await stage.settle()
        screen = QApplication.primaryScreen()
        picture = screen.grabWindow(0, 0, 0, *stage.size)
        _frame_dialogs(picture)
        if not picture.save(str(output), "PNG"):
            raise OSError(f"cannot write {output}")
    finally:
        await stage.close()


def main() -> int:
    name, output, scratch = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    # Search by meaning needs all-MiniLM-L6-v2 installed; a shot shows what every new user has.
    minilm.available = lambda: False
    app = QApplication([sys.argv[0]])
    app.setApplicationName("Skill Studio")
    apply_style(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    hooks = AsyncGenHooks(loop)
    hooks.install()
    with loop:
        loop.run_until_complete(shoot(name, output, scratch))
        loop.run_until_complete(hooks.shutdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
