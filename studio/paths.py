"""Where the app keeps its files: config, data, cache, and the shipped resources.

Every location honours an environment override first so tests and scripts can point the app at a
scratch folder without touching the user's home.
"""

from __future__ import annotations

import logging
import os
import stat
from importlib.resources import files
from pathlib import Path

import platformdirs

from studio.errors import StudioError

log = logging.getLogger(__name__)

APP_NAME = "skill-studio"


def _resources_folder() -> Path:
    """The icons, style sheets and templates: `studio/resources` in a wheel, where the build maps
    the checkout's resources/ onto that package; `resources/` beside the package in a checkout or
    an editable install. Not `files("studio.resources")`: an editable install maps that name onto
    the checkout it was made from, so another checkout run through PYTHONPATH would read the
    first one's files. As a path: pip and pipx unpack wheels, and Qt reads icons and style sheets
    by file name."""
    package = Path(str(files("studio")))
    inside = package / "resources"
    return inside if (inside / "app").is_dir() else package.parent / "resources"


RESOURCES_DIR = _resources_folder()
APP_ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
"""The sizes of the app icon's PNGs (resources/app/skill-studio-SIZE.png); the SVG is beside them."""


def app_icon(size: int | None = None) -> Path:
    """The app icon: its PNG of `size` pixels, or the scalable SVG."""
    name = "skill-studio.svg" if size is None else f"skill-studio-{size}.png"
    return RESOURCES_DIR / "app" / name


def manual_folder() -> Path | None:
    """The manual's pages (docs/*.md and their screenshots): `studio/manual` in a wheel, where
    setup.py maps docs/ at build time; `docs/` beside the package when run from a checkout or an
    editable install. None when neither is there."""
    for folder in (Path(str(files("studio") / "manual")), Path(str(files("studio"))).parent / "docs"):
        if (folder / "editor.md").is_file():
            return folder
    return None


def config_dir() -> Path:
    return Path(os.environ.get("STUDIO_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    return Path(os.environ.get("STUDIO_DATA_DIR") or platformdirs.user_data_dir(APP_NAME))


def cache_dir() -> Path:
    return Path(os.environ.get("STUDIO_CACHE_DIR") or platformdirs.user_cache_dir(APP_NAME))


def log_file() -> Path:
    """The window's log (rotated beside itself: studio.log.1, studio.log.2)."""
    return data_dir() / "studio.log"


class PrivateFolderError(StudioError):
    """The folder for the studio's sockets and secrets is not private to this user: what is
    wrong with it and what to do."""


def runtime_dir() -> Path:
    """A folder only this user can enter, for the window's socket and the MCP server's token:
    `$STUDIO_RUNTIME_DIR`; else `skill-studio` in `$XDG_RUNTIME_DIR` when that is the user's own
    folder of mode 0700 (sudo can hand another user's on); else `run` in the data folder. The
    folder is made 0700 when missing, and checked every time (owner, mode, not a link), so a
    folder another user made or can enter is refused, never used.

    Raises:
        PrivateFolderError: the folder cannot be made, or is not private.
    """
    override = os.environ.get("STUDIO_RUNTIME_DIR")
    if override:
        return _private(Path(override))
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg:
        try:
            _check_private(Path(xdg))
        except PrivateFolderError as exc:
            log.warning("not using XDG_RUNTIME_DIR: %s", exc)
        else:
            return _private(Path(xdg) / APP_NAME)
    return _private(data_dir() / "run")


def _private(folder: Path) -> Path:
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise PrivateFolderError(f"cannot make {folder}: {exc.strerror or exc}") from None
    _check_private(folder)
    return folder


def _check_private(folder: Path) -> None:
    if os.name == "nt":  # a folder in the user's profile; no POSIX owner or mode to check
        return
    try:
        info = os.lstat(folder)
    except OSError as exc:
        raise PrivateFolderError(f"cannot read {folder}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise PrivateFolderError(f"{folder} is a symbolic link; remove it and start again "
                                 "(the studio makes a private folder of its own)")
    if not stat.S_ISDIR(info.st_mode):
        raise PrivateFolderError(f"{folder} is not a folder; remove it and start again")
    if info.st_uid != os.geteuid():
        raise PrivateFolderError(f"{folder} belongs to user {info.st_uid}, not to you (user "
                                 f"{os.geteuid()}); remove it, or set STUDIO_RUNTIME_DIR to a "
                                 "folder of your own")
    if info.st_mode & 0o077:
        raise PrivateFolderError(f"{folder} can be entered by other users (mode "
                                 f"{stat.S_IMODE(info.st_mode):04o}); make it private with "
                                 f"`chmod 700 {folder}`")
