"""Every dialog fits a 1280x720 screen with its buttons on it (a body taller than that scrolls):
each is opened in a process whose offscreen screen is 1280x720."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QDialog

import studio.ui
from studio.ui.fit import TITLE_BAR

ROOT = Path(__file__).resolve().parents[2]
SCREEN = (1280, 720)


def _dialog_classes() -> set[str]:
    found = set()
    # Every dialog of the window's features, wherever its feature keeps it.
    for module_info in pkgutil.walk_packages(studio.ui.__path__, "studio.ui."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, QDialog)
                    and value.__module__ == module.__name__ and not name.startswith("_")):
                found.add(name)
    return found


def test_every_dialog_fits_a_1280x720_screen_with_its_buttons_on_it(tmp_path: Path) -> None:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "small", "x": 0, "y": 0, "width": SCREEN[0], "height": SCREEN[1],
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    environment = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
                       STUDIO_CONFIG_DIR=str(tmp_path / "config"),
                       STUDIO_DATA_DIR=str(tmp_path / "data"),
                       STUDIO_CACHE_DIR=str(tmp_path / "cache"), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "tests.ui.dialog_fit_probe", str(tmp_path)],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["screen"] == list(SCREEN)
    assert set(report["dialogs"]) == _dialog_classes()
    for name, shown in report["dialogs"].items():
        width, height = shown["size"]
        assert width <= SCREEN[0] and height <= SCREEN[1] - TITLE_BAR, (name, shown)
        assert shown["outside"] == [], (name, shown)
