"""The chat store: schema versions, messages committed one by one, history for the model, export."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from studio.chats import (
    ChatStore,
    ChatStoreError,
    ForkNote,
    ForkRecord,
    StoredMessage,
    ToolRecord,
    export_markdown,
    history,
    title_for,
)
from studio.chats.store import MIGRATIONS, SCHEMA_VERSION
from studio.llm import ToolCall
from studio.paths import data_dir


def _card(call_id: str = "c1", **fields: object) -> ToolRecord:
    record = ToolRecord(call_id, "run_skill_script", "demo", "python3 scripts/x.py",
                        {"skill": "demo", "command": "python3 scripts/x.py"},
                        command="python3 scripts/x.py", cwd="/skills/demo")
    for key, value in fields.items():
        setattr(record, key, value)
    return record


def test_the_default_file_is_in_the_data_folder() -> None:
    store = ChatStore()
    assert store.path == data_dir() / "chats.sqlite"
    assert store.path.exists()
    store.close()


def test_a_new_file_gets_the_current_schema_version_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite"
    ChatStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"chats", "messages"} <= tables
    db.close()


def test_a_file_from_a_newer_studio_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE future (x)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(ChatStoreError, match="newer version of Skill Studio"):
        ChatStore(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite"
    path.write_bytes(b"this is not sqlite " * 100)
    store = ChatStore(path)
    assert store.problem is not None and "moved aside" in store.problem
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("chats.sqlite.broken-")]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not sqlite")
    assert store.create_chat().id == 1
    store.close()


def test_chats_round_trip_newest_first(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "c.sqlite")
    first = store.create_chat(title="first", backend="ollama", model="qwen3:0.6b")
    second = store.create_chat(title="second", skills=["csv-profiler"])
    assert [c.title for c in store.chats()] == ["second", "first"]
    store.append(first.id, StoredMessage("user", "hello"))
    assert [c.title for c in store.chats()] == ["first", "second"]
    assert store.chat(second.id) == second
    assert store.chat(first.id).skills is None  # type: ignore[union-attr]
    renamed = store.update_chat(replace(second, title="renamed"))
    assert store.chat(second.id) == renamed
    store.delete_chat(first.id)
    assert [c.id for c in store.chats()] == [second.id]
    assert store.messages(first.id) == []
    store.close()


def test_a_chat_keeps_the_folder_its_new_skills_go_in(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "c.sqlite")
    chat = store.create_chat(title="drafting")
    assert chat.drafts_folder is None
    store.update_chat(replace(chat, drafts_folder=tmp_path / "my skills"))
    store.close()
    again = ChatStore(tmp_path / "c.sqlite")
    assert again.chat(chat.id).drafts_folder == tmp_path / "my skills"  # type: ignore[union-attr]
    again.close()


def test_a_file_from_before_drafts_folders_opens_with_its_chats(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        db.execute(statement)
    db.execute("INSERT INTO chats (title, created, updated) VALUES ('old chat', 1, 1)")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()

    store = ChatStore(path)
    [old] = store.chats()
    assert (old.title, old.drafts_folder) == ("old chat", None)
    store.update_chat(replace(old, drafts_folder=tmp_path))
    assert store.chat(old.id).drafts_folder == tmp_path  # type: ignore[union-attr]
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_messages_and_cards_round_trip(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "c.sqlite")
    chat = store.create_chat()
    call = ToolCall("c1", "run_skill_script", {"skill": "demo", "command": "ls"})
    card = _card(status="ok", output="a\nb\n", result="exit code 0\na\nb\n", exit_code=0,
                 duration=0.25, approval={"choice": "once", "by": "user", "reason": None,
                                          "scope": None})
    saved = [
        store.append(chat.id, StoredMessage("user", "list the files")),
        store.append(chat.id, StoredMessage("assistant", "", thinking="hmm", calls=(call,))),
        store.append(chat.id, StoredMessage("tool", record=card)),
        store.append(chat.id, StoredMessage("notice", "something to know")),
        store.append(chat.id, StoredMessage("assistant", "There are **two** files.")),
    ]
    assert [m.seq for m in saved] == [1, 2, 3, 4, 5]
    again = ChatStore(tmp_path / "c.sqlite").messages(chat.id)
    assert again == saved
    assert again[2].record == card
    store.close()


def test_truncate_forgets_the_tail(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "c.sqlite")
    chat = store.create_chat()
    for text in ("one", "two", "three"):
        store.append(chat.id, StoredMessage("user", text))
    store.truncate(chat.id, 2)
    assert [m.content for m in store.messages(chat.id)] == ["one"]
    assert store.append(chat.id, StoredMessage("user", "again")).seq == 2
    store.close()


def test_a_damaged_row_is_left_out_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    store = ChatStore(path)
    chat = store.create_chat()
    store.append(chat.id, StoredMessage("user", "fine"))
    db = sqlite3.connect(path)
    db.execute("INSERT INTO messages VALUES (?, 2, 'tool', '', NULL, '{not json', 0)", (chat.id,))
    db.execute("INSERT INTO messages VALUES (?, 3, 'wizard', 'x', NULL, NULL, 0)", (chat.id,))
    db.commit()
    db.close()
    assert [m.content for m in store.messages(chat.id)] == ["fine"]
    store.close()


def test_history_gives_every_call_a_result() -> None:
    first = ToolCall("a", "activate_skill", {"name": "demo"})
    second = ToolCall("b", "run_skill_script", {"skill": "demo", "command": "ls"})
    messages = [
        StoredMessage("user", "go"),
        StoredMessage("assistant", "", calls=(first, second)),
        StoredMessage("tool", record=_card("a", tool="activate_skill", result="the body")),
        StoredMessage("notice", "Stopped."),
        StoredMessage("user", "again"),
    ]
    sent = history(messages)
    assert [(m.role, m.tool_call_id) for m in sent] == [
        ("user", None), ("assistant", None), ("tool", "a"), ("tool", "b"), ("user", None)]
    assert sent[2].content == "the body"
    assert "stopped" in sent[3].content
    assert sent[1].tool_calls == [first, second]


def test_export_shows_prompts_answers_and_tool_runs(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "c.sqlite")
    chat = store.create_chat(title="Profile a CSV", backend="ollama", model="qwen3:0.6b",
                             skills=["demo"])
    messages = [
        StoredMessage("user", "profile data.csv"),
        StoredMessage("tool", record=_card(status="denied", result="denied by user: no",
                                           approval={"choice": "deny", "by": "user",
                                                     "reason": "not now", "scope": None})),
        StoredMessage("assistant", "Here it is:\n\n```\n``` inner\n```\n", thinking="plan"),
    ]
    text = export_markdown(chat, messages)
    assert text.startswith("# Profile a CSV\n")
    assert "model `qwen3:0.6b` (ollama)" in text and "skills: `demo`" in text
    assert "## You\n\nprofile data.csv" in text
    assert "- approval: deny by user: not now" in text
    assert "```\npython3 scripts/x.py\n```" in text
    assert "<summary>Thinking</summary>" in text
    store.close()


def test_titles_come_from_the_first_line() -> None:
    assert title_for("\n  Profile data.csv please\nmore") == "Profile data.csv please"
    long = title_for("word " * 40)
    assert long.endswith("…") and len(long) <= 61
    assert title_for("   ") == "New chat"


def test_a_killed_writer_loses_nothing_it_committed(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    script = textwrap.dedent(f"""
        import sys, time, pathlib
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        from studio.chats import ChatStore, StoredMessage
        store = ChatStore(pathlib.Path({str(path)!r}))
        chat = store.create_chat(title="kept")
        for n in range(3):
            store.append(chat.id, StoredMessage("user", f"message {{n}}"))
        print("ready", flush=True)
        time.sleep(60)
    """)
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as child:
        try:
            assert child.stdout is not None
            assert child.stdout.readline() == "ready\n", "the writer ended before it got ready"
            os.kill(child.pid, signal.SIGKILL)
        finally:
            child.kill()
    store = ChatStore(path)
    [chat] = store.chats()
    assert chat.title == "kept"
    assert [m.content for m in store.messages(chat.id)] == ["message 0", "message 1", "message 2"]
    store.close()


def _forked() -> ToolRecord:
    inner = ToolRecord("d1", "activate_skill", "inner", "load skill inner", status="error",
                       result="error: the limit is 3")
    deeper = ForkRecord("inner", "fork", "m:1", items=[ForkNote("text", "deep"), inner],
                        status="answered")
    middle = ToolRecord("c2", "activate_skill", "inner", "load skill inner", status="ok",
                        result="deep", fork=deeper)
    fork = ForkRecord("outer", "fork_with_context", "m:2", "helper", status="answered",
                      items=[ForkNote("notice", "note"), _card("c3", status="ok", output="x\n"),
                             middle, ForkNote("text", "The answer."), ForkNote("error", "oops")])
    return ToolRecord("c1", "activate_skill", "outer", "load skill outer", status="ok",
                      result="The answer.", fork=fork)


def test_a_card_keeps_its_fork_and_the_forks_of_that_fork(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "c.sqlite")
    chat = store.create_chat()
    store.append(chat.id, StoredMessage("tool", record=_forked()))
    [again] = ChatStore(tmp_path / "c.sqlite").messages(chat.id)
    assert again.record == _forked()
    assert again.record.fork is not None and again.record.fork.tool_runs == 2
    store.close()


def test_a_damaged_fork_keeps_what_can_be_read() -> None:
    data = _forked().to_json()
    data["fork"]["items"] += [{"kind": "shout", "text": 1}, "junk", {"call_id": 3}]
    data["fork"]["items"][2]["fork"] = "not a fork"
    record = ToolRecord.from_json(data)
    assert record is not None and record.fork is not None
    assert len(record.fork.items) == 5
    assert record.fork.items[2].fork is None  # type: ignore[union-attr]
    deep: dict[str, object] = {"call_id": "c", "tool": "activate_skill"}
    for _ in range(100):
        deep = {"call_id": "c", "tool": "activate_skill",
                "fork": {"skill": "s", "context": "fork", "model": "m", "items": [deep]}}
    assert ToolRecord.from_json(deep) is not None


def test_export_quotes_a_forks_conversation_under_its_card(tmp_path: Path) -> None:
    chat = ChatStore(tmp_path / "c.sqlite").create_chat(title="Forks")
    text = export_markdown(chat, [StoredMessage("tool", record=_forked())])
    assert ("> **Fork** of skill `outer` (fork_with_context) on `m:2` as the agent `helper`: "
            "answered, 2 tool runs") in text
    assert "> The answer." in text and "> **Error:** oops" in text
    assert "> > **Fork** of skill `inner` (fork) on `m:1`: answered, 1 tool run" in text
    assert "> > - error" in text


def test_a_message_and_record_holding_bytes_that_are_not_utf8_are_saved(tmp_path: Path) -> None:
    store = ChatStore(tmp_path / "chats.sqlite")
    chat = store.create_chat()
    command = "cat \udcff\udcfe.txt"
    call = ToolCall("c1", "run_skill_script", {"skill": "demo", "command": command})
    card = _card(command=command, summary=command, result="no such file: \udcff")
    store.append(chat.id, StoredMessage("assistant", "said \udce9", thinking="\udc80", calls=(call,)))
    store.append(chat.id, StoredMessage("tool", record=card))
    said, tool = store.messages(chat.id)
    assert (said.content, said.thinking) == ("said \\xe9", "\\x80")
    assert said.calls[0].arguments["command"] == command
    assert tool.record is not None and tool.record.command == command
