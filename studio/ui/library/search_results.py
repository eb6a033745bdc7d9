"""The library panel's search results: a list model over the core's `SearchHit`s, best first."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from studio.skills.search import SearchHit
from studio.ui.library.library_rows import root_labels

HIT_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


class SearchResultsModel(QAbstractListModel):
    """One row per hit: the name and the matching words (a `[...]` marks each), the folder in a
    tooltip; `HIT_ROLE` gives the hit itself. Hits that share a name show as much of their
    folders' paths as tells them apart."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hits: list[SearchHit] = []
        self._where: dict[Path, str] = {}

    def set_hits(self, hits: list[SearchHit]) -> None:
        self.beginResetModel()
        self._hits = list(hits)
        names = Counter(hit.name for hit in self._hits)
        shared = [hit.path for hit in self._hits if names[hit.name] > 1]
        self._where = dict(zip(shared, root_labels(shared), strict=True))
        self.endResetModel()

    def hits(self) -> list[SearchHit]:
        return list(self._hits)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._hits)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._hits):
            return None
        hit = self._hits[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            snippet = " ".join(hit.snippet.split())
            where = self._where.get(hit.path)
            title = f"{hit.name}  ({where})" if where else hit.name
            return f"{title}\n{snippet}" if snippet else title
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{hit.path}\nscore {hit.score:.3f}"
        if role == HIT_ROLE:
            return hit
        return None
