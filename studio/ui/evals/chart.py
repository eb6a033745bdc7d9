"""The pass rate per version of a skill, oldest on the left: a small line chart drawn with
QPainter, with the run without the skill and the trigger recall when they were measured, the
baseline's pass rate as a dashed line, this version's change over it (pass rate, seconds and
tokens a run) in a caption, and the version whose run the results table shows ringed: the chart
and the table never disagree about which run is on screen."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.evals import HistoryEntry, percent

SERIES = (
    ("pass_rate", "pass rate", QColor("#2f81f7")),
    ("without_pass_rate", "without the skill", QColor("#7a7f87")),
    ("recall", "trigger recall", QColor("#2da44e")),
)
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 38, 10, 18, 20


class PassRateChart(QWidget):
    """Attributes:
        versions: one entry per version of the skill, in the order they were first run.
        shown: the content hash of the version whose run the results show ("" for none).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.versions: list[HistoryEntry] = []
        self.baseline: tuple[str, float] | None = None
        self.caption = ""
        self.shown = ""
        # Low enough to leave the result tables their rows at 1280x720 (issue 44).
        self.setMinimumHeight(90)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(360, 96)

    def set_shown(self, skill_hash: str) -> None:
        """Ring the version whose run the results show."""
        self.shown = skill_hash
        self.update()

    def set_versions(self, versions: list[HistoryEntry]) -> None:
        self.versions = list(versions)
        self.setToolTip("\n".join(
            f"version {v.skill_hash[:8]}: pass rate {percent(v.pass_rate)}, without the skill "
            f"{percent(v.without_pass_rate)}, precision {percent(v.precision)}, recall "
            f"{percent(v.recall)}" for v in self.versions) or "No run of this skill's evals yet.")
        self.update()

    def set_baseline(self, baseline: tuple[str, float] | None, caption: str) -> None:
        """The baseline's name and pass rate (drawn dashed), and this version's change over it."""
        self.baseline = baseline
        self.caption = caption
        self.update()

    def points(self, key: str) -> list[QPointF]:
        """Where the chart puts each version's figure `key` (versions without it left out)."""
        plot = self._plot()
        count = len(self.versions)
        found = []
        for number, version in enumerate(self.versions):
            value = getattr(version, key)
            if value is None:
                continue
            x = plot.left() + (plot.width() * (number + 0.5) / count)
            found.append(QPointF(x, plot.bottom() - plot.height() * value))
        return found

    def _plot(self) -> QRectF:
        return QRectF(self.rect()).adjusted(MARGIN_LEFT, MARGIN_TOP, -MARGIN_RIGHT, -MARGIN_BOTTOM)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        grid = QColor(text)
        grid.setAlpha(50)
        plot = self._plot()
        painter.setPen(QPen(grid, 1))
        for share in (0.0, 0.5, 1.0):
            y = plot.bottom() - plot.height() * share
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(text)
            painter.drawText(QRectF(0, y - 8, MARGIN_LEFT - 4, 16),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                             f"{share:.0%}")
            painter.setPen(QPen(grid, 1))
        if not self.versions:
            painter.setPen(text)
            painter.drawText(plot, int(Qt.AlignmentFlag.AlignCenter),
                             "The pass rate of each version of the skill shows here.")
            return
        legend_x = plot.left()
        for key, label, colour in SERIES:
            points = self.points(key)
            if not points:
                continue
            painter.setPen(QPen(colour, 2))
            painter.drawPolyline(points)
            painter.setBrush(colour)
            for point in points:
                painter.drawEllipse(point, 3.5, 3.5)
            painter.drawText(QPointF(legend_x, MARGIN_TOP - 5), f"● {label}")
            legend_x += painter.fontMetrics().horizontalAdvance(f"● {label}") + 14
        hashes = [version.skill_hash for version in self.versions]
        if self.shown in hashes and self.versions[hashes.index(self.shown)].pass_rate is not None:
            index = [v.skill_hash for v in self.versions if v.pass_rate is not None].index(
                self.shown)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(text, 1.5))
            painter.drawEllipse(self.points("pass_rate")[index], 7, 7)
        if self.baseline is not None:
            label, rate = self.baseline
            y = plot.bottom() - plot.height() * rate
            painter.setPen(QPen(SERIES[1][2], 1, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.drawText(QRectF(plot.left() + 4, y - 16, plot.width() - 8, 14),
                             int(Qt.AlignmentFlag.AlignLeft), label)
        if self.caption:
            # Inside the plot, under the legend: the legend takes the top line.
            painter.setPen(text)
            painter.drawText(QRectF(plot.left(), plot.top() + 2, plot.width() - 4, 16),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop),
                             painter.fontMetrics().elidedText(
                                 self.caption, Qt.TextElideMode.ElideLeft, int(plot.width() - 4)))
        painter.setPen(text)
        count = len(self.versions)
        step = max(1, count // 8)
        for number in range(0, count, step):
            x = plot.left() + plot.width() * (number + 0.5) / count
            painter.drawText(QRectF(x - 30, plot.bottom() + 3, 60, MARGIN_BOTTOM - 3),
                             int(Qt.AlignmentFlag.AlignCenter), self.versions[number].skill_hash[:6])
