"""What every model here shares: the index type Qt passes, and the invalid (top-level) index."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex

Index = QModelIndex | QPersistentModelIndex

# The top level's parent; a shared default, since building one per call is needless and Qt's
# invalid index is never modified.
NO_PARENT = QModelIndex()
