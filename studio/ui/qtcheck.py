"""Refusing to start on a PySide6 build that corrupts reference counts.

PySide6 6.12.0 on Python 3.11 returns `None` and `True` from bound calls without taking a
reference (harmless only where they are immortal, from Python 3.12); after a few thousand calls
the interpreter aborts with "deallocating None". A probe is more precise than a version list.
"""

from __future__ import annotations

import sys

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import QTimer

PROBE_CALLS = 64


def refcounts_are_sound() -> bool:
    timer = QTimer()
    before = sys.getrefcount(None)
    for _ in range(PROBE_CALLS):
        timer.setInterval(5)
    return sys.getrefcount(None) >= before


def problem() -> str | None:
    """What is wrong with this Qt binding, in words a user can act on; None when all is well."""
    if refcounts_are_sound():
        return None
    return (
        f"PySide6 {PYSIDE_VERSION} is broken on Python {sys.version.split()[0]}: it corrupts "
        "Python's reference counts and the window would crash within seconds. Install another "
        'version, e.g. `pip install "PySide6-Essentials<6.12"`, or use Python 3.12 or newer.'
    )
