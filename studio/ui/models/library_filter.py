"""Narrowing the library tree by skill name and description, and by status (only skills with
errors, only those with warnings, or only those a model drafted or changed), keeping the roots of
matches."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel

from studio.skills.summary import SkillSummary
from studio.ui.models.library_model import FILTER_ROLE, KIND_ROLE, SUMMARY_ROLE

ALL, ERRORS, WARNINGS, DRAFTED = "", "errors", "warnings", "drafted"
# A skill no agent can load has errors too.
STATUSES = {ERRORS: ("errors", "not-loadable"), WARNINGS: ("warnings",)}


class LibraryFilter(QSortFilterProxyModel):
    """Shows the skills whose name, description or folder holds every word typed and whose
    status is the one picked, with their files."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []
        self._status = ALL
        self.setRecursiveFilteringEnabled(True)
        self.setAutoAcceptChildRows(True)
        self.setDynamicSortFilter(False)

    @property
    def active(self) -> bool:
        return bool(self._words) or bool(self._status)

    def set_text(self, text: str) -> None:
        words = text.lower().split()
        if words == self._words:
            return
        self.beginFilterChange()
        self._words = words
        self.endFilterChange()

    def set_status(self, status: str) -> None:
        """ALL, ERRORS (skills with errors, loadable or not), WARNINGS (valid, with warnings) or
        DRAFTED (created or last changed by a model)."""
        if status == self._status:
            return
        self.beginFilterChange()
        self._status = status
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int,
                         source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self.active:
            return True
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        if model.data(index, KIND_ROLE) != "skill":
            return False
        summary = model.data(index, SUMMARY_ROLE)
        return (isinstance(summary, SkillSummary)
                and self.accepts(summary, str(model.data(index, FILTER_ROLE))))

    def accepts(self, summary: SkillSummary, text: str) -> bool:
        """Whether the skill `summary` describes, whose `filter_text` is `text`, is shown."""
        if self._status == DRAFTED:
            if summary.drafted_by is None:
                return False
        elif self._status and summary.status not in STATUSES[self._status]:
            return False
        return all(word in text for word in self._words)
