"""Shared test set-up: Qt offscreen, and a scratch home so no test touches the real one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")


@pytest.fixture(autouse=True)
def scratch_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point HOME, the XDG folders and the app's own folders at a fresh temp dir for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("STUDIO_CONFIG_DIR", "studio-config"),
        ("STUDIO_DATA_DIR", "studio-data"),
        ("STUDIO_CACHE_DIR", "studio-cache"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    yield home
