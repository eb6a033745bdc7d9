"""The transcript of one chat: prompts, answers rendered from Markdown, folded thinking, tool cards
and notices, top to bottom.

Each message is its own widget, so a streaming answer re-renders only itself, and at most every
RENDER_INTERVAL_MS however fast the tokens come; the rest of the transcript is never touched.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.chats import StoredMessage, ToolRecord
from studio.textshow import shown_prose
from studio.ui.chat.cards import ToolCard
from studio.ui.chat.render import render_finished_blocks, stylesheet
from studio.ui.chat.textbox import FittedText
from studio.ui.links import open_link

RENDER_INTERVAL_MS = 50
# Finished Markdown blocks are set aside once they add up to this many characters.
FREEZE_CHARS = 1500


class MessageView(QWidget):
    """The Markdown of one message as rich text. Text streamed in with `append` is rendered at
    most every RENDER_INTERVAL_MS, and only its unfinished end: once the finished blocks at the
    start add up to FREEZE_CHARS they are kept as they are, in a segment of their own, so a long
    answer costs no more to render at its end than at its start.

    Attributes:
        markdown: the Markdown shown (or about to be).
        rendered_chars: how much of `markdown` the last render covered.
        segments: the rich-text views, top to bottom; only the last one still changes.

    Signals:
        rendered: the view rendered its Markdown again.
    """

    rendered = Signal()

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.markdown = text
        self.rendered_chars = 0
        self.segments: list[FittedText] = []
        self._frozen_chars = 0
        self._last_render = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(0)
        self._add_segment()
        if text:
            self.render_now()

    def _add_segment(self) -> FittedText:
        segment = FittedText()
        segment.setObjectName("messageText")
        segment.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        segment.anchorClicked.connect(open_link)
        segment.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        segment.customContextMenuRequested.connect(
            lambda point, which=segment: self._on_segment_context_menu_requested(which, point))
        segment.document().setDefaultStyleSheet(stylesheet())
        self.segments.append(segment)
        self._layout.addWidget(segment)
        return segment

    def _reset(self) -> None:
        for segment in self.segments[1:]:
            self._layout.removeWidget(segment)
            segment.deleteLater()
        del self.segments[1:]
        self._frozen_chars = 0

    def set_markdown(self, text: str) -> None:
        self.markdown = text
        self._reset()
        self.render_now()

    def append(self, text: str) -> None:
        self.markdown += text
        if not self._timer.isActive():
            waited_ms = (time.monotonic() - self._last_render) * 1000
            self._timer.start(max(0, int(RENDER_INTERVAL_MS - waited_ms)))

    def flush(self) -> None:
        """Render what is pending now (the message is complete)."""
        if self._timer.isActive() or self.rendered_chars != len(self.markdown):
            self._timer.stop()
            self.render_now()

    def render_now(self) -> None:
        self._last_render = time.monotonic()
        finished, covered, rest = render_finished_blocks(self.markdown[self._frozen_chars:],
                                                         FREEZE_CHARS)
        if covered:
            self.segments[-1].setHtml(finished)
            self._frozen_chars += covered
            self._add_segment()
        self.segments[-1].setHtml(rest)
        self.rendered_chars = len(self.markdown)
        self.rendered.emit()

    def plain_text(self) -> str:
        return "\n".join(segment.toPlainText() for segment in self.segments)

    def html(self) -> str:
        return "".join(segment.toHtml() for segment in self.segments)

    def restyle(self) -> None:
        """Follow a palette change."""
        for segment in self.segments:
            segment.document().setDefaultStyleSheet(stylesheet())
        self.set_markdown(self.markdown)

    def _on_timer_timeout(self) -> None:
        self.render_now()

    def _on_segment_context_menu_requested(self, segment: FittedText, point: QPoint) -> None:
        menu = segment.createStandardContextMenu(point)
        menu.addSeparator()
        copy = menu.addAction("Copy Message as Markdown")
        copy.triggered.connect(self.copy_markdown)
        menu.popup(segment.viewport().mapToGlobal(point))

    def copy_markdown(self) -> None:
        QGuiApplication.clipboard().setText(self.markdown)


class UserItem(QFrame):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("userMessage")
        self.role = QLabel("You")
        self.role.setObjectName("roleLabel")
        self.body = FittedText()
        self.body.setObjectName("messageText")
        self.body.setPlainText(text)
        self.text = text
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 6)
        layout.setSpacing(1)
        layout.addWidget(self.role)
        layout.addWidget(self.body)


class AssistantItem(QFrame):
    """One answer: its thinking (folded), then its text, both growing while they stream."""

    def __init__(self, text: str = "", thinking: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantMessage")
        self.role = QLabel("Assistant")
        self.role.setObjectName("roleLabel")
        self.thinking_button = QToolButton()
        self.thinking_button.setObjectName("thinkingButton")
        self.thinking_button.setAutoRaise(True)
        self.thinking_button.setCheckable(True)
        self.thinking_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.thinking_button.setArrowType(Qt.ArrowType.RightArrow)
        self.thinking_view = FittedText()
        self.thinking_view.setObjectName("thinkingText")
        self.thinking_view.hide()
        self.body = MessageView(text)
        self.body.setVisible(bool(text))
        # A guided answer no script's output backs (after a denial, or with no run) says so.
        self.unverified = QLabel()
        self.unverified.setObjectName("unverifiedNote")
        self.unverified.setTextFormat(Qt.TextFormat.PlainText)
        self.unverified.setWordWrap(True)
        self.unverified.hide()
        self._thinking = thinking
        self._streaming = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(1)
        layout.addWidget(self.role)
        layout.addWidget(self.thinking_button)
        layout.addWidget(self.thinking_view)
        layout.addWidget(self.body)
        layout.addWidget(self.unverified)
        self.thinking_button.toggled.connect(self._on_thinking_button_toggled)
        if thinking:
            self.thinking_view.setPlainText(shown_prose(thinking))
        self._update_thinking_button()

    @property
    def text(self) -> str:
        return self.body.markdown

    @property
    def thinking(self) -> str:
        return self._thinking

    def append_text(self, text: str) -> None:
        self.body.show()
        self.body.append(text)

    def append_thinking(self, text: str) -> None:
        self._streaming = True
        self._thinking += text
        cursor = self.thinking_view.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(shown_prose(text))
        self._update_thinking_button()

    def mark_unverified(self, reason: str) -> None:
        """Show that this answer is not verified, and why ("no script ran for it, ...")."""
        self.unverified.setText(shown_prose(f"Not verified: {reason}. Check it before relying on it."))
        self.unverified.show()

    def finish(self) -> None:
        self._streaming = False
        self.body.flush()
        self._update_thinking_button()

    def _update_thinking_button(self) -> None:
        self.thinking_button.setVisible(bool(self._thinking))
        words = len(self._thinking.split())
        label = "Thinking…" if self._streaming else f"Thought ({words:,} words)"
        self.thinking_button.setText(label)

    def _on_thinking_button_toggled(self, shown: bool) -> None:
        self.thinking_view.setVisible(shown)
        self.thinking_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)


class NoticeItem(QLabel):
    def __init__(self, text: str, kind: str, parent: QWidget | None = None) -> None:
        # A notice can quote a server's error or a skill's name: plain text, shown not obeyed.
        super().__init__(shown_prose(text), parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setObjectName({"error": "errorNotice", "done": "doneNotice"}.get(kind, "notice"))
        if kind == "done":
            self.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)


ChatItem = UserItem | AssistantItem | ToolCard | NoticeItem


class Transcript(QScrollArea):
    """The chat's items in a scrolling column that follows new text while it is at the bottom.

    Signals:
        held_decided: (ToolCard, bool) Keep (True) or Discard (False) was pressed on a card.
    """

    held_decided = Signal(object, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.column = QWidget()
        self.column.setObjectName("transcriptColumn")
        self._layout = QVBoxLayout(self.column)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.setWidget(self.column)
        self.items: list[ChatItem] = []
        self._following = True
        self.placeholder = QLabel()
        self.placeholder.setObjectName("chatPlaceholder")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._layout.insertWidget(0, self.placeholder)
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_bar_value_changed)
        bar.rangeChanged.connect(self._on_bar_range_changed)

    def set_placeholder(self, text: str) -> None:
        self.placeholder.setText(text)
        self.placeholder.setVisible(not self.items and bool(text))

    def clear(self) -> None:
        for item in self.items:
            self._layout.removeWidget(item)
            item.deleteLater()
        self.items.clear()
        self._following = True
        self.placeholder.setVisible(bool(self.placeholder.text()))

    def _add(self, item: ChatItem) -> None:
        self.placeholder.hide()
        self._layout.insertWidget(self._layout.count() - 1, item)
        self.items.append(item)

    def add_user(self, text: str) -> UserItem:
        item = UserItem(text)
        self._following = True
        self._add(item)
        return item

    def add_assistant(self, text: str = "", thinking: str = "") -> AssistantItem:
        item = AssistantItem(text, thinking)
        self._add(item)
        return item

    def add_card(self, record: ToolRecord) -> ToolCard:
        card = ToolCard(record)
        card.held_decided.connect(self.held_decided)
        self._add(card)
        return card

    def add_notice(self, text: str, kind: str = "notice") -> NoticeItem:
        item = NoticeItem(text, kind)
        self._add(item)
        return item

    def show_messages(self, messages: list[StoredMessage]) -> None:
        """Show saved messages (replacing what is shown)."""
        self.clear()
        for message in messages:
            if message.role == "user":
                self.add_user(message.content)
            elif message.role == "assistant":
                if message.content.strip() or message.thinking:
                    self.add_assistant(message.content, message.thinking or "")
            elif message.role == "tool" and message.record is not None:
                self.add_card(message.record)
            else:
                self.add_notice(message.content, message.role)

    def answers(self) -> list[AssistantItem]:
        return [item for item in self.items if isinstance(item, AssistantItem)]

    def cards(self) -> list[ToolCard]:
        return [item for item in self.items if isinstance(item, ToolCard)]

    def restyle(self) -> None:
        for item in self.answers():
            item.body.restyle()

    def scroll_to_end(self) -> None:
        self._following = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_bar_value_changed(self, value: int) -> None:
        self._following = value >= self.verticalScrollBar().maximum() - 4

    def _on_bar_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._following:
            self.verticalScrollBar().setValue(maximum)
