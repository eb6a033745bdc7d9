"""Where the app keeps its files: config, data, cache, and the shipped resources.

Every location honours an environment override first so tests and scripts can point the app at a
scratch folder without touching the user's home.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "skill-studio"

RESOURCES_DIR = Path(__file__).resolve().parent.parent / "resources"


def config_dir() -> Path:
    return Path(os.environ.get("STUDIO_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    return Path(os.environ.get("STUDIO_DATA_DIR") or platformdirs.user_data_dir(APP_NAME))


def cache_dir() -> Path:
    return Path(os.environ.get("STUDIO_CACHE_DIR") or platformdirs.user_cache_dir(APP_NAME))
