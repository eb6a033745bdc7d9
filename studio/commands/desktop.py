"""`studio desktop install|uninstall`: the studio in the desktop's application menu (Linux).

Writes what the freedesktop.org specifications ask of an application installed for one user:
a desktop entry in $XDG_DATA_HOME/applications (Desktop Entry Specification 1.4) that opens the
folders and SKILL.md files passed to it, and the icon in the hicolor theme at several sizes plus
a scalable one (Icon Theme Specification). Uninstall removes exactly those files.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from studio import __version__
from studio.fsutil import atomic_write_bytes, atomic_write_text
from studio.paths import APP_ICON_SIZES, APP_NAME, app_icon

DESKTOP_FILE = f"{APP_NAME}.desktop"
# Folders (a library of skills, or one skill) and SKILL.md files.
MIME_TYPES = ("inode/directory", "text/markdown")
# The desktop's caches are refreshed when these tools exist; the entry works without them.
REFRESH_TIMEOUT = 20.0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "desktop", help="add the studio to (or remove it from) the desktop's application menu",
        description="Write (or remove) a desktop entry and icons under $XDG_DATA_HOME "
                    "(~/.local/share), so the studio appears in the application menu and opens the "
                    "folders and SKILL.md files given to it. Linux and other freedesktop desktops.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("install", help="write the desktop entry and the icons")
    actions.add_parser("uninstall", help="remove them")
    parser.set_defaults(handler=run)


def data_home() -> Path:
    configured = os.environ.get("XDG_DATA_HOME", "")
    # The specification: a relative path is invalid and is ignored.
    return Path(configured) if os.path.isabs(configured) else Path.home() / ".local" / "share"


def entry_path() -> Path:
    return data_home() / "applications" / DESKTOP_FILE


def icon_paths() -> dict[int | None, Path]:
    """Where each size of the icon goes (None: the scalable SVG)."""
    theme = data_home() / "icons" / "hicolor"
    paths: dict[int | None, Path] = {size: theme / f"{size}x{size}" / "apps" / f"{APP_NAME}.png"
                                     for size in APP_ICON_SIZES}
    paths[None] = theme / "scalable" / "apps" / f"{APP_NAME}.svg"
    return paths


def studio_command() -> list[str]:
    """How the desktop starts this studio: the `studio` script that is running, when it is one
    (pip's and pipx's launchers know their Python), else this Python with `-m studio`."""
    launcher = Path(sys.argv[0])
    if launcher.name == "studio" and launcher.is_file():
        return [str(launcher.resolve())]
    return [sys.executable, "-m", "studio"]


def _exec_argument(argument: str) -> str:
    """An argument quoted as the Exec key wants: in double quotes when it holds a reserved
    character, with `"`, `` ` ``, `$` and `\\` escaped; `%` doubled."""
    argument = argument.replace("%", "%%")
    if not any(char in argument for char in " \t\n\"'\\><~|&;$*?#()`"):
        return argument
    escaped = "".join("\\" + char if char in '"`$\\' else char for char in argument)
    return f'"{escaped}"'


def _escape_value(value: str) -> str:
    """A string value as the key file format wants it (backslash escapes); Exec adds its own."""
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def desktop_entry(command: list[str]) -> str:
    exec_line = " ".join(_exec_argument(part) for part in [*command, "gui"]) + " %F"
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        # The specification's version this entry follows: 1.4 (1.5 only added keys not used
        # here, and desktop-file-validate before 0.27 refuses it).
        "Version=1.4",
        "Name=Skill Studio",
        "GenericName=Agent Skills Editor",
        "Comment=Browse, author, validate and try Agent Skills with local models",
        f"Exec={_escape_value(exec_line)}",
        f"TryExec={_escape_value(command[0])}",
        f"Icon={APP_NAME}",
        "Terminal=false",
        "Categories=Development;Utility;TextEditor;",
        f"MimeType={';'.join(MIME_TYPES)};",
        "Keywords=skills;agent;SKILL.md;LLM;",
        "StartupNotify=true",
        f"StartupWMClass={APP_NAME}",
        f"X-Skill-Studio-Version={__version__}",
    ]
    return "\n".join(lines) + "\n"


def _refresh(*command: str) -> None:
    tool = shutil.which(command[0])
    if tool is None:
        return
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run([tool, *command[1:]], capture_output=True, timeout=REFRESH_TIMEOUT, check=False)


def install() -> list[Path]:
    """Write the icons, then the entry (a menu never shows an entry whose icon is missing)."""
    written = []
    for size, target in icon_paths().items():
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, app_icon(size).read_bytes(), durable=False)
        written.append(target)
    entry = entry_path()
    entry.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(entry, desktop_entry(studio_command()))
    written.append(entry)
    _refresh("update-desktop-database", "-q", str(entry.parent))
    # A newer theme folder tells icon caches to look again (no cache file of our own is made).
    os.utime(data_home() / "icons" / "hicolor")
    return written


def uninstall() -> list[Path]:
    """Remove the entry, then the icons; the folders stay (they are shared)."""
    removed = []
    for path in [entry_path(), *icon_paths().values()]:
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    _refresh("update-desktop-database", "-q", str(entry_path().parent))
    return removed


def run(args: argparse.Namespace) -> int:
    if sys.platform in ("darwin", "win32"):
        print("studio desktop: desktop entries are for Linux (freedesktop) desktops. On macOS and "
              "Windows, start the studio from a terminal with `studio` (or `studio PATH`).",
              file=sys.stderr)
        return 1
    try:
        if args.action == "install":
            written = install()
            print(f"installed {entry_path()} and the icon in {len(written) - 1} sizes under "
                  f"{data_home() / 'icons' / 'hicolor'}; Skill Studio is in the application menu "
                  f"and starts `{shlex.join(studio_command())} gui`")
            return 0
        removed = uninstall()
    except OSError as exc:
        print(f"studio desktop {args.action}: {exc}", file=sys.stderr)
        return 1
    if not removed:
        print(f"studio desktop uninstall: nothing to remove ({entry_path()} does not exist)")
        return 0
    print("removed " + ", ".join(str(path) for path in removed))
    return 0
