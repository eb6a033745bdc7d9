"""Where the app keeps its files: config, data, cache, and the shipped resources.

Every location honours an environment override first so tests and scripts can point the app at a
scratch folder without touching the user's home.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

import platformdirs

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
