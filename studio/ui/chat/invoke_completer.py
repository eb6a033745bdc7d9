"""Completing `/NAME` and `$NAME` in the chat's message box: typing `/` or `$` at the start lists
the skills the user may invoke by name (not those with `user-invocable: false`); picking one puts
`/NAME ` in the box for the arguments. The core session does the invoking
(`studio.agent.invoke`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QCompleter, QPlainTextEdit

from studio.agent import PREFIXES
from studio.skills import SkillSummary

_TYPING_A_NAME = re.compile(r"\s*([/$])([\w.-]*)")


def invocable_names(skills: Sequence[SkillSummary]) -> list[tuple[str, str]]:
    """The names and descriptions of the skills the user may invoke, each name once."""
    seen: dict[str, str] = {}
    for summary in skills:
        if summary.name and summary.loadable and summary.user_invocable:
            seen.setdefault(summary.name, summary.description or "")
    return sorted(seen.items())


class InvocationCompleter(QCompleter):
    """A completer for a message box, fed by `source` (names and descriptions) when asked."""

    def __init__(self, editor: QPlainTextEdit,
                 source: Callable[[], Sequence[tuple[str, str]]]) -> None:
        super().__init__(editor)
        self.editor = editor
        self.source = source
        self.names = QStringListModel(self)
        self.setModel(self.names)
        self.setWidget(editor)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setMaxVisibleItems(12)
        self.activated.connect(self._on_self_activated)
        editor.textChanged.connect(self._on_editor_text_changed)

    def list_view(self) -> QAbstractItemView:
        view = self.popup()
        assert view is not None  # a completer always has its popup
        return view

    def showing(self) -> bool:
        return self.list_view().isVisible()

    def _on_editor_text_changed(self) -> None:
        typed = _TYPING_A_NAME.fullmatch(self.editor.toPlainText())
        if typed is None:
            self.list_view().hide()
            return
        prefix = typed.group(1)
        self.names.setStringList([f"{prefix}{name}" for name, _ in self.source()])
        self.setCompletionPrefix(prefix + typed.group(2))
        if self.completionCount() == 0:
            self.list_view().hide()
            return
        rect = self.editor.cursorRect()
        view = self.list_view()
        bar = view.verticalScrollBar()
        rect.setWidth(max(240, view.sizeHintForColumn(0)
                          + (bar.sizeHint().width() if bar is not None else 0)))
        self.complete(rect)

    def _on_self_activated(self, text: str) -> None:
        if not text.startswith(PREFIXES):
            return
        self.editor.setPlainText(text + " ")
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)
        self.list_view().hide()
