"""Opening a link from the window's text (the manual, a model's answer) in the user's browser.

Only `http`, `https` and `mailto` links are opened: the desktop hands any other scheme (`file:`,
`ssh:`, `vscode:`, a custom handler) to whatever program claims it, and a model's answer or a
page decides what its links say.
"""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

OPENED_SCHEMES = frozenset({"http", "https", "mailto"})


def open_link(url: QUrl) -> bool:
    """Open `url` in the browser or mail program when its scheme is one above; whether it was."""
    if url.scheme().lower() not in OPENED_SCHEMES:
        return False
    return bool(QDesktopServices.openUrl(url))
