"""Icons drawn with QPainter, so they stay sharp at any scale and need no image files."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

GREEN = QColor("#2e9d4f")
AMBER = QColor("#d99a00")
RED = QColor("#d23a3a")
GREY = QColor("#8a8f96")
BLUE = QColor("#3b7dd8")

STATUS_TOOLTIPS = {
    "valid": "Valid",
    "warnings": "Valid, with warnings",
    "errors": "Has errors: agents that follow the spec strictly will refuse it",
    "not-loadable": "Not loadable: no agent can load it as it is",
    "checking": "Being checked: its problems show once the scan has validated it",
}


def _canvas(size: int = 64) -> tuple[QPixmap, QPainter]:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    return pixmap, painter


def _finish(pixmap: QPixmap, painter: QPainter) -> QIcon:
    painter.end()
    return QIcon(pixmap)


def _check() -> QIcon:
    pixmap, painter = _canvas()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(GREEN)
    painter.drawEllipse(QRectF(4, 4, 56, 56))
    pen = QPen(QColor("white"), 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
               Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.drawPolyline(QPolygonF([QPointF(18, 33), QPointF(28, 43), QPointF(46, 22)]))
    return _finish(pixmap, painter)


def _triangle(color: QColor = AMBER) -> QIcon:
    pixmap, painter = _canvas()
    path = QPainterPath()
    path.moveTo(32, 5)
    path.lineTo(61, 57)
    path.lineTo(3, 57)
    path.closeSubpath()
    painter.setPen(QPen(color, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                        Qt.PenJoinStyle.RoundJoin))
    painter.setBrush(color)
    painter.drawPath(path)
    painter.setPen(QPen(QColor("white"), 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(QPointF(32, 22), QPointF(32, 38))
    painter.drawPoint(QPointF(32, 48))
    return _finish(pixmap, painter)


def _cross() -> QIcon:
    pixmap, painter = _canvas()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(RED)
    painter.drawEllipse(QRectF(4, 4, 56, 56))
    painter.setPen(QPen(QColor("white"), 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(QPointF(22, 22), QPointF(42, 42))
    painter.drawLine(QPointF(42, 22), QPointF(22, 42))
    return _finish(pixmap, painter)


def _slashed_circle() -> QIcon:
    pixmap, painter = _canvas()
    painter.setPen(QPen(GREY, 7))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(QRectF(8, 8, 48, 48))
    painter.drawLine(QPointF(16, 48), QPointF(48, 16))
    return _finish(pixmap, painter)


def _dotted_ring() -> QIcon:
    """A skill listed but not yet validated: a hollow ring of dots, like a clock face."""
    pixmap, painter = _canvas()
    painter.setPen(QPen(GREY, 7, Qt.PenStyle.DotLine, Qt.PenCapStyle.RoundCap))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(QRectF(8, 8, 48, 48))
    return _finish(pixmap, painter)


def _info() -> QIcon:
    pixmap, painter = _canvas()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(BLUE)
    painter.drawEllipse(QRectF(4, 4, 56, 56))
    painter.setPen(QPen(QColor("white"), 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(QPointF(32, 28), QPointF(32, 46))
    painter.drawPoint(QPointF(32, 17))
    return _finish(pixmap, painter)


@cache
def status_icon(status: str) -> QIcon:
    """The icon for a skill status: "valid", "warnings", "errors", "not-loadable" or
    "checking"."""
    painters = {"valid": _check, "warnings": _triangle, "errors": _cross,
                "not-loadable": _slashed_circle, "checking": _dotted_ring}
    return painters.get(status, _slashed_circle)()


@cache
def severity_icon(severity: str) -> QIcon:
    """The icon for a diagnostic's severity: "error", "warning" or "info"."""
    return {"error": _cross, "warning": _triangle, "info": _info}.get(severity, _info)()
