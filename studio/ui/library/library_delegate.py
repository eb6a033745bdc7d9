"""Paints a skill's row of the library tree: its name, then, dimmed, what tells it apart from
skills of the same name (where it sits in its repository, or in the flat view its repository).

A view elides one text per row; here the name and the dimmed part share the row, each elided in
the middle when the row is narrow, the name keeping up to two thirds of the room (the part that
tells forks apart, `owner--repo`, keeps its ends)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.ui.library.library_rows import DETAIL_ROLE

GAP = 8


class LibraryDelegate(QStyledItemDelegate):
    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        detail = index.data(DETAIL_ROLE)
        if not detail:
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        widget = item.widget
        style = widget.style() if widget is not None else None
        if style is None:
            super().paint(painter, option, index)
            return
        name = item.text
        text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, item, widget)
        # The row's background, selection, focus and icon as the style draws them; the texts
        # are drawn below.
        item.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        self._draw_texts(painter, item, text_rect, name, str(detail))

    @staticmethod
    def _draw_texts(painter: QPainter, item: QStyleOptionViewItem, rect: QRect, name: str,
                    detail: str) -> None:
        metrics = item.fontMetrics
        rect = rect.adjusted(2, 0, -2, 0)
        room = rect.width()
        name_width = metrics.horizontalAdvance(name)
        detail_width = metrics.horizontalAdvance(detail)
        if name_width + GAP + detail_width > room:
            name_width = min(name_width, max(room * 2 // 3, room - GAP - detail_width))
            detail_width = max(0, room - GAP - name_width)
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        group = (QPalette.ColorGroup.Active if item.state & QStyle.StateFlag.State_Active
                 else QPalette.ColorGroup.Inactive)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text = item.palette.color(group, text_role)
        dim = item.palette.color(group, QPalette.ColorRole.PlaceholderText)
        if selected:
            dim = text
            dim.setAlphaF(0.7)
        align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        painter.save()
        painter.setFont(item.font)
        painter.setPen(text)
        name_rect = QRect(rect.left(), rect.top(), name_width, rect.height())
        painter.drawText(name_rect, align, _fit(metrics, name, name_width))
        if detail_width > metrics.horizontalAdvance("…"):
            painter.setPen(dim)
            detail_rect = QRect(name_rect.right() + 1 + GAP, rect.top(), detail_width,
                                rect.height())
            painter.drawText(detail_rect, align, _fit(metrics, detail, detail_width))
        painter.restore()


def _fit(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text`, elided in the middle if it is wider than `width` (Qt's eliding also cuts a text
    exactly as wide as the room, to a third of it)."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    return metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
