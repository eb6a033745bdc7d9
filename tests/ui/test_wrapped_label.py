"""A wrapped label keeps room for every line of its text when its window gets narrower."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from studio.ui.wrapped_label import WrappedLabel

TEXT = ("Runs code: python3 runs scripts/convert.py, code that can do anything the user can, "
        "in the skill's folder, with the network cut off and the home folder hidden.")


def _window(qtbot: QtBot, label: QLabel) -> QWidget:
    window = QWidget()
    qtbot.addWidget(window)
    QVBoxLayout(window).addWidget(label)
    window.resize(900, 10)
    window.show()
    qtbot.waitExposed(window)
    window.resize(220, window.height())
    return window


def test_a_narrower_window_grows_to_every_line(qtbot: QtBot) -> None:
    label = WrappedLabel(TEXT)
    window = _window(qtbot, label)
    qtbot.waitUntil(lambda: label.width() <= 220)
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))
    assert label.heightForWidth(label.width()) > 3 * label.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: window.height() >= label.height())


def test_a_plain_wrapped_label_would_be_cut_off(qtbot: QtBot) -> None:
    """What the label above is for: the same window with Qt's own label keeps its height."""
    label = QLabel(TEXT)
    label.setWordWrap(True)
    window = _window(qtbot, label)
    qtbot.waitUntil(lambda: label.width() <= 220)
    assert window.height() < label.heightForWidth(label.width())
