"""The card of one tool call in the chat: which skill, the command or file, who approved it and
how, what it printed (folded when long), its exit code and how long it took.

A command's card also says what the sandbox let it do ("writes only in ...; no network"), what
the run wrote, and the files it held back (other tools would run them) with Keep and Discard:
nothing held lands unless the user keeps it.
What the model or a tool wrote is shown, never obeyed: the command, names and paths exactly
(`studio.textshow.shown`), the output as prose (`shown_prose`); labels take it as plain text or
escaped.

A card shows a `ToolRecord` (the chat store's record of the call); the session updates the
record as events arrive and asks the card to show it again. A call that started a fork holds the
fork's card (`forkcard.ForkCard`, folded) above its output, the answer that went back to the model.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent import TOOL_BOOK
from studio.chats import ToolRecord
from studio.textshow import shown, shown_prose
from studio.ui.chat.forkcard import ForkCard, RecordCard
from studio.ui.chat.textbox import FittedText, code_spans

FOLD_LINES = 6

# Colours read on light and dark palettes alike.
STATUS_COLOURS = {
    "requested": "#7a7f87", "asking": "#d99a00", "running": "#2f81f7", "ok": "#2da44e",
    "failed": "#d23a3a", "blocked": "#d23a3a", "denied": "#d99a00", "error": "#d23a3a",
    "timeout": "#d99a00", "cancelled": "#7a7f87",
}  # fmt: skip


def _who(by: str | None) -> str:
    return "you" if by in (None, "user") else str(by)


def _seconds(duration: float | None) -> str:
    if duration is None:
        return ""
    return f"{duration * 1000:.0f} ms" if duration < 1 else f"{duration:.2f} s"


def status_text(record: ToolRecord) -> str:
    """The short state shown at the card's top right: running, exit code and time, blocked…"""
    took = _seconds(record.duration)
    status = record.status
    if status in ("ok", "failed") and record.exit_code is not None:
        return f"exit {record.exit_code}" + (f" · {took}" if took else "")
    texts = {
        "requested": "requested", "asking": "waiting for your approval", "running": "running…",
        "ok": "done", "failed": "failed", "blocked": "blocked by the policy", "denied": "denied",
        "error": "error", "timeout": "timed out", "cancelled": "stopped",
    }  # fmt: skip
    text = texts.get(status, status)
    return f"{text} · {took}" if took and status in ("ok", "timeout", "error") else text


def approval_text(record: ToolRecord) -> str:
    """Who let the call run (or stopped it) and how, in a sentence; empty when nobody decided yet."""
    approval = record.approval
    if approval is None:
        if record.status == "blocked":
            return "Blocked by the policy before anyone was asked."
        return ""
    choice, by = approval.get("choice"), approval.get("by")
    if choice == "allow":
        return "Allowed by the policy: no approval needed."
    if choice == "once":
        return f"Approved once by {_who(by)}."
    if choice == "always":
        scope = approval.get("scope")
        return f"Always allowed by {_who(by)}" + (f": {shown(str(scope))}." if scope else ".")
    if choice == "deny":
        reason = approval.get("reason")
        return f"Denied by {_who(by)}" + (f": “{shown(str(reason))}”" if reason else ".")
    return shown(f"{choice} by {_who(by)}")


def sandbox_text(record: ToolRecord) -> str:
    """The sandbox line; empty before the run, or when a warning above says there was none."""
    if not record.sandbox or record.sandbox in record.warnings:
        return ""
    return f"<b>Sandbox:</b> {html.escape(shown(record.sandbox))}"


# Past these many paths of a kind, the card says how many more (the audit log has them all).
SHOWN_PATHS = 8
_DECISIONS = {
    "kept": "You kept them: they are in the folder now.",
    "discarded": "Discarded: they never reached the folder.",
    "gone": "No longer held: they were kept or discarded already.",
}


def _paths(paths: tuple[str, ...]) -> str:
    listed = ", ".join(f"<code>{html.escape(shown(path))}</code>" for path in paths[:SHOWN_PATHS])
    more = len(paths) - SHOWN_PATHS
    return listed + (f" and {more} more" if more > 0 else "")


