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


def tab_stops(window: QWidget) -> list[QWidget]:
    """The widgets Tab stops at in `window`, once round, in Tab's order: the window's focus moved on
    as Tab moves it (`focusNextChild`, Qt's own step: visible, enabled, taking the focus by Tab,
    a focus proxy followed), read back with `focusWidget()`; the focus is put back after.

    Not `nextInFocusChain()`: PySide makes the widget it returns a child of the widget it was
    asked of on the Python side, so walking the chain leaves the window's wrapper a child of its
    last control, a cycle the garbage collector frees while Qt still holds the widgets (a crash
    in a later collection). `focusNextChild` and `focusWidget` change no such ownership."""
    before = window.focusWidget()
    stops: list[QWidget] = []
    for _ in range(len(window.findChildren(QWidget)) + 1):
        window.focusNextChild()  # type: ignore[attr-defined]  # protected: a window made in Python
        current = window.focusWidget()
        if current is None or any(current is stop for stop in stops):
            break
        stops.append(current)
    if before is not None:
        before.setFocus(Qt.FocusReason.OtherFocusReason)
    return stops


def next_tab_stop(widget: QWidget) -> QWidget | None:
    """Where Tab goes from `widget` (see `tab_stops`)."""
    window = widget.window()
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    window.focusNextChild()  # type: ignore[attr-defined]
    return window.focusWidget()


def _takes_focus_at(widget: QWidget) -> QWidget:
    """The widget that gets the focus when `widget` is given it: itself, or its focus proxy
    (found by giving it the focus: `focusProxy()` has the ownership quirk of `nextInFocusChain`)."""
    window = widget.window()
    before = window.focusWidget()
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    landed = window.focusWidget() or widget
    if before is not None:
        before.setFocus(Qt.FocusReason.OtherFocusReason)
    return landed


def unreachable_controls(root: QWidget) -> list[str]:
    """The controls of `root` that Tab never gives the focus to: going once round the window's
    Tab order (`tab_stops`), a control is reached when it, or the widget it hands its focus to,
    is among the stops."""
    stops = tab_stops(root.window())
    return [f"{type(w).__name__} {w.objectName()!r} {w.toolTip()!r}"
            for w in _controls(root) if not any(_takes_focus_at(w) is stop for stop in stops)]
