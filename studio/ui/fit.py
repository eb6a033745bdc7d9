"""Sizing a dialog whose body scrolls: tall enough to show it all where the screen allows, never
taller than the screen (at 1280x720 the Settings dialog's Save button was off-screen)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QScrollArea, QStyle, QWidget

# Room for the title bar the window manager adds above the dialog.
TITLE_BAR = 40


def fit_to_screen(dialog: QWidget, scroll: QScrollArea) -> None:
    """Resize `dialog`, whose `scroll` holds its body, to show the whole body if the screen is
    tall enough, else as tall as the screen allows with the body scrolling."""
    body = scroll.widget()
    assert body is not None
    screen = (dialog.parentWidget() or dialog).screen() or QGuiApplication.primaryScreen()
    available = screen.availableGeometry()
    hint = dialog.sizeHint()
    chrome = hint.height() - scroll.sizeHint().height()
    height = chrome + body.sizeHint().height() + 2 * scroll.frameWidth()
    bar = dialog.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    width = max(hint.width(), body.sizeHint().width() + bar + 2 * scroll.frameWidth()
                + hint.width() - scroll.sizeHint().width())
    dialog.resize(min(width, available.width()), min(height, available.height() - TITLE_BAR))


def resize_within_screen(dialog: QWidget, width: int, height: int) -> None:
    """Give `dialog` the size it wants, or as much of it as the screen it opens on has."""
    anchor = dialog.parentWidget() or dialog
    screen = anchor.screen() or QGuiApplication.primaryScreen()
    available = screen.availableGeometry()
    dialog.resize(min(width, available.width()), min(height, available.height() - TITLE_BAR))
