"""Starting the studio: the QApplication, the qasync loop, and the one coroutine that owns them.

`run_app` is what `studio gui PATH...` calls. When a studio window already runs for this user, it
hands the paths to that window and returns. Otherwise `main()` shows the window at once, starts
the scan, offers back unsaved edits left by a crash, opens what later `studio PATH` calls hand
over, and returns when the window has closed, after cancelling its tasks.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

import httpx
from PySide6.QtWidgets import QApplication, QMessageBox

from studio import __version__
from studio.paths import cache_dir, log_file
from studio.settings import SettingsStore
from studio.skills import SKILL_FILE, skill_file_in
from studio.skills.install import scaffold
from studio.skills.scan import env_roots
from studio.ui.chat.asyncgens import AsyncGenHooks
from studio.ui.instance import InstanceServer, hand_over
from studio.ui.mainwindow import MainWindow
from studio.ui.platform_check import explained_platform_failure
from studio.ui.theme import apply_style, window_icon

log = logging.getLogger("studio.ui")

SCAN_CACHE_FILE = "library-cache.marshal"
LOG_BYTES = 2_000_000


def configure_logging(log_file: Path) -> Path | None:
    """Send the window's log (every HTTP request among it) to `log_file`, and only warnings and
    errors to the terminal that started it. Returns the log file, None when it cannot be written
    (then the terminal gets the warning saying so)."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    terminal = logging.StreamHandler()
    terminal.setLevel(logging.WARNING)
    terminal.setFormatter(logging.Formatter("studio: %(levelname)s %(name)s: %(message)s"))
    root.addHandler(terminal)
    try:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(log_file, maxBytes=LOG_BYTES, backupCount=2,
                                      encoding="utf-8")
    except OSError as exc:
        log.warning("the log cannot be written to %s (%s); only warnings and errors are shown "
                    "here", log_file, exc)
        return None
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    return log_file


_open_reports: set[QMessageBox] = set()


def install_excepthook() -> None:
    """Log every uncaught exception (also from async slots) and tell the user, without a crash."""

    def hook(kind: type[BaseException], error: BaseException,
             trace: TracebackType | None) -> None:
        log.error("uncaught exception", exc_info=(kind, error, trace))
        details = "".join(traceback.format_exception(kind, error, trace))
        if QApplication.instance() is None:
            sys.__excepthook__(kind, error, trace)
            return
        box = QMessageBox(QMessageBox.Icon.Critical, "Something went wrong",
                          f"{kind.__name__}: {error}")
        box.setInformativeText("The studio keeps running and your edits are kept. If this "
                               "happens again, please report it with the details below.")
        box.setDetailedText(details)
        _open_reports.add(box)
        box.finished.connect(lambda _result: _open_reports.discard(box))
        box.open()

    sys.excepthook = hook


def _loop_exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
    error = context.get("exception")
    if isinstance(error, BaseException):
        sys.excepthook(type(error), error, error.__traceback__)
    else:
        log.error("asyncio: %s", context.get("message"))


def split_paths(paths: list[str]) -> tuple[list[Path], list[Path]]:
    """(roots, skills to open): a skill folder or a SKILL.md is its own root and opens at once."""
    roots: list[Path] = []
    to_open: list[Path] = []
    for text in paths:
        path = Path(text).expanduser().resolve()
        if path.is_file() and skill_file_in([path.name]) is not None:
            path = path.parent
            to_open.append(path)
        elif path.is_dir() and any((path / name).is_file()
                                   for name in (SKILL_FILE, SKILL_FILE.lower())):
            to_open.append(path)
        if path not in roots:
            roots.append(path)
    return roots, to_open


def startup_roots(paths: list[str]) -> tuple[list[Path], list[Path]]:
    """(roots, skills to open) of a new window: the command line's (`split_paths`), then the
    folders STUDIO_SKILLS lists that exist; like the command line's, they are not saved in the
    settings."""
    roots, to_open = split_paths(paths)
    for path in env_roots():
        resolved = path.resolve()
        if resolved.is_dir() and resolved not in roots:
            roots.append(resolved)
    return roots, to_open