def writes_text(record: ToolRecord) -> str:
    """What the run wrote, a line for each kind, then the files held back and what became of
    them; empty when it wrote nothing."""
    writes = record.writes
    if writes is None:
        return ""
    lines = [f"<b>{what.capitalize()}:</b> {_paths(paths)}"
             for what, paths in (("created", writes.created), ("changed", writes.changed),
                                 ("deleted", writes.deleted)) if paths]
    if writes.omitted:
        lines.append(f"… and {writes.omitted:,} more (Audit log)")
    if writes.held:
        lines.append("<b>Held back</b>, as other tools would run them:")
        lines += [f"&nbsp;&nbsp;<code>{html.escape(shown(item.path))}</code> ({item.kind}): "
                  f"{html.escape(item.reason)}" for item in writes.held[:SHOWN_PATHS]]
        if len(writes.held) > SHOWN_PATHS:
            lines.append(f"&nbsp;&nbsp;and {len(writes.held) - SHOWN_PATHS:,} more (Audit log)")
        lines.append(_DECISIONS.get(writes.decision or "", "Keep them only if you trust them; "
                                    "unless you keep them, they never land."))
    lines += [f"⚠ {html.escape(problem)}" for problem in writes.problems]
    return "<br>".join(lines)


def held_waiting(record: ToolRecord) -> bool:
    """Whether the card offers Keep and Discard: files are held and nobody decided yet."""
    writes = record.writes
    return writes is not None and writes.hold_id is not None and writes.decision is None


