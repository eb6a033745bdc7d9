"""Saved chats: the SQLite store, the records of tool calls it keeps, and the Markdown export.

It stores and knows no agent internals: `studio.agent.records` fills the records in from a
turn's events, and the agent and the window import this package, never the reverse.
"""

from studio.chats.export import export_markdown
from studio.chats.records import (
    ForkNote,
    ForkNoteKind,
    ForkRecord,
    HeldFileRecord,
    ToolRecord,
    WritesRecord,
)
from studio.chats.store import ChatInfo, ChatStore, ChatStoreError, StoredMessage, history, title_for

__all__ = [
    "ChatInfo",
    "ChatStore",
    "ChatStoreError",
    "ForkNote",
    "ForkNoteKind",
    "ForkRecord",
    "HeldFileRecord",
    "StoredMessage",
    "ToolRecord",
    "WritesRecord",
    "export_markdown",
    "history",
    "title_for",
]
