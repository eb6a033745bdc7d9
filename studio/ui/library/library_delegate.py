"""Paints a skill's row of the library tree: its name, then, dimmed, what tells it apart from
skills of the same name (where it sits in its repository, or in the flat view its repository).

A view elides one text per row; here the name and the dimmed part share the row, each elided in
the middle when the row is narrow. The name keeps up to two thirds of the room, but where a row
beside shares it (forks of one skill, in the flat view) the dimmed part is what tells them apart
and the name keeps only half. Where the rows beside begin alike, what goes is their common part
and what stays is where they differ (`K-Den…image` beside `K-Den…damage`); else an `owner--repo`
loses the middle of each half, so the owner's start, the repository's end and the `--` between
stay (`ant…ics--cla…age`). The row's tooltip has it whole."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.ui.library.library_rows import DETAIL_ROLE, SHARED_ROLE

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
        shared = bool(index.data(SHARED_ROLE))
        others = _details_beside(index, name) if shared else []
        self._draw_texts(painter, item, text_rect, name, str(detail), shared, others)

    @staticmethod
    def _draw_texts(painter: QPainter, item: QStyleOptionViewItem, rect: QRect, name: str,
                    detail: str, shared: bool, others: list[str]) -> None:
        metrics = item.fontMetrics
        rect = rect.adjusted(2, 0, -2, 0)
        room = rect.width()
        name_width, detail_width = widths(room, metrics.horizontalAdvance(name),
                                          metrics.horizontalAdvance(detail), shared)
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
            painter.drawText(detail_rect, align, fit_apart(metrics, detail, detail_width, others))
        painter.restore()


def _fit(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text`, elided in the middle if it is wider than `width` (Qt's eliding also cuts a text
    exactly as wide as the room, to a third of it)."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    return metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)


def widths(room: int, name: int, detail: int, shared: bool) -> tuple[int, int]:
    """How wide the name and the detail are drawn in a row `room` wide, from the widths they
    want: the name keeps up to two thirds, or only half when its row shares it with one beside
    (the detail tells them apart), unless the detail needs less."""
    if name + GAP + detail <= room:
        return name, detail
    least = room // 2 if shared else room * 2 // 3
    name = min(name, max(least, room - GAP - detail))
    return name, max(0, room - GAP - name)


def fit_repository(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text` in `width`: an `owner--repo` (perhaps with `/more` after it) too wide loses the
    middle of its owner and of the rest, each in proportion to its length, so both halves and
    the `--` between them stay recognisable; any other text loses its middle."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    owner, separator, rest = text.partition("--")
    room = width - metrics.horizontalAdvance(separator)
    if not separator or not owner or not rest or room < 2 * metrics.horizontalAdvance("ab…"):
        return _fit(metrics, text, width)
    # Up to half each: the owner tells forks apart as often as the repository's name does.
    owner_room = min(metrics.horizontalAdvance(owner), max(room // 2, room - metrics.horizontalAdvance(rest)))
    fitted_owner = _fit(metrics, owner, owner_room)
    return fitted_owner + separator + _fit(
        metrics, rest, room - metrics.horizontalAdvance(fitted_owner))


def fit_apart(metrics: QFontMetrics, text: str, width: int, others: list[str]) -> str:
    """`text` in `width`, keeping where it differs from `others` (the details of the rows beside
    that share its name): when they all begin alike (`K-Dense-AI--claude-skills-image` beside
    `...-damage`), the first letters, then `…`, then all from where they differ, if that fits;
    else as `fit_repository` does."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    same = max((_shared_start(text, other) for other in others if other != text), default=0)
    tail = text[same:]
    if same < 4 or not tail:
        return fit_repository(metrics, text, width)
    for head in range(min(same, 6), 0, -1):
        fitted = f"{text[:head]}…{tail}"
        if metrics.horizontalAdvance(fitted) <= width:
            return fitted
    return fit_repository(metrics, text, width)


def _details_beside(index: QModelIndex | QPersistentModelIndex, name: str) -> list[str]:
    """The details of the rows just above and below that show the same name."""
    found: list[str] = []
    for row in (index.row() - 1, index.row() + 1):
        beside = index.sibling(row, 0)
        if beside.isValid() and beside.data() == name:
            found.append(str(beside.data(DETAIL_ROLE) or ""))
    return found


def _shared_start(text: str, other: str) -> int:
    """How many characters `text` and `other` begin with alike."""
    for at, (mine, theirs) in enumerate(zip(text, other, strict=False)):
        if mine != theirs:
            return at
    return min(len(text), len(other))
