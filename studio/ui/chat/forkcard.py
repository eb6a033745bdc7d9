"""The card of a fork, nested in the card of the call that started it: a header ("Fork · skill ·
model · N tool runs" and how it stands) that unfolds the sub-conversation, with its text, its
notices and errors, and its own tool cards (a fork of the fork nests inside one of those).

Folded by default. It shows a `ForkRecord` that the core keeps up to date
(`studio.agent.records`); while unfolded, its items are redrawn at most every
RENDER_INTERVAL_MS, however fast the fork streams.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from studio.chats import ForkNote, ForkRecord, ToolRecord
from studio.textshow import shown, shown_prose
from studio.ui.chat.render import render_markdown, stylesheet
from studio.ui.chat.textbox import FittedText

RENDER_INTERVAL_MS = 50

FORK_STATES = {
    "running": ("running…", "#2f81f7"), "answered": ("answered", "#2da44e"),
    "cancelled": ("stopped", "#7a7f87"), "round-limit": ("stopped at the round limit", "#d99a00"),
    "repeated-call": ("stopped: it repeated a call", "#d99a00"), "error": ("error", "#d23a3a"),
    "answer-limit": ("stopped at the answer's limit", "#d99a00"),
}  # fmt: skip


def fork_title(record: ForkRecord) -> str:
    """The header's text: what forked, as whom, on which model, and how much it did."""
    runs = record.tool_runs
    parts = ["Fork", record.skill]
    if record.context and record.context != "fork":
        parts.append(record.context)
    if record.agent:
        parts.append(f"agent {record.agent}")
    parts += [record.model, f"{runs} tool run" + ("" if runs == 1 else "s")]
    return shown(" · ".join(part for part in parts if part))


class _NoteView(FittedText):
    """A text, notice or error of the fork; the fork's text is Markdown."""

    def __init__(self, note: ForkNote) -> None:
        super().__init__()
        self.kind = note.kind
        self.shown = ""
        names = {"text": "forkText", "notice": "forkNotice", "error": "forkError"}
        self.setObjectName(names[note.kind])
        self.document().setDefaultStyleSheet(stylesheet())
        self.show_note(note)

    def show_note(self, note: ForkNote) -> None:
        if note.text == self.shown:
            return
        self.shown = note.text
        if note.kind == "text":
            self.setHtml(render_markdown(note.text))
        else:
            self.setPlainText(("Error: " if note.kind == "error" else "") + shown_prose(note.text))


class RecordCard(QFrame):
    """A card that shows one tool call's record, the kind a fork nests (`cards.ToolCard` is
    one): named here so that a fork's card needs nothing of the module of the card holding it.

    Attributes:
        record: the call shown.

    Signals:
        held_decided: (RecordCard, bool) Keep (True) or Discard (False) was pressed for the
            files held back by this card's run, or by a run nested in it (that run's card).
    """

    held_decided = Signal(object, bool)

    def __init__(self, record: ToolRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record

    def show_record(self) -> None:
        """Draw the record as it is now; each kind of card draws its own."""


class ForkCard(QFrame):
    """Shows one `ForkRecord`; `show_record` after it changed.

    Attributes:
        record: the fork shown.
        header: folds and unfolds the sub-conversation (checked: unfolded).
        state: how the fork stands (running, answered, stopped, error).
        items: the widgets of the record's items, in order, once unfolded: a `ToolCard` (of
            the class of the card holding this one) for each call, a text view for the rest.

    Signals:
        held_decided: (RecordCard, bool) passed on from the cards of the fork's calls.
    """

    held_decided = Signal(object, bool)

    def __init__(self, record: ForkRecord, card_type: type[RecordCard],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self._card_type = card_type
        self.setObjectName("forkCard")
        self.header = QToolButton()
        self.header.setObjectName("forkHeader")
        self.header.setAutoRaise(True)
        self.header.setCheckable(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setArrowType(Qt.ArrowType.RightArrow)
        self.header.toggled.connect(self._on_header_toggled)
        self.state = QLabel()
        self.state.setObjectName("forkState")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.header, 1)
        top.addWidget(self.state)
        self.body = QWidget()
        self.body.setObjectName("forkBody")
        self._column = QVBoxLayout(self.body)
        self._column.setContentsMargins(10, 0, 0, 2)
        self._column.setSpacing(4)
        self.body.hide()
        self.items: list[RecordCard | _NoteView] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_timer_timeout)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 4, 4)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.body)
        self.show_record()

    @property
    def folded(self) -> bool:
        return not self.header.isChecked()

    def set_folded(self, folded: bool) -> None:
        self.header.setChecked(not folded)

    def show_record(self) -> None:
        record = self.record
        self.header.setText(fork_title(record))
        text, colour = FORK_STATES.get(record.status, (record.status, "#7a7f87"))
        self.state.setText(text)
        self.state.setStyleSheet(f"color: {colour};")
        if not self.folded and not self._timer.isActive():
            self._timer.start(RENDER_INTERVAL_MS)

    def show_items(self) -> None:
        """Draw the sub-conversation as it is now: new items added, changed ones redrawn."""
        self._timer.stop()
        for index, item in enumerate(self.record.items):
            view = self.items[index] if index < len(self.items) else None
            if isinstance(item, ToolRecord):
                if isinstance(view, self._card_type) and view.record is item:
                    view.show_record()
                    continue
                view = self._card_type(item)
                view.held_decided.connect(self.held_decided)
            elif isinstance(view, _NoteView) and view.kind == item.kind:
                view.show_note(item)
                continue
            else:
                view = _NoteView(item)
            self._replace(index, view)

    def _replace(self, index: int, view: RecordCard | _NoteView) -> None:
        if index < len(self.items):
            old = self.items[index]
            self._column.replaceWidget(old, view)
            old.deleteLater()
            self.items[index] = view
        else:
            self._column.addWidget(view)
            self.items.append(view)

    def _on_header_toggled(self, unfolded: bool) -> None:
        self.header.setArrowType(Qt.ArrowType.DownArrow if unfolded else Qt.ArrowType.RightArrow)
        self.body.setVisible(unfolded)
        if unfolded:
            self.show_items()

    def _on_timer_timeout(self) -> None:
        if not self.folded:
            self.show_items()
