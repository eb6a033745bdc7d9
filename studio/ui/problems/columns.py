"""The widths of the Problems list's columns (its table, and its tree when grouped by skill)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView

from studio.ui.problems.problems_model import ProblemsModel


def size_columns(header: QHeaderView, metrics: QFontMetrics) -> None:
    """Widths from the font, never from the rows: measuring 40,000 rows to fit a column would
    freeze the window."""
    header.setStretchLastSection(False)
    header.setHighlightSections(False)
    header.setSectionsMovable(False)
    fixed = QHeaderView.ResizeMode.Fixed
    header.setSectionResizeMode(ProblemsModel.SEVERITY, fixed)
    header.resizeSection(ProblemsModel.SEVERITY, 34)
    header.setSectionResizeMode(ProblemsModel.CODE, QHeaderView.ResizeMode.Interactive)
    header.resizeSection(ProblemsModel.CODE, metrics.horizontalAdvance("SK0000") + 28)
    header.setSectionResizeMode(ProblemsModel.MESSAGE, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(ProblemsModel.SKILL, QHeaderView.ResizeMode.Interactive)
    header.resizeSection(ProblemsModel.SKILL, metrics.horizontalAdvance("m" * 22))
    header.setSectionResizeMode(ProblemsModel.FILE, QHeaderView.ResizeMode.Interactive)
    header.resizeSection(ProblemsModel.FILE, metrics.horizontalAdvance("references/guide.md") + 16)
    header.setSectionResizeMode(ProblemsModel.LINE, QHeaderView.ResizeMode.Interactive)
    header.resizeSection(ProblemsModel.LINE, metrics.horizontalAdvance("00,000:000") + 24)
    header.setMinimumSectionSize(24)
