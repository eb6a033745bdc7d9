"""The preview of a fix of every finding of one code: the skills it changes, the diff of the one
picked (made only when it is picked, so 2,400 skills open at once), and those left out, why."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListView,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.editing import BatchPlan
from studio.skills.checks import fixes
from studio.ui.editor.diff_highlighter import DiffHighlighter
from studio.ui.fit import resize_within_screen
from studio.ui.indexes import NO_PARENT, Index
from studio.ui.numbers import count_text, plural

SHOWN_TITLES = 3
# The skills given to the list at first, and a page more each time it scrolls to its end: the
# list lays out every row it is given, and 77,000 held the window for most of a second.
PLANS_PAGE = 500


class PlansModel(QAbstractListModel):
    """One row per skill the step changes: its folder name, and what is applied as a tooltip."""

    def __init__(self, plans: list[fixes.FixPlan], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._plans = plans
        self._given = min(len(plans), PLANS_PAGE)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        return 0 if parent.isValid() else self._given

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._given < len(self._plans)

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            more = min(len(self._plans), self._given + PLANS_PAGE)
            self.beginInsertRows(QModelIndex(), self._given, more - 1)
            self._given = more
            self.endInsertRows()

    def plan(self, row: int) -> fixes.FixPlan | None:
        return self._plans[row] if 0 <= row < self._given else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        plan = self.plan(index.row()) if index.isValid() else None
        if plan is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return plan.skill_file.parent.name
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{plan.skill_file}\n" + "\n".join(plan.applied)
        return None


def headline(batch: BatchPlan) -> str:
    titles: dict[str, None] = {}
    for plan in batch.plans:
        for label in plan.applied:
            titles.setdefault(label.split(": ", 1)[-1], None)
        if len(titles) > SHOWN_TITLES:
            break  # enough to know there are more than shown (77,000 plans took 0.1 s)
    shown = list(titles)[:SHOWN_TITLES]
    more = "; …" if len(titles) > SHOWN_TITLES else ""
    what = "; ".join(shown) + more if shown else f"Fix {batch.code}"
    return f"{what} — in {plural(len(batch.plans), 'skill')}"


class FixPreviewDialog(QDialog):
    """Shows a `BatchPlan` and asks whether to apply it (Accepted: apply)."""

    def __init__(self, batch: BatchPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.batch = batch
        self.setWindowTitle(f"Fix Every {batch.code}")
        resize_within_screen(self, 980, 620)
        self.headline = QLabel(headline(batch))
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.note = QLabel("The fixes are applied as one step: Edit ▸ Undo puts every file back "
                           "as it was, except files changed again since.")
        self.note.setWordWrap(True)

        self.model = PlansModel(batch.plans, self)
        self.skills = QListView()
        self.skills.setModel(self.model)
        self.skills.setUniformItemSizes(True)
        self.skills.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.diff = QPlainTextEdit()
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff.setPlaceholderText("Pick a skill to see what changes in it.")
        self._highlighter = DiffHighlighter(self.diff.document())
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.skills)
        splitter.addWidget(self.diff)
        splitter.setSizes([260, 720])

        left_out = batch.left_out
        self.left_out_label = QLabel(
            f"{plural(len(left_out), 'skill')} left out:" if left_out else "")
        self.left_out = QPlainTextEdit()
        self.left_out.setReadOnly(True)
        self.left_out.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.left_out.setPlainText("\n".join(f"{item.directory.name}: {item.reason}"
                                             for item in left_out))
        self.left_out.setMaximumHeight(110)
        self.left_out_label.setVisible(bool(left_out))
        self.left_out.setVisible(bool(left_out))

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        apply = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        apply.setText(f"Apply to {plural(len(batch.plans), 'Skill')}")
        apply.setEnabled(bool(batch.plans))
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.note)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.left_out_label)
        layout.addWidget(self.left_out)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.skills.selectionModel().currentChanged.connect(self._on_skills_current_changed)
        if batch.plans:
            self.skills.setCurrentIndex(self.model.index(0, 0))

    def shown_diff(self) -> str:
        return self.diff.toPlainText()

    def _on_skills_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        plan = self.model.plan(current.row())
        self.diff.setPlainText(plan.diff() if plan is not None else "")
        if plan is not None:
            self.diff.setToolTip(f"{count_text(len(plan.applied))} change(s) in {plan.skill_file}")
