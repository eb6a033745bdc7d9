"""Saved chats: one SQLite file in the app's data folder, one row per finished message.

Every finished message and every finished tool card is committed as it completes, so a crash or a
kill loses at most the message that was streaming. The file's schema version is SQLite's
`user_version`; opening an older file runs the migrations after its version, and a file from a
newer version of the studio is refused (never rewritten). A file that is not a database at all is
moved aside and a fresh one started, and `problem` says so.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, cast

from studio.fsutil import json_text, utf8_text
from studio.llm.types import Message, ToolCall
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


class ChatStoreError(Exception):
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


@dataclass(slots=True)
class ToolRecord:
    """A tool call as its card shows it, and what went back to the model.

    Attributes:
        status: "requested", "asking", "running", or a `ToolFinished` status (ok, failed,
            blocked, denied, error, timeout, cancelled).
        approval: choice ("once", "always", "deny", "allow"), by ("user", "policy"...), reason
            and scope, once someone or something decided.
        output: what the command printed, as it streamed (empty for the skill tools).
        result: the text the model was given.
        sandbox: what the sandbox let the command do, or that there was none.
        fork: the sub-conversation, when the call started a fork (a `context: fork` skill).
    """

    call_id: str
    tool: str
    skill: str | None = None
    summary: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    command: str | None = None
    cwd: str | None = None
    status: str = "requested"
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    approval: dict[str, str | None] | None = None
    output: str = ""
    result: str = ""
    exit_code: int | None = None
    duration: float | None = None
    truncated: bool = False
    sandbox: str | None = None
    fork: ForkRecord | None = None

    @property
    def finished(self) -> bool:
        return self.status not in ("requested", "asking", "running")

    def to_json(self) -> dict[str, Any]:
        return {
            "call_id": self.call_id, "tool": self.tool, "skill": self.skill,
            "summary": self.summary, "arguments": self.arguments, "command": self.command,
            "cwd": self.cwd, "status": self.status, "reasons": list(self.reasons),
            "warnings": list(self.warnings), "approval": self.approval, "output": self.output,
            "result": self.result, "exit_code": self.exit_code, "duration": self.duration,
            "truncated": self.truncated, "sandbox": self.sandbox,
            "fork": self.fork.to_json() if self.fork is not None else None,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: object, depth: int = 0) -> ToolRecord | None:
        """The record a stored object holds; None when it is not one (a damaged row). `depth`
        counts the forks it is nested in; deeper than forks can go, it is damage too."""
        if not isinstance(data, dict) or depth > MAX_FORK_DEPTH:
            return None
        call_id, tool = data.get("call_id"), data.get("tool")
        if not isinstance(call_id, str) or not isinstance(tool, str):
            return None
        approval = data.get("approval")
        exit_code = data.get("exit_code")
        duration = data.get("duration")
        arguments = data.get("arguments")
        return cls(
            call_id,
            tool,
            _text_or_none(data.get("skill")),
            _text(data.get("summary")),
            dict(arguments) if isinstance(arguments, dict) else {},
            _text_or_none(data.get("command")),
            _text_or_none(data.get("cwd")),
            _text(data.get("status")) or "error",
            _texts(data.get("reasons")),
            _texts(data.get("warnings")),
            {str(k): _text_or_none(v) for k, v in approval.items()} if isinstance(approval, dict) else None,
            _text(data.get("output")),
            _text(data.get("result")),
            exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None,
            float(duration) if isinstance(duration, int | float) and not isinstance(duration, bool) else None,
            data.get("truncated") is True,
            _text_or_none(data.get("sandbox")),
            ForkRecord.from_json(data.get("fork"), depth + 1),
        )


# Far deeper than the agent lets forks nest (`studio.agent.fork.FORK_DEPTH_LIMIT`).
MAX_FORK_DEPTH = 16
ForkNoteKind = Literal["text", "notice", "error"]


@dataclass(slots=True)
class ForkNote:
    """A part of a fork's sub-conversation that is not a tool call: text of its answer, a notice
    or an error."""

    kind: ForkNoteKind
    text: str


@dataclass(slots=True)
class ForkRecord:
    """The sub-conversation of a fork, as its nested card shows it.

    Attributes:
        skill, context, model, agent: the skill that forked, its `context`, the model the fork
            ran on and the saved agent it ran as (None: none).
        items: what the fork said and did, in order; a `ToolRecord`'s own `fork` holds a fork of
            this fork.
        status: "running" until the fork ends, then how it ended ("answered", "error",
            "cancelled", ...).
    """

    skill: str
    context: str
    model: str
    agent: str | None = None
    items: list[ForkNote | ToolRecord] = field(default_factory=list)
    status: str = "running"

    @property
    def tool_runs(self) -> int:
        return sum(isinstance(item, ToolRecord) for item in self.items)

    def call(self, call_id: str) -> ToolRecord | None:
        """The fork's tool call `call_id` (the latest, should a model reuse an id)."""
        return next((item for item in reversed(self.items)
                     if isinstance(item, ToolRecord) and item.call_id == call_id), None)

    def to_json(self) -> dict[str, Any]:
        items = [item.to_json() if isinstance(item, ToolRecord)
                 else {"kind": item.kind, "text": item.text} for item in self.items]
        return {"skill": self.skill, "context": self.context, "model": self.model,
                "agent": self.agent, "status": self.status, "items": items}

    @classmethod
    def from_json(cls, data: object, depth: int = 1) -> ForkRecord | None:
        if not isinstance(data, dict) or depth > MAX_FORK_DEPTH:
            return None
        items: list[ForkNote | ToolRecord] = []
        raw = data.get("items")
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, dict) and item.get("kind") in ("text", "notice", "error"):
                items.append(ForkNote(item["kind"], _text(item.get("text"))))
                continue
            record = ToolRecord.from_json(item, depth)
            if record is not None:
                items.append(record)
        return cls(_text(data.get("skill")), _text(data.get("context")), _text(data.get("model")),
                   _text_or_none(data.get("agent")), items, _text(data.get("status")) or "error")


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


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _texts(value: object) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list) else ()


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
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = self.path.with_name(f"{self.path.name}.broken-{stamp}-{counter}")
        os.replace(self.path, target)
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


