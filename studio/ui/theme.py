"""Following the system's light or dark palette, and the colours that depend on it."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from studio.paths import APP_ICON_SIZES, RESOURCES_DIR, app_icon
from studio.settings import EditorFont

STYLE_SHEET = RESOURCES_DIR / "style" / "studio.qss"
ICONS_DIR = RESOURCES_DIR / "icons"


def apply_style(app: QApplication) -> None:
    """Fusion everywhere (it follows the system's colour scheme) plus our small style sheet."""
    app.setStyle("Fusion")
    try:
        sheet = STYLE_SHEET.read_text(encoding="utf-8")
    except OSError:
        sheet = ""
    # Style sheets resolve relative urls against the working directory, not the sheet's folder.
    app.setStyleSheet(sheet.replace("{icons}", ICONS_DIR.as_posix()))


def window_icon() -> QIcon:
    """The app's icon at each size it is drawn in (PNGs: no image plugin is needed to read them)."""
    icon = QIcon()
    for size in APP_ICON_SIZES:
        icon.addFile(str(app_icon(size)), QSize(size, size))
    return icon


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette if palette is not None else QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def editor_font(setting: EditorFont) -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if setting.family:
        font.setFamily(setting.family)
    font.setPointSize(setting.size)
    font.setStyleHint(QFont.StyleHint.Monospace)
    return font


def tone(light: str, dark: str) -> QColor:
    """The colour to use in the current palette: `light` on light backgrounds, `dark` on dark."""
    return QColor(dark if is_dark() else light)
