"""The saved chats as a list model for the chat picker: a "New chat" row, then the chats, the most
recently used first. It adapts the store's `ChatInfo`s; `refresh` reads them again."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from studio.chats import ChatInfo, ChatStore

NEW_CHAT_LABEL = "New chat"
CHAT_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


def when(stamp: float, now: float | None = None) -> str:
    """A short time: the hour today, else the date."""
    now = now if now is not None else time.time()
    moment = time.localtime(stamp)
    if time.strftime("%Y-%m-%d", moment) == time.strftime("%Y-%m-%d", time.localtime(now)):
        return time.strftime("%H:%M", moment)
    return time.strftime("%Y-%m-%d", moment)


class ChatListModel(QAbstractListModel):
    def __init__(self, store: ChatStore | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._chats: list[ChatInfo] = []
        self.refresh()

    def refresh(self) -> None:
        self.beginResetModel()
        self._chats = self.store.chats() if self.store is not None else []
        self.endResetModel()

    def chats(self) -> list[ChatInfo]:
        return list(self._chats)

    def row_of(self, chat_id: int | None) -> int:
        """The row of a chat; 0 (the "New chat" row) for None or an unknown id."""
        for row, chat in enumerate(self._chats, 1):
            if chat.id == chat_id:
                return row
        return 0

    def chat_at(self, row: int) -> ChatInfo | None:
        return self._chats[row - 1] if 1 <= row <= len(self._chats) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._chats) + 1

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        chat = self.chat_at(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            return NEW_CHAT_LABEL if chat is None else f"{chat.title}  ·  {when(chat.updated)}"
        if role == Qt.ItemDataRole.ToolTipRole and chat is not None:
            model = f"\n{chat.model} ({chat.backend})" if chat.model else ""
            return f"{chat.title}{model}"
        if role == CHAT_ROLE:
            return chat
        return None
