"""Checks any view can be given: every control in Qt's accessibility tree has a name a screen
reader can say, and every control can be reached with Tab. Generic on purpose: a control added
later to a view is checked without the test naming it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTextEdit,
    QWidget,
)

CONTROLS = (QAbstractButton, QAbstractItemView, QAbstractSlider, QAbstractSpinBox, QComboBox,
            QLineEdit, QPlainTextEdit, QTextEdit)


def _controls(root: QWidget) -> list[QWidget]:
    """The controls a user can work shown in `root`: visible, enabled, of an interactive kind.
    Not the parts of another control, worked through it: the line edit inside a combo box or a
    spin box, a view's headers, scroll bars and corner button (Qt's own, named `qt_...`)."""
    return [w for w in [root, *root.findChildren(QWidget)]
            if isinstance(w, CONTROLS) and w.isVisible() and w.isEnabled()
            and not isinstance(w, (QHeaderView, QScrollBar))
            and not w.objectName().startswith("qt_")
            and not isinstance(w.parentWidget(), (QComboBox, QAbstractSpinBox))]


def _walk(interface: QAccessibleInterface | None, seen: dict[int, str]) -> None:
    if interface is None or not interface.isValid():
        return
    widget = interface.object()
    if isinstance(widget, QWidget):
        seen[id(widget)] = interface.text(QAccessible.Text.Name).strip()
        if isinstance(widget, QAbstractItemView):
            return  # its rows and cells are named by their data
    for index in range(interface.childCount()):
        _walk(interface.child(index), seen)


def unnamed_controls(root: QWidget) -> list[str]:
    """The controls in `root`'s accessibility tree with no name, or missing from the tree, each
    described by its class, object name and tooltip (to find it)."""
    names: dict[int, str] = {}
    _walk(QAccessible.queryAccessibleInterface(root), names)
    return [f"{type(w).__name__} {w.objectName()!r} {w.toolTip()!r}"
            for w in _controls(root) if not names.get(id(w))]


def unreachable_controls(root: QWidget) -> list[str]:
    """The controls of `root` that Tab never gives the focus to: going once round the window's
    focus chain (Tab's order), the widgets Tab stops at (visible, enabled, taking the focus by
    Tab); a control is reached when it, or the widget it hands its focus to, is among them."""
    window = root.window()
    stops: set[int] = set()
    widget = window.nextInFocusChain()
    for _ in range(len(window.findChildren(QWidget)) + 1):
        if (widget.isVisible() and widget.isEnabled()
                and widget.focusPolicy() & Qt.FocusPolicy.TabFocus == Qt.FocusPolicy.TabFocus):
            stops.add(id(widget))
        widget = widget.nextInFocusChain()
        if widget is window:
            break
    return [f"{type(w).__name__} {w.objectName()!r} {w.toolTip()!r}"
            for w in _controls(root) if id(w.focusProxy() or w) not in stops]
