"""The review of one result: the eval's output beside its expectations and their verdicts, the
author's note on the eval (kept in the skill's evals/feedback.json, shown at every later run),
and the run's transcript with the chat's own cards, read-only."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.evals import EvalResult, QueryResult, transcript_messages, write_feedback
from studio.skills.checks import evalfiles
from studio.ui.chat.transcript import Transcript
from studio.ui.editor.form_fold import TabLayout
from studio.ui.evals.models import verdicts_html

NO_TRANSCRIPT = ("This result was kept without its transcript; run it again with the cache "
                 "cleared to see one.")


class ReviewPane(QWidget):
    """Attributes:
        verdicts: what the result was and each expectation's verdict.
        output: the answer the run gave.
        note: the author's note on the eval shown.
        transcript: the run, with the chat's cards.
        eval_id: the eval shown ("" for a trigger query or nothing).

    Signals:
        note_saved: (str eval id, str note) a note was kept (an empty one: cleared).
    """

    note_saved = Signal(str, str)

    def __init__(self, tab_layout: TabLayout, skill_dir: Callable[[], Path | None],
                 parent: QWidget | None = None) -> None:
        """`skill_dir`: the folder of the skill whose notes these are (None: notes cannot be
        kept, as for a skill in an archive)."""
        super().__init__(parent)
        self._skill_dir = skill_dir
        self.eval_id = ""
        self.verdicts = QLabel()
        self.verdicts.setObjectName("evalVerdicts")
        self.verdicts.setWordWrap(True)
        self.verdicts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdicts.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.output = QPlainTextEdit()
        self.output.setReadOnly(True)
        self.output.setAccessibleName("The eval's output")
        self.output.setPlaceholderText("The answer of the eval picked shows here.")
        self.note = QPlainTextEdit()
        self.note.setObjectName("evalNote")
        self.note.setAccessibleName("Your note on this eval")
        self.note.setPlaceholderText("Your note on this eval's output: what was wrong, what to "
                                     "change. Kept in evals/feedback.json and shown at every run.")
        self.note.setMaximumHeight(56)
        self.note.setTabChangesFocus(True)
        self.save_note = QPushButton("Save Note")
        self.save_note.setObjectName("saveNote")
        self.save_note.setToolTip("Keep the note in the skill's evals/feedback.json (an empty "
                                  "note clears it)")
        self.note_status = QLabel()
        self.note_status.setWordWrap(True)
        self.transcript = Transcript()
        self.transcript.set_placeholder("Pick a result to see its transcript.")

        verdicts = QScrollArea()
        verdicts.setWidget(self.verdicts)
        verdicts.setWidgetResizable(True)
        verdicts.setFrameShape(QFrame.Shape.NoFrame)
        verdicts.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        beside = QSplitter(Qt.Orientation.Horizontal)
        beside.addWidget(self.output)
        beside.addWidget(verdicts)
        beside.setChildrenCollapsible(False)
        tab_layout.follow("evals.review", beside, [300, 300])
        notes = QWidget()
        note_row = QHBoxLayout(notes)
        note_row.setContentsMargins(0, 0, 0, 0)
        note_row.addWidget(self.note, 1)
        side = QVBoxLayout()
        side.addWidget(self.save_note)
        side.addWidget(self.note_status, 1)
        note_row.addLayout(side)
        review = QWidget()
        review_layout = QVBoxLayout(review)
        review_layout.setContentsMargins(0, 0, 0, 0)
        review_layout.addWidget(beside, 1)
        review_layout.addWidget(notes)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(review)
        split.addWidget(self.transcript)
        split.setChildrenCollapsible(False)
        tab_layout.follow("evals.detail", split, [220, 260])
        # Low least heights: beside the result tables at 1280x720 the pane has some 200 px,
        # and a taller least size would push the tables below the fold (issue 44).
        for part in (self.output, verdicts, self.transcript):
            part.setMinimumHeight(40)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self.save_note.clicked.connect(self._on_save_note_clicked)
        self._set_eval("", "")

    def _set_eval(self, eval_id: str, note: str) -> None:
        self.eval_id = eval_id
        self.note.setPlainText(note)
        self.note_status.setText("")
        for widget in (self.note, self.save_note):
            widget.setEnabled(bool(eval_id) and self._skill_dir() is not None)

    def show_result(self, found: tuple[EvalResult, str] | None, note: str = "") -> None:
        """Show a result's output, verdicts, note and transcript (None: clear them)."""
        if found is None:
            self.verdicts.setText("")
            self.output.setPlainText("")
            self.transcript.show_messages([])
            self._set_eval("", "")
            return
        result, label = found
        self.verdicts.setText(verdicts_html(result, label))
        answer = result.trace.get("answer", "")
        self.output.setPlainText(answer if isinstance(answer, str) else "")
        self._set_eval(result.id, note)
        self._show_trace(result.trace)

    def show_query(self, query: QueryResult) -> None:
        """Show a trigger query's run: what it should have done, what it did, its transcript."""
        right = query.triggered == query.should_trigger
        did = (f"first called {html.escape(query.first_call)}" if query.called
               else "answered without calling a tool")
        should = "should pick the skill" if query.should_trigger else "should not pick the skill"
        self.verdicts.setText(f"<b>{'Right' if right else 'Wrong'}</b> (run {query.run}): the "
                              f"query {should}; the model {did}.")
        self.output.setPlainText(query.query)
        self._set_eval("", "")
        self._show_trace(query.trace)

    def _show_trace(self, trace: dict[str, object]) -> None:
        messages = transcript_messages(trace)
        self.transcript.show_messages(messages)
        if not messages:
            self.transcript.set_placeholder(NO_TRANSCRIPT)

    def _on_save_note_clicked(self) -> None:
        folder = self._skill_dir()
        if not self.eval_id or folder is None:
            return
        note = self.note.toPlainText()
        try:
            write_feedback(folder, self.eval_id, note)
        except (evalfiles.EvalFileError, OSError) as exc:
            self.note_status.setText(f"Not saved: {exc}. Fix evals/feedback.json, then save "
                                     "again.")
            return
        self.note_status.setText("Saved." if note.strip() else "Cleared.")
        self.note_saved.emit(self.eval_id, note.strip())
