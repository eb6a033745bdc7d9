"""When Qt's platform plugin (xcb, wayland...) cannot load: which libraries it looked for.

Qt ends the process on that failure with a generic "Could not load the Qt platform plugin" and
names no library. While the application object is made, Qt's messages come here; on that fatal
one the studio asks the dynamic loader (`ldd` on the plugin) and Qt itself (a child run with
`QT_DEBUG_PLUGINS=1`) what was missing, says so with the packages to install, and exits with 1.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QMessageLogContext, QtMsgType, qInstallMessageHandler

EXIT_NO_PLATFORM = 1
PROBE_TIMEOUT = 30.0
_FATAL = re.compile(r'Could not (?:load|find) the Qt platform plugin "(?P<name>[^"]+)"')
_NOT_FOUND = re.compile(r"^\s*(?P<lib>\S+) => not found", re.M)
_CANNOT_OPEN = re.compile(r"(?P<lib>[\w.+-]+\.so(?:\.\d+)*): cannot open shared object file")
_SONAME = re.compile(r"^(?P<stem>lib[\w.+-]*?)\.so\.(?P<major>\d+)")
_PROBE = "from PySide6.QtGui import QGuiApplication; QGuiApplication([])"


def plugin_files(platform: str) -> list[Path]:
    """The files Qt would load for `platform`: in QT_QPA_PLATFORM_PLUGIN_PATH, then its own."""
    folders = [Path(part) for part in os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep)
               if part]
    folders.append(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms")
    names = (f"libq{platform}.so", f"qt{platform}.dll", f"libq{platform}.dylib")
    return [folder / name for folder in folders for name in names if (folder / name).is_file()]


def ldd_missing(plugin: Path) -> list[str]:
    """The libraries the dynamic loader cannot find for `plugin` (empty without `ldd`)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    try:
        result = subprocess.run([ldd, str(plugin)], capture_output=True, text=True,
                                timeout=PROBE_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return list(dict.fromkeys(match["lib"] for match in _NOT_FOUND.finditer(result.stdout)))


def debug_output(platform: str) -> str:
    """What Qt says while loading `platform` with QT_DEBUG_PLUGINS=1, in a child process."""
    env = dict(os.environ, QT_DEBUG_PLUGINS="1", QT_QPA_PLATFORM=platform)
    try:
        result = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                                timeout=PROBE_TIMEOUT, env=env, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return result.stderr


def debian_package(library: str) -> str | None:
    """The Debian or Ubuntu package that ships `library` by the distributions' naming rule
    (libxcb-icccm.so.4 -> libxcb-icccm4, libxkbcommon-x11.so.0 -> libxkbcommon-x11-0); None for
    Qt's own libraries, which come with PySide6."""
    match = _SONAME.match(library)
    if match is None or library.startswith("libQt"):
        return None
    stem, major = match["stem"].lower(), match["major"]
    return f"{stem}-{major}" if stem[-1].isdigit() else f"{stem}{major}"


def explain(platform: str, qt_message: str) -> str:
    """The studio's message for a platform plugin that did not load: the libraries missing."""
    files = plugin_files(platform)
    missing: list[str] = []
    for plugin in files:
        missing += ldd_missing(plugin)
    debug = debug_output(platform)
    missing += [match["lib"] for match in _CANNOT_OPEN.finditer(debug)]
    missing = list(dict.fromkeys(missing))
    where = f" ({files[0]})" if files else ""
    if missing:
        packages = [package for lib in missing if (package := debian_package(lib))]
        text = (f"studio: the window cannot open: Qt's {platform!r} platform plugin{where} needs "
                f"libraries this system lacks: {', '.join(missing)}.")
        if packages:
            text += f" On Debian or Ubuntu: sudo apt install {' '.join(dict.fromkeys(packages))}"
        return text + "\nThe other commands (studio validate, fix, new, ...) work without them."
    said = [line.strip() for line in debug.splitlines() if platform in line and line.strip()][-6:]
    return (f"studio: the window cannot open: Qt's {platform!r} platform plugin{where} did not "
            f"load, yet no library it needs is missing. Qt said:\n{qt_message.strip()}\n"
            + ("With QT_DEBUG_PLUGINS=1 it says:\n  " + "\n  ".join(said) + "\n" if said else "")
            + "Try again; if it keeps failing, run `QT_DEBUG_PLUGINS=1 studio` and report its output.")


@contextmanager
def explained_platform_failure(exit: Callable[[int], object] = os._exit) -> Iterator[None]:
    """While the application object is made: Qt's messages go to stderr as usual, and its fatal
    "no Qt platform plugin could be initialized" becomes `explain`'s message and exit code 1 (Qt
    aborts right after its message handler returns, so the exit cannot wait)."""
    said: list[str] = []

    def handler(kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if kind == QtMsgType.QtFatalMsg and "platform plugin" in message:
            named = [match["name"] for line in said if (match := _FATAL.search(line))]
            platform = (named or [os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] or "xcb"])[-1]
            print(explain(platform, "\n".join([*said, message])), file=sys.stderr, flush=True)
            exit(EXIT_NO_PLATFORM)
            return
        said.append(message)
        print(message, file=sys.stderr, flush=True)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)