def export_markdown(chat: ChatInfo, messages: Sequence[StoredMessage]) -> str:
    """The chat as a Markdown document: prompts, answers, and each tool call with its outcome."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(chat.created))
    lines = [f"# {chat.title}", ""]
    about = [f"Started {when}"]
    if chat.model:
        about.append(f"model `{chat.model}` ({chat.backend})" if chat.backend else f"model `{chat.model}`")
    if chat.skills is not None:
        about.append("skills: " + (", ".join(f"`{s}`" for s in chat.skills) or "none"))
    lines += ["_" + "; ".join(about) + "_", ""]
    for message in messages:
        if message.role == "user":
            lines += ["## You", "", message.content.rstrip(), ""]
        elif message.role == "assistant":
            if not message.content.strip() and not message.thinking:
                continue
            lines += ["## Assistant", ""]
            if message.thinking:
                lines += ["<details><summary>Thinking</summary>", "", message.thinking.strip(), "",
                          "</details>", ""]
            lines += [message.content.rstrip(), ""]
        elif message.role == "tool" and message.record is not None:
            lines += _export_record(message.record)
        elif message.role in ("notice", "error"):
            lines += [f"> **{message.role.capitalize()}:** {message.content}", ""]
    return "\n".join(lines).rstrip() + "\n"


def _fence(text: str) -> str:
    longest = max((len(run) for run in text.split("\n") if set(run) == {"`"}), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}\n{text.rstrip()}\n{ticks}"


def _export_record(record: ToolRecord) -> list[str]:
    head = f"**Tool `{record.tool}`**" + (f" (skill `{record.skill}`)" if record.skill else "")
    lines = [head + f": {record.summary}" if record.summary else head, ""]
    if record.command:
        lines += [_fence(record.command), ""]
    if record.approval:
        approval = record.approval
        line = f"- approval: {approval.get('choice')} by {approval.get('by')}"
        if approval.get("scope"):
            line += f" ({approval['scope']})"
        if approval.get("reason"):
            line += f": {approval['reason']}"
        lines.append(line)
    outcome = f"- {record.status}"
    if record.exit_code is not None:
        outcome += f", exit code {record.exit_code}"
    if record.duration is not None:
        outcome += f", {record.duration:.2f} s"
    lines += [outcome, ""]
    if record.fork is not None:
        lines += [f"> {line}".rstrip() for line in _export_fork(record.fork)] + [""]
    shown = record.output if record.output else record.result
    if shown.strip():
        lines += [_fence(shown), ""]
    return lines


def _export_fork(fork: ForkRecord) -> list[str]:
    """A fork's sub-conversation, to be quoted under the card of the call that started it."""
    agent = f" as the agent `{fork.agent}`" if fork.agent else ""
    lines = [f"**Fork** of skill `{fork.skill}` ({fork.context}) on `{fork.model}`{agent}: "
             f"{fork.status}, {fork.tool_runs} tool run{'' if fork.tool_runs == 1 else 's'}", ""]
    for item in fork.items:
        if isinstance(item, ToolRecord):
            lines += _export_record(item)
        elif item.kind == "text":
            lines += [item.text.strip(), ""]
        else:
            lines += [f"**{item.kind.capitalize()}:** {item.text}", ""]
    return lines[:-1]
