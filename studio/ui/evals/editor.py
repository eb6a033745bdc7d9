"""The eval files of a skill in two tables: outcome evals and trigger queries. Each edit is saved
at once (the whole file, through a temp file), is one step of the tables' undo stack, and is
checked as it is typed: the EV code and where show under the table, and the row is tinted."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.evals import EVAL_COLUMNS, EditableFile, EvalsFile, TriggersFile
from studio.skills import Diagnostic
from studio.skills.checks import evals_problems, triggers_problems
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.evals.tables import Change, EvalsTableModel, EvalTable, TriggersTableModel

_ROW = re.compile(r"(?:^|: )(?:evals)?\[(\d+)\]")


class FileEdit(QUndoCommand):
    """One edit of an eval file, as the data before and after it; each step saves the file."""

    def __init__(self, editor: EvalFilesEditor, file: EditableFile, before: Any, after: Any,
                 text: str, *, rows_changed: bool) -> None:
        super().__init__(text)
        self._editor = editor
        self._file = file
        self._before = before
        self._after = after
        self._first = True
        self._rows_changed = rows_changed

    def redo(self) -> None:
        if self._first:
            # The edit itself is already in the data (a cell's editor may still be open on it).
            self._first = False
            self._editor.file_changed(self._file, reset=self._rows_changed)
            return
        self._file.restore(self._after)
        self._editor.file_changed(self._file, reset=True)

    def undo(self) -> None:
        self._file.restore(self._before)
        self._editor.file_changed(self._file, reset=True)


class UnsavedEdits:
    """An eval file's edits as the recovery copies see them: unsaved only after its save failed
    (the tables save each edit at once), then kept and restored as the file's text.

    Attributes:
        file: the eval file.
        failed: its last save failed.
    """

    def __init__(self, file: EditableFile) -> None:
        self.file = file
        self.failed = False

    @property
    def path(self) -> Path:
        return self.file.path

    @property
    def dirty(self) -> bool:
        return self.failed and not self.file.problem and self.file.text() != self.disk_text

    @property
    def disk_text(self) -> str:
        return (self.file.disk_text or "").replace("\r\n", "\n")

    def text(self) -> str:
        return self.file.text()


class EvalFilesEditor(QTabWidget):
    """The two tables of one skill's eval files.

    Attributes:
        evals, triggers: the eval files as edited.
        undo_stack: the tables' edits.
        unsaved: each file's edits, unsaved when its save failed (for the recovery copies).

    Signals:
        message_shown: (str) something for the user (an edit that could not be saved...).
        unsaved_changed: a file's edits became, or stopped being, unsaved.
    """

    message_shown = Signal(str)
    unsaved_changed = Signal()

    def __init__(self, tab: SkillEditorTab, last_prompt: Callable[[], str | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.tab = tab
        self._last_prompt = last_prompt
        self.undo_stack = QUndoStack(self)
        directory = tab.directory
        self.evals = EvalsFile(directory, tab.doc.skill.name or directory.name)
        self.triggers = TriggersFile(directory)
        self.unsaved = [UnsavedEdits(self.evals), UnsavedEdits(self.triggers)]
        self.evals_model = EvalsTableModel(self.evals, self._edit_evals, self)
        self.triggers_model = TriggersTableModel(self.triggers, self._edit_triggers, self)
        self.evals_view = EvalTable((1, 2, 3))
        self.evals_view.setModel(self.evals_model)
        self.evals_view.setAccessibleName("Evals")
        self.evals_view.horizontalHeader().setStretchLastSection(True)
        self.evals_view.setColumnWidth(0, 50)
        self.evals_view.setColumnWidth(1, 260)
        self.evals_view.setColumnWidth(2, 200)
        self.triggers_view = EvalTable()
        self.triggers_view.setModel(self.triggers_model)
        self.triggers_view.setAccessibleName("Trigger queries")
        self.triggers_view.horizontalHeader().setStretchLastSection(False)
        self.triggers_view.setColumnWidth(1, 110)
        self.triggers_view.horizontalHeader().setSectionResizeMode(
            0, self.triggers_view.horizontalHeader().ResizeMode.Stretch)
        self.editing_buttons: list[QToolButton] = []
        # Each table's buttons sit in the tab bar's corner, the current table's shown: a row of
        # their own cost a table row at 1280x720 (issue 44).
        self.corner = QStackedWidget()
        self.setCornerWidget(self.corner, Qt.Corner.TopRightCorner)
        self.currentChanged.connect(self.corner.setCurrentIndex)
        self.evals_problems = self._problems_label()
        self.triggers_problems = self._problems_label()
        self.addTab(self._page(self.evals_view, self.evals_problems, "eval"), "Outcome Evals")
        self.addTab(self._page(self.triggers_view, self.triggers_problems, "query"),
                    "Trigger Queries")
        for view in (self.evals_view, self.triggers_view):
            view.undo_requested.connect(self.undo_stack.undo)
            view.redo_requested.connect(self.undo_stack.redo)
            view.delegate.closeEditor.connect(self._validate)
        self.evals_view.delegate.draft_changed.connect(self._on_evals_draft_changed)
        self.triggers_view.delegate.draft_changed.connect(self._on_triggers_draft_changed)
        self.reload()

    def _problems_label(self) -> QLabel:
        label = QLabel()
        label.setObjectName("evalProblems")
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.hide()
        return label

    def _page(self, view: EvalTable, problems: QLabel, what: str) -> QWidget:
        page = QWidget()
        add = QToolButton()
        add.setText(f"Add {what.title()}")
        add.setObjectName(f"add_{what}")
        from_chat = QToolButton()
        from_chat.setText("Add from Chat")
        from_chat.setObjectName(f"add_{what}_from_chat")
        from_chat.setToolTip(f"Add a{'n' if what == 'eval' else ''} {what} with the chat's last prompt")
        remove = QToolButton()
        remove.setText("Remove")
        remove.setObjectName(f"remove_{what}")
        undo = QToolButton()
        undo.setText("Undo")
        redo = QToolButton()
        redo.setText("Redo")
        self.undo_stack.canUndoChanged.connect(undo.setEnabled)
        self.undo_stack.canRedoChanged.connect(redo.setEnabled)
        undo.setEnabled(False)
        redo.setEnabled(False)
        undo.clicked.connect(self.undo_stack.undo)
        redo.clicked.connect(self.undo_stack.redo)
        is_eval = what == "eval"
        add.clicked.connect(lambda: self.add_eval() if is_eval else self.add_query())
        from_chat.clicked.connect(lambda: self.add_from_chat(is_eval))
        remove.clicked.connect(lambda: self.remove_selected(view))
        buttons = QWidget()
        row = QHBoxLayout(buttons)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        for button in (add, from_chat, remove, undo, redo):
            row.addWidget(button)
        self.corner.addWidget(buttons)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.addWidget(view, 1)
        layout.addWidget(problems)
        self.editing_buttons += [add, from_chat, remove]
        return page

    # -- the files --------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the eval files again (another program changed them): the undo history goes,
        since it was about the old text."""
        for file in (self.evals, self.triggers):
            # The skill may have been renamed, and its folder with it.
            file.path = self.tab.directory / file.relative
            file.load()
        self.undo_stack.clear()
        self._set_failed(self.evals, False)
        self._set_failed(self.triggers, False)
        read_only = self.tab.read_only
        for model in (self.evals_model, self.triggers_model):
            model.read_only = read_only or bool(model.file.problem)
            model.refresh()
        for tool in self.editing_buttons:
            tool.setEnabled(not read_only)
        self._validate()

    def changed_on_disk(self) -> bool:
        """Whether another program changed either file since the tables read or wrote it."""
        return self.evals.changed_on_disk() or self.triggers.changed_on_disk()

    def _edit_evals(self, text: str, change: Change) -> None:
        self._edit(self.evals, text, change)

    def _edit_triggers(self, text: str, change: Change) -> None:
        self._edit(self.triggers, text, change)

    def _edit(self, file: EditableFile, text: str, change: Change) -> None:
        if file.problem or self.tab.read_only:
            return
        before = file.snapshot()
        rows = len(file.rows())
        if not change():
            return
        self.undo_stack.push(FileEdit(self, file, before, file.snapshot(), text,
                                      rows_changed=len(file.rows()) != rows))

    def _model_of(self, file: EditableFile) -> EvalsTableModel | TriggersTableModel:
        return self.evals_model if file is self.evals else self.triggers_model

    def file_changed(self, file: EditableFile, *, reset: bool) -> None:
        """The data of `file` changed (an edit, undo or redo): show it, save it and check it.
        `reset`: rows came or went, so the table is shown afresh."""
        model = self._model_of(file)
        if reset:
            model.refresh()
        elif model.rowCount():
            model.dataChanged.emit(model.index(0, 0),
                                   model.index(model.rowCount() - 1, model.columnCount() - 1))
        try:
            file.save()
        except OSError as exc:
            self._set_failed(file, True)
            self.message_shown.emit(f"{file.relative} could not be saved: {exc.strerror or exc}. The table "
                      "keeps your edits; fix the folder's permissions and edit again.")
        else:
            self._set_failed(file, False)
        self._validate()
        # The skill's own problems include its eval files': the Problems panel follows.
        self.tab.doc.validate_now()

    def _set_failed(self, file: EditableFile, failed: bool) -> None:
        edits = next(edits for edits in self.unsaved if edits.file is file)
        if edits.failed != failed:
            edits.failed = failed
            self.unsaved_changed.emit()
        elif failed:
            self.unsaved_changed.emit()

    def _check_draft(self, file: EditableFile, change: Change) -> None:
        """Check the file as it would be with what is being typed, without keeping or saving it."""
        if file.problem:
            return
        before = file.snapshot()
        try:
            if change():
                self._validate()
        finally:
            file.restore(before)

    def _on_evals_draft_changed(self, row: int, column: int, text: str) -> None:
        self._check_draft(self.evals,
                          lambda: self.evals.set_cell(row, EVAL_COLUMNS[column], text))

    def _on_triggers_draft_changed(self, row: int, column: int, text: str) -> None:
        if column == 0:
            self._check_draft(self.triggers, lambda: self.triggers.set_query(row, text))

    def _validate(self) -> None:
        for file, label, problems in (
                (self.evals, self.evals_problems,
                 list(evals_problems(self.evals.data, self.tab.doc.skill.name, self.tab.directory))),
                (self.triggers, self.triggers_problems, list(triggers_problems(self.triggers.data)))):
            if file.problem:
                problems = []
            model = self._model_of(file)
            model.set_bad_rows({int(m.group(1)) for d in problems
                                if (m := _ROW.search(d.message)) is not None})
            lines = [file.problem] if file.problem else [_line(d) for d in problems]
            label.setText("\n".join(lines))
            label.setVisible(bool(lines))
        self.setTabText(0, f"Outcome Evals ({len(self.evals.rows())})")
        self.setTabText(1, f"Trigger Queries ({len(self.triggers.rows())})")

    def add_eval(self, prompt: str = "") -> None:
        self._edit(self.evals, "Add eval", lambda: self.evals.add_row(prompt) >= 0)
        self.setCurrentIndex(0)
        self._edit_last(self.evals_view, 1)

    def add_query(self, query: str = "") -> None:
        self._edit(self.triggers, "Add query", lambda: self.triggers.add_row(query) >= 0)
        self.setCurrentIndex(1)
        self._edit_last(self.triggers_view, 0)

    def _edit_last(self, view: EvalTable, column: int) -> None:
        model = view.model()
        index = model.index(model.rowCount() - 1, column)
        view.setCurrentIndex(index)
        view.scrollTo(index)

    def add_from_chat(self, as_eval: bool) -> bool:
        """Add the chat's last prompt as an eval or a trigger query (that should trigger)."""
        prompt = self._last_prompt()
        if not prompt:
            self.message_shown.emit("The chat has no prompt yet: ask something in the Chat pane, "
                                    "then add it.")
            return False
        if as_eval:
            self.add_eval(prompt)
        else:
            self.add_query(prompt)
        return True

    def remove_selected(self, view: EvalTable) -> None:
        rows = sorted({index.row() for index in view.selectionModel().selectedRows()}, reverse=True)
        file = self.evals if view is self.evals_view else self.triggers
        if not rows:
            return

        def remove() -> bool:
            for row in rows:
                file.remove_row(row)
            return True

        self._edit(file, f"Remove {len(rows)} row{'s' if len(rows) > 1 else ''}", remove)


def _line(diagnostic: Diagnostic) -> str:
    return f"{diagnostic.code}: {diagnostic.message}"
