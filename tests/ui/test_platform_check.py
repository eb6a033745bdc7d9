"""The first start on a machine lacking a library Qt's platform plugin needs: the studio names the
libraries and the packages that ship them, instead of Qt's generic "could not load" text."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLibraryInfo

from studio.ui.platform_check import debian_package

CHECKOUT = Path(__file__).resolve().parents[2]
REAL_PLUGIN = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"
ABSENT = b"libxcb-absent.so.0\0"


@pytest.mark.parametrize(("library", "package"), [
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libEGL.so.1", "libegl1"),
    ("libdbus-1.so.3", "libdbus-1-3"),
    ("libQt6XcbQpa.so.6", None),
    ("notalibrary", None),
])
def test_debian_packages_are_named_by_the_distribution_rule(library: str, package: str | None) -> None:
    assert debian_package(library) == package


def _plugin_lacking_a_library(folder: Path) -> Path:
    """A copy of Qt's xcb plugin that needs a library no system has (its libxcb-cursor renamed),
    beside a link to Qt's libraries where its run path looks for them."""
    data = REAL_PLUGIN.read_bytes()
    assert data.count(b"libxcb-cursor.so.0\0") == 1
    platforms = folder / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    (platforms / REAL_PLUGIN.name).write_bytes(data.replace(b"libxcb-cursor.so.0\0", ABSENT))
    (folder / "lib").symlink_to(REAL_PLUGIN.parents[2] / "lib")
    return platforms


@pytest.mark.skipif(not sys.platform.startswith("linux") or not REAL_PLUGIN.is_file(),
                    reason="Qt's xcb plugin is Linux's")
def test_a_platform_plugin_lacking_a_library_is_explained_by_name(tmp_path: Path) -> None:
    platforms = _plugin_lacking_a_library(tmp_path)
    env = {name: value for name, value in os.environ.items() if name != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=":99", QT_QPA_PLATFORM="xcb", QT_QPA_PLATFORM_PLUGIN_PATH=str(platforms),
               PYTHONPATH=str(CHECKOUT))
    result = subprocess.run([sys.executable, "-m", "studio", "gui"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 1, result.stderr
    said = result.stderr
    assert "studio: the window cannot open: Qt's 'xcb' platform plugin" in said, said
    assert "libxcb-absent.so.0" in said and "sudo apt install libxcb-absent0" in said, said
    assert "no Qt platform plugin could be initialized" not in said
    assert "Aborted" not in said and "core dumped" not in said
