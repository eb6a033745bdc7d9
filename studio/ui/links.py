"""Opening a link from the window's text (the manual, a model's answer) in the user's browser.

Only `http`, `https` and `mailto` links are opened: the desktop hands any other scheme (`file:`,
`ssh:`, `vscode:`, a custom handler) to whatever program claims it, and a model's answer or a
page decides what its links say. When the desktop has no program for the link (no browser, no
`xdg-open`), `open_link_or_say` says so and offers the address to copy, rather than nothing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget

OPENED_SCHEMES = frozenset({"http", "https", "mailto"})


def open_link(url: QUrl) -> bool:
    """Open `url` in the browser or mail program when its scheme is one above; whether it was."""
    if url.scheme().lower() not in OPENED_SCHEMES:
        return False
    return bool(QDesktopServices.openUrl(url))


def open_link_or_say(url: QUrl, parent: QWidget) -> QMessageBox | None:
    """Open `url` as `open_link` does; when it is not opened, a message (returned) says why and
    offers the address to copy."""
    if open_link(url):
        return None
    address = url.toString()
    if url.scheme().lower() in OPENED_SCHEMES:
        text = (f"No web browser or mail program could be started for {address}.\n\nCopy the "
                "address into a browser. On Linux, installing xdg-utils (xdg-open) and a browser "
                "lets Skill Studio open links itself.")
    else:
        text = (f"{address} was not opened: the studio opens only web (http, https) and mail "
                "links, since any other kind would start whatever program claims it.")
    box = QMessageBox(QMessageBox.Icon.Information, "Link not opened", text,
                      QMessageBox.StandardButton.Close, parent)
    box.setObjectName("linkNotOpened")
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    copy = box.addButton("Copy Address", QMessageBox.ButtonRole.ActionRole)
    # An action button closes the box too: the address is on the clipboard by then.
    copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(address))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
