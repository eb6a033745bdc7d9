"""Saved chats: one SQLite file in the app's data folder, one row per finished message.

Every finished message and every finished tool card is committed as it completes, so a crash or a
kill loses at most the message that was streaming. The file's schema version is SQLite's
`user_version`; opening an older file runs the migrations after its version, and a file from a
newer version of the studio is refused (never rewritten). A file that is not a database at all is
moved aside and a fresh one started, and `problem` says so.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, cast

from studio.chats.records import ToolRecord
from studio.errors import StudioError
from studio.fsutil import json_text, move_aside, utf8_text
from studio.llm import Message, ToolCall
from studio.paths import data_dir

CHATS_FILE = "chats.sqlite"
DEFAULT_TITLE = "New chat"
TITLE_LENGTH = 60

Role = Literal["user", "assistant", "tool", "notice", "error"]
ROLES: tuple[Role, ...] = ("user", "assistant", "tool", "notice", "error")

# Each entry takes the file from the version before it to its own number (1 from an empty file).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE chats (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            backend TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL DEFAULT '',
            skills TEXT
        )""",
        """CREATE TABLE messages (
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            thinking TEXT,
            tool TEXT,
            created REAL NOT NULL,
            PRIMARY KEY (chat_id, seq)
        )""",
        "CREATE INDEX chats_by_update ON chats (updated)",
    ),
    # The folder a chat's new skills go in, asked once per chat (NULL: not asked yet).
    ("ALTER TABLE chats ADD COLUMN drafts_folder TEXT",),
)
SCHEMA_VERSION = len(MIGRATIONS)


class ChatStoreError(StudioError):
    """The chats file cannot be opened or written; the message says which file and what to do."""


def default_path() -> Path:
    return data_dir() / CHATS_FILE


@dataclass(frozen=True, slots=True)
class ChatInfo:
    """One saved chat.

    Attributes:
        skills: the names of the skills the chat was given, or None for all of the library's.
        drafts_folder: the folder the chat's new skills go in, once the user picked it.
    """

    id: int
    title: str
    created: float
    updated: float
    backend: str = ""
    model: str = ""
    skills: tuple[str, ...] | None = None
    drafts_folder: Path | None = None


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One entry of a chat, in the order it was shown.

    Attributes:
        role: "user", "assistant" (with `calls` when it asked for tools), "tool" (a card, with
            `record`), "notice" or "error" (shown, never sent to the model).
        seq: its place in the chat, given when it is saved.
    """

    role: Role
    content: str = ""
    thinking: str | None = None
    calls: tuple[ToolCall, ...] = ()
    record: ToolRecord | None = None
    seq: int = 0
    created: float = 0.0


def title_for(prompt: str) -> str:
    """A chat's title from its first prompt: the first line, cut at a word near TITLE_LENGTH."""
    line = next((part.strip() for part in prompt.splitlines() if part.strip()), "")
    if not line:
        return DEFAULT_TITLE
    if len(line) <= TITLE_LENGTH:
        return line
    cut = line[:TITLE_LENGTH].rsplit(" ", 1)[0] or line[:TITLE_LENGTH]
    return cut.rstrip(" ,.;:") + "…"


def _tool_column(message: StoredMessage) -> str | None:
    if message.record is not None:
        return json_text({"record": message.record.to_json()})
    if message.calls:
        calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.calls]
        return json_text({"calls": calls})
    return None


def _message_from_row(row: sqlite3.Row) -> StoredMessage | None:
    role = row["role"]
    if role not in ROLES:
        return None
    calls: tuple[ToolCall, ...] = ()
    record: ToolRecord | None = None
    if row["tool"]:
        try:
            tool = json.loads(row["tool"])
        except ValueError:
            tool = None
        if isinstance(tool, dict):
            record = ToolRecord.from_json(tool.get("record")) if "record" in tool else None
            raw_calls = tool.get("calls")
            if isinstance(raw_calls, list):
                calls = tuple(
                    ToolCall.parse(str(c.get("id") or ""), str(c.get("name")), c.get("arguments"))
                    for c in raw_calls if isinstance(c, dict) and isinstance(c.get("name"), str)
                )
    if role == "tool" and record is None:
        return None
    return StoredMessage(
        cast(Role, role), row["content"] or "", row["thinking"], calls, record,
        row["seq"], row["created"],
    )


def _chat_from_row(row: sqlite3.Row) -> ChatInfo:
    skills: tuple[str, ...] | None = None
    if row["skills"] is not None:
        try:
            names = json.loads(row["skills"])
        except ValueError:
            names = None
        if isinstance(names, list):
            skills = tuple(str(name) for name in names)
    folder = row["drafts_folder"]
    return ChatInfo(row["id"], row["title"], row["created"], row["updated"], row["backend"],
                    row["model"], skills,
                    Path(folder) if isinstance(folder, str) and folder else None)


