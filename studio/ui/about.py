"""Help ▸ About: which studio this is, on which Qt and Python, where it keeps its files, and a
button that opens the folder of its log (what to attach to a bug report)."""

from __future__ import annotations

import html
import sys

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from studio import __version__
from studio.paths import cache_dir, config_dir, data_dir, log_file

OPEN_LOGS = "Open Log Folder"


def about_text() -> str:
    """The About box's text (rich text: the folders can be selected and copied)."""
    rows = [
        ("Version", __version__),
        ("Qt", f"{qVersion()} (PySide6 {PYSIDE_VERSION})"),
        ("Python", sys.version.split()[0]),
        ("Settings", str(config_dir())),
        ("Data", str(data_dir())),
        ("Cache", str(cache_dir())),
        ("Log", str(log_file())),
    ]
    cells = "".join(f"<tr><td><b>{name}</b>&nbsp;&nbsp;</td><td>{html.escape(value)}</td></tr>"
                    for name, value in rows)
    return ("<p><b>Skill Studio</b>: browse, author, validate and try Agent Skills with local "
            f"models.</p><table>{cells}</table>")


def open_log_folder() -> bool:
    folder = log_file().parent
    folder.mkdir(parents=True, exist_ok=True)
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def show_about(parent: QWidget) -> QMessageBox:
    box = QMessageBox(parent)
    box.setWindowTitle("About Skill Studio")
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text())
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    logs = box.addButton(OPEN_LOGS, QMessageBox.ButtonRole.ActionRole)
    logs.setToolTip(f"Open {log_file().parent} in the file manager")
    logs.clicked.connect(open_log_folder)
    box.addButton(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
