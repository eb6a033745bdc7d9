"""Narrowing the library tree by skill name and description, keeping the roots of matches."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel

from studio.ui.models.library_model import FILTER_ROLE, KIND_ROLE


class LibraryFilter(QSortFilterProxyModel):
    """Shows the skills whose name, description or folder holds every word typed, with their files."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []
        self.setRecursiveFilteringEnabled(True)
        self.setAutoAcceptChildRows(True)
        self.setDynamicSortFilter(False)

    @property
    def active(self) -> bool:
        return bool(self._words)

    def set_text(self, text: str) -> None:
        words = text.lower().split()
        if words == self._words:
            return
        self.beginFilterChange()
        self._words = words
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int,
                         source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self._words:
            return True
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        if model.data(index, KIND_ROLE) != "skill":
            return False
        return self.matches(str(model.data(index, FILTER_ROLE)))

    def matches(self, text: str) -> bool:
        """Whether a skill whose `filter_text` is `text` is shown."""
        return all(word in text for word in self._words)