class ToolCard(RecordCard):
    """Shows one `ToolRecord`; `show_record` after the record changed, `append_output` for output
    as it streams (cheaper than showing it all again).

    Attributes:
        record: the call shown.
        fork_card: the card of the fork the call started, once it has started (else None).

    Keep and Discard emit `RecordCard.held_decided` for this card; the cards of a fork's calls
    pass theirs up through it. Whoever owns the chat asks the core to land or drop the files.
    """

    def __init__(self, record: ToolRecord, parent: QWidget | None = None) -> None:
        super().__init__(record, parent)
        self.setObjectName("toolCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._folded = True

        self.dot = QLabel("●")
        self.title = QLabel()
        self.title.setObjectName("cardTitle")
        self.state = QLabel()
        self.state.setObjectName("cardState")
        header = QHBoxLayout()
        header.setSpacing(6)
        header.addWidget(self.dot)
        header.addWidget(self.title, 1)
        header.addWidget(self.state)

        self.command = FittedText(monospace=True)
        self.command.setObjectName("cardCommand")
        self.where = QLabel()
        self.where.setObjectName("cardWhere")
        self.where.setWordWrap(True)
        self.where.setTextFormat(Qt.TextFormat.PlainText)
        self.sandbox = QLabel()
        self.sandbox.setObjectName("cardSandbox")
        self.sandbox.setWordWrap(True)
        self.warnings = QLabel()
        self.warnings.setObjectName("cardWarnings")
        self.warnings.setWordWrap(True)
        self.approval = QLabel()
        self.approval.setObjectName("cardApproval")
        self.approval.setWordWrap(True)
        self.approval.setTextFormat(Qt.TextFormat.PlainText)
        self.writes = QLabel()
        self.writes.setObjectName("cardWrites")
        self.writes.setWordWrap(True)
        self.keep_button = QPushButton("Keep")
        self.keep_button.setToolTip("Move the held files into the folder, where other tools "
                                    "will run them")
        self.keep_button.clicked.connect(self._on_keep_button_clicked)
        self.discard_button = QPushButton("Discard")
        self.discard_button.setToolTip("Delete the held files; they never reach the folder")
        self.discard_button.clicked.connect(self._on_discard_button_clicked)
        self.held_buttons = QWidget()
        buttons = QHBoxLayout(self.held_buttons)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.discard_button)
        buttons.addWidget(self.keep_button)
        buttons.addStretch(1)
        self.output = FittedText(monospace=True, max_lines=FOLD_LINES)
        self.output.setObjectName("cardOutput")
        self.fold_button = QToolButton()
        self.fold_button.setObjectName("foldButton")
        self.fold_button.setAutoRaise(True)
        self.fold_button.clicked.connect(self._on_fold_button_clicked)
        for label in (self.where, self.sandbox, self.warnings, self.approval, self.writes):
            label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        layout.addLayout(header)
        layout.addWidget(self.command)
        layout.addWidget(self.where)
        layout.addWidget(self.sandbox)
        layout.addWidget(self.warnings)
        layout.addWidget(self.approval)
        layout.addWidget(self.output)
        layout.addWidget(self.fold_button)
        layout.addWidget(self.writes)
        layout.addWidget(self.held_buttons)
        self._layout = layout
        self.fork_card: ForkCard | None = None
        self._shown_output = ""
        self.show_record()

    def show_record(self) -> None:
        record = self.record
        colour = STATUS_COLOURS.get(record.status, "#7a7f87")
        self.dot.setStyleSheet(f"color: {colour};")
        entry = TOOL_BOOK.get(record.tool)
        name = html.escape(entry.title if entry is not None else shown(record.tool))
        skill = f" · {html.escape(shown(record.skill))}" if record.skill else ""
        self.title.setText(f"<b>{name}</b>{skill}")
        self.state.setText(status_text(record))
        self.state.setStyleSheet(f"color: {colour};")
        command = shown(record.command or record.summary)
        if self.command.toPlainText() != command:
            self.command.setPlainText(command)
        self.where.setText(f"in {shown(record.cwd)}" if record.cwd and record.command else "")
        self.where.setVisible(bool(self.where.text()))
        self.sandbox.setText(sandbox_text(record))
        self.sandbox.setVisible(bool(self.sandbox.text()))
        self.warnings.setText("<br>".join(f"⚠ {code_spans(shown(w))}" for w in record.warnings))
        self.warnings.setVisible(bool(record.warnings))
        self.approval.setText(approval_text(record))
        self.approval.setVisible(bool(self.approval.text()))
        self._show_output(self._output_text())
        self.writes.setText(writes_text(record))
        self.writes.setVisible(bool(self.writes.text()))
        self.held_buttons.setVisible(held_waiting(record))
        self._show_fork()

    def _show_fork(self) -> None:
        fork = self.record.fork
        if fork is None:
            return
        if self.fork_card is None or self.fork_card.record is not fork:
            if self.fork_card is not None:
                self.fork_card.deleteLater()
            self.fork_card = ForkCard(fork, type(self))
            self.fork_card.header.toggled.connect(self._on_fork_header_toggled)
            self.fork_card.held_decided.connect(self.held_decided)
            self._layout.insertWidget(self._layout.indexOf(self.output), self.fork_card)
        self.fork_card.show_record()

    def _output_text(self) -> str:
        record = self.record
        if record.output:
            return record.output + ("\n[output cut: only the first part was kept]"
                                    if record.truncated and record.finished else "")
        if record.finished:
            if record.status == "ok" and self.fork_card is not None and not self.fork_card.folded:
                return ""  # the unfolded fork ends with the same answer
            entry = TOOL_BOOK.get(record.tool)
            if entry is not None and entry.runs and record.status in ("ok", "failed"):
                return "(no output)"
            return record.result
        return ""

    def _show_output(self, text: str) -> None:
        if text != self._shown_output:
            if self._shown_output and text.startswith(self._shown_output):
                self._insert(text[len(self._shown_output):])
            else:
                self.output.setPlainText(shown_prose(text))
            self._shown_output = text
        self.output.setVisible(bool(text))
        self._update_fold()

    def append_output(self, text: str) -> None:
        """Add streamed output (already added to `record.output`)."""
        self._insert(text)
        self._shown_output += text
        self.output.setVisible(True)
        self._update_fold()

    def _insert(self, text: str) -> None:
        bar = self.output.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        cursor = self.output.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(shown_prose(text))
        if at_end:
            bar.setValue(bar.maximum())

    def _update_fold(self) -> None:
        lines = self.output.line_count()
        long = self.output.isVisibleTo(self) and lines > FOLD_LINES
        self.fold_button.setVisible(long)
        if long:
            self.fold_button.setText(f"Show all {lines:,} lines" if self._folded else "Fold")

    def set_folded(self, folded: bool) -> None:
        self._folded = folded
        self.output.set_max_lines(FOLD_LINES if folded else None)
        self._update_fold()

    def _on_fork_header_toggled(self, _unfolded: bool) -> None:
        self.show_record()

    def _on_fold_button_clicked(self) -> None:
        self.set_folded(not self._folded)

    def _on_keep_button_clicked(self) -> None:
        self.held_decided.emit(self, True)

    def _on_discard_button_clicked(self) -> None:
        self.held_decided.emit(self, False)
