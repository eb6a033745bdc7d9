"""The Qt application the GUI benchmarks measure: offscreen, styled as the app is, with the app's
configuration, data and cache folders in a scratch folder (never the user's)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def offscreen_app(scratch: Path) -> Any:
    """The QApplication, made if there is none yet; call it before the studio's own imports."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for variable, sub in (("STUDIO_CONFIG_DIR", "config"), ("STUDIO_DATA_DIR", "data"),
                          ("STUDIO_CACHE_DIR", "cache")):
        os.environ[variable] = str(scratch / sub)

    from PySide6.QtWidgets import QApplication

    from studio.ui.theme import apply_style

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    apply_style(app)
    return app