class ChatStore:
    """The saved chats. `path` None means `data_dir()/chats.sqlite`.

    Attributes:
        problem: what went wrong opening the file, when it had to be moved aside; else None.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_path()
        self.problem: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ChatStoreError(self._cannot(f"its folder cannot be made ({exc.strerror or exc})")) from exc
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if not self.path.exists() or isinstance(exc, sqlite3.OperationalError):
                raise ChatStoreError(self._cannot(str(exc))) from exc
            aside = self._move_aside()
            self.problem = (
                f"{self.path} could not be read as a chats file ({exc}); it was moved aside to "
                f"{aside.name} and a new one started"
            )
            self._db = self._open()

    def _cannot(self, why: str) -> str:
        return f"cannot open the chats file {self.path}: {why}. Chats will not be saved until it can."

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA foreign_keys = ON")
            self._check_version(db)
            db.execute("PRAGMA journal_mode = WAL")
            # A killed app keeps every committed row in WAL mode; only a power cut could lose the last.
            db.execute("PRAGMA synchronous = NORMAL")
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _check_version(self, db: sqlite3.Connection) -> None:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise ChatStoreError(
                f"{self.path} was written by a newer version of Skill Studio (schema {version}, this "
                f"one knows up to {SCHEMA_VERSION}); it is left as it is. Update the studio to see "
                "those chats."
            )

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        for number in range(version, SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _move_aside(self) -> Path:
        target = move_aside(self.path)
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        return target

    def close(self) -> None:
        self._db.close()

    def _write(self, sql: str, parameters: Sequence[object] = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, parameters)
        except sqlite3.Error as exc:
            raise ChatStoreError(f"cannot save to the chats file {self.path}: {exc}") from exc

    # -- chats ------------------------------------------------------------------------------------

    def create_chat(self, *, title: str = DEFAULT_TITLE, backend: str = "", model: str = "",
                    skills: Sequence[str] | None = None) -> ChatInfo:
        now = time.time()
        names = tuple(skills) if skills is not None else None
        cursor = self._write(
            "INSERT INTO chats (title, created, updated, backend, model, skills) VALUES (?, ?, ?, ?, ?, ?)",
            (title, now, now, backend, model, None if names is None else json.dumps(list(names))),
        )
        chat_id = cursor.lastrowid
        assert chat_id is not None
        return ChatInfo(chat_id, title, now, now, backend, model, names)

    def chats(self) -> list[ChatInfo]:
        """Every chat, the most recently used first."""
        rows = self._db.execute("SELECT * FROM chats ORDER BY updated DESC, id DESC").fetchall()
        return [_chat_from_row(row) for row in rows]

    def chat(self, chat_id: int) -> ChatInfo | None:
        row = self._db.execute("SELECT * FROM chats WHERE id = ?", (chat_id,)).fetchone()
        return _chat_from_row(row) if row is not None else None

    def update_chat(self, chat: ChatInfo) -> ChatInfo:
        """Save the chat's title, backend, model, skills and drafts folder; it becomes the most
        recent."""
        updated = replace(chat, updated=max(time.time(), chat.updated))
        skills = None if chat.skills is None else json.dumps(list(chat.skills))
        folder = None if chat.drafts_folder is None else str(chat.drafts_folder)
        self._write(
            "UPDATE chats SET title = ?, updated = ?, backend = ?, model = ?, skills = ?, "
            "drafts_folder = ? WHERE id = ?",
            (updated.title, updated.updated, updated.backend, updated.model, skills, folder,
             chat.id),
        )
        return updated

    def delete_chat(self, chat_id: int) -> None:
        self._write("DELETE FROM chats WHERE id = ?", (chat_id,))

    # -- messages ---------------------------------------------------------------------------------

    def append(self, chat_id: int, message: StoredMessage) -> StoredMessage:
        """Save a finished message at the end of the chat (committed at once); returns it with
        its `seq` and time."""
        now = time.time()
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                row = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE chat_id = ?", (chat_id,)
                ).fetchone()
                seq = int(row[0])
                self._db.execute(
                    "INSERT INTO messages (chat_id, seq, role, content, thinking, tool, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (chat_id, seq, message.role, utf8_text(message.content),
                     None if message.thinking is None else utf8_text(message.thinking),
                     _tool_column(message), now),
                )
                self._db.execute("UPDATE chats SET updated = ? WHERE id = ?", (now, chat_id))
        except sqlite3.Error as exc:
            raise ChatStoreError(f"cannot save to the chats file {self.path}: {exc}") from exc
        return replace(message, seq=seq, created=now)

    def messages(self, chat_id: int) -> list[StoredMessage]:
        """The chat's messages in order; rows this version cannot read are left out."""
        rows = self._db.execute(
            "SELECT * FROM messages WHERE chat_id = ? ORDER BY seq", (chat_id,)
        ).fetchall()
        return [m for m in map(_message_from_row, rows) if m is not None]

    def truncate(self, chat_id: int, from_seq: int) -> None:
        """Forget the messages from `from_seq` on (to answer the last prompt again)."""
        self._write("DELETE FROM messages WHERE chat_id = ? AND seq >= ?", (chat_id, from_seq))


def history(messages: Sequence[StoredMessage]) -> list[Message]:
    """The chat as the model sees it: prompts, answers with their calls, and a result for every
    call (calls cut short by Stop get one saying so, as servers want a result for each call)."""
    result: list[Message] = []
    pending: list[ToolCall] = []

    def close_pending() -> None:
        for call in pending:
            result.append(Message("tool", "not run: the user stopped the chat before it ran",
                                  tool_name=call.name, tool_call_id=call.id))
        pending.clear()

    for message in messages:
        if message.role == "tool" and message.record is not None:
            record = message.record
            pending[:] = [c for c in pending if c.id != record.call_id]
            result.append(Message("tool", record.result, tool_name=record.tool,
                                  tool_call_id=record.call_id))
            continue
        if message.role not in ("user", "assistant"):
            continue
        close_pending()
        result.append(Message(message.role, message.content, list(message.calls),
                              thinking=message.thinking))
        pending.extend(message.calls)
    close_pending()
    return result