def open_paths(window: MainWindow, paths: list[str]) -> None:
    """Open what a later `studio PATH` call handed over: its roots for this session (as the
    command line's), its skills in tabs; then bring the window to the front."""
    roots, to_open = split_paths(paths)
    new = [root for root in roots if window.library.root(root) is None]
    window.roots.session_roots.extend(new)
    window.roots.scan_and_watch(new)
    for directory in to_open:
        window.editors.open_skill(directory)
    if window.isMinimized():
        window.showNormal()
    window.raise_()
    window.activateWindow()


def smoke_test(app: QApplication, window: MainWindow) -> int:
    """`studio gui --smoke-test`: the window opened with what an install must ship (its icon, its
    style sheet and the skill template), said on stdout; 0 when all is there."""
    checks = {
        "window shown": window.isVisible(),
        "window icon": not window.windowIcon().isNull(),
        "style sheet": bool(app.styleSheet()),
        "skill template": scaffold.TEMPLATE.is_file(),
    }
    for name, passed in checks.items():
        print(f"{name}: {'ok' if passed else 'MISSING'}")
    return 0 if all(checks.values()) else 1


async def main(app: QApplication, paths: list[str], settings_path: Path | None = None, *,
               instance: InstanceServer | None = None, smoke: bool = False) -> int:
    """Own the window's life: show it, work until it closes, then cancel what is left."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(_loop_exception_handler)
    # Closing the last window would quit Qt's event loop, and with it qasync's, while this coroutine
    # is still closing connections and waiting for cancelled tasks; main ends the app, not Qt.
    app.setQuitOnLastWindowClosed(False)
    roots, to_open = startup_roots(paths)
    store = SettingsStore(settings_path)
    window = MainWindow(store, cache_path=cache_dir() / SCAN_CACHE_FILE, session_roots=roots)
    closed: asyncio.Future[None] = loop.create_future()
    window.closed.connect(lambda: None if closed.done() else closed.set_result(None))
    asyncgens = AsyncGenHooks(loop)
    asyncgens.install()
    http = httpx.AsyncClient()
    window.chat.pane.model_bar.attach(http)
    window.show()
    window.start()
    if instance is not None:
        instance.paths_received.connect(lambda handed: open_paths(window, handed))
    try:
        if smoke:
            return smoke_test(app, window)
        await window.recovery.restore_autosaves()
        window.editors.reopen([Path(text) for text in window.settings.open_tabs])
        for directory in to_open:
            window.editors.open_skill(directory)
        await closed
    finally:
        if instance is not None:
            instance.close()
        window.loader.stop()
        await window.tasks.close()
        await window.chat.pane.shutdown()
        await window.chat.pane.tasks.close()
        await http.aclose()
        await asyncgens.shutdown()
        window.deleteLater()
    return 0


def run_app(paths: list[str], smoke: bool = False) -> int:
    """Open the studio window on the given roots (folders, zips, skills), or hand them to the
    window already running; the exit code. `smoke` opens the window, reports what it found
    (`smoke_test`) and closes it."""
    import qasync

    from studio.ui.qtcheck import problem

    configure_logging(log_file())
    if sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or os.environ.get("QT_QPA_PLATFORM")):
        print("studio: there is no display to open the window on (neither DISPLAY nor "
              "WAYLAND_DISPLAY is set). Run it in a desktop session, or use the commands that "
              "need none: studio validate, studio fix, studio new.", file=sys.stderr)
        return 1
    with explained_platform_failure():
        app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    broken = problem()
    if broken is not None:
        print(f"studio: {broken}", file=sys.stderr)
        return 1
    instance = None
    if not smoke:
        handed = hand_over(paths)
        if handed:
            print("studio: opened in the running studio window"
                  + (f": {', '.join(paths)}" if paths else ""))
            return 0
        if handed is False:
            print("studio: a studio window is running but did not answer; close it (or end its "
                  "process) and try again.", file=sys.stderr)
            return 1
        instance = InstanceServer()
        instance.listen()
    app.setApplicationName("Skill Studio")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("skill-studio")
    app.setDesktopFileName("skill-studio")
    app.setWindowIcon(window_icon())
    apply_style(app)
    install_excepthook()
    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        return runner.run(main(app, paths, instance=instance, smoke=smoke))
