"""Help ▸ About: which studio this is, on which Qt, and where it keeps its files."""

from __future__ import annotations

import html
import sys

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QMessageBox, QWidget

from studio import __version__
from studio.paths import cache_dir, config_dir, data_dir


def about_text() -> str:
    """The About box's text (rich text: the folders can be selected and copied)."""
    rows = [
        ("Version", __version__),
        ("Qt", f"{qVersion()} (PySide6 {PYSIDE_VERSION})"),
        ("Python", sys.version.split()[0]),
        ("Settings", str(config_dir())),
        ("Data", str(data_dir())),
        ("Cache", str(cache_dir())),
    ]
    cells = "".join(f"<tr><td><b>{name}</b>&nbsp;&nbsp;</td><td>{html.escape(value)}</td></tr>"
                    for name, value in rows)
    return ("<p><b>Skill Studio</b>: browse, author, validate and try Agent Skills with local "
            f"models.</p><table>{cells}</table>")


def show_about(parent: QWidget) -> QMessageBox:
    box = QMessageBox(parent)
    box.setWindowTitle("About Skill Studio")
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text())
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
