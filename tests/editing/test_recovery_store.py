"""Copies of unsaved edits: written by one session, offered to the next only once its process is
gone, claimed by one newcomer only, and junk set aside instead of crashing."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from studio.editing.recovery import (
    HALF_MADE_AGE,
    OPEN_TABS_FILE,
    UNREADABLE_FOLDER,
    DiskState,
    OpenTab,
    RecoveredEntry,
    RecoveryRecord,
    RecoveryStore,
    RecoveryWriter,
    record_key,
    text_digest,
)


def _record(path: Path, text: str = "edited ✓\n", disk: str = "on disk\n") -> RecoveryRecord:
    return RecoveryRecord("skill", path, text, time.time(), text_digest(disk))


def _crashed(root: Path, *records: RecoveryRecord) -> None:
    """A session that wrote `records` and whose process then went away."""
    store = RecoveryStore(root)
    for record in records:
        store.session.write(record_key(record.kind, str(record.path)), record)
    store.session.close()


def test_a_dead_sessions_records_are_offered_and_removed(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    record = _record(tmp_path / "a" / "SKILL.md")
    _crashed(root, record)

    claims = RecoveryStore(root).claim_orphans()
    assert [entry.record for claim in claims for entry in claim.entries] == [record]
    for claim in claims:
        for entry in list(claim.entries):
            claim.remove(entry)
        claim.release()
    assert os.listdir(root) == []
    assert RecoveryStore(root).claim_orphans() == []


def test_a_live_sessions_records_are_not_offered(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    running = RecoveryStore(root)
    running.session.write("skill-x", _record(tmp_path / "x" / "SKILL.md"))

    assert RecoveryStore(root).claim_orphans() == []

    running.session.close()
    [claim] = RecoveryStore(root).claim_orphans()
    assert len(claim.entries) == 1


def test_two_newcomers_never_both_claim_one_session(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    _crashed(root, _record(tmp_path / "a" / "SKILL.md"))
    first = RecoveryStore(root).claim_orphans()
    assert len(first) == 1
    assert RecoveryStore(root).claim_orphans() == []
    first[0].release()
    assert len(RecoveryStore(root).claim_orphans()) == 1


def test_sessions_are_separate_so_two_processes_never_clobber(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    path = tmp_path / "a" / "SKILL.md"
    one, two = RecoveryStore(root), RecoveryStore(root)
    one.session.write("skill-a", _record(path, "one's text\n"))
    two.session.write("skill-a", _record(path, "two's text\n"))
    one.session.close()
    two.session.close()
    claims = RecoveryStore(root).claim_orphans()
    assert sorted(entry.record.text for claim in claims for entry in claim.entries) == [
        "one's text\n", "two's text\n"]


def test_a_session_without_records_leaves_no_folder(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    store = RecoveryStore(root)
    store.session.write("skill-a", _record(tmp_path / "SKILL.md"))
    store.session.discard("skill-a")
    store.session.discard("skill-a")
    store.session.close()
    assert os.listdir(root) == []


@pytest.mark.parametrize("content", [
    b"{", b"\xff\xfe", b"[]", b'{"format": 99}',
    b'{"format": 1, "kind": "virus", "path": "/x", "text": "", "saved_at": 1}',
    b'{"format": 1, "kind": "skill", "path": 7, "text": "", "saved_at": 1}',
    b'{"format": 1, "kind": "skill", "path": "/x", "text": "", "saved_at": true}',
    b'{"format": 1, "kind": "skill", "path": "/x", "text": "", "saved_at": 1, "name": []}',
])
def test_an_unreadable_record_is_set_aside_with_a_reason(tmp_path: Path, content: bytes) -> None:
    root = tmp_path / "recovery"
    good = _record(tmp_path / "a" / "SKILL.md")
    _crashed(root, good)
    [session] = [name for name in os.listdir(root)]
    (root / session / "skill-broken.json").write_bytes(content)

    [claim] = RecoveryStore(root).claim_orphans()
    assert [entry.record for entry in claim.entries] == [good]
    [bad] = claim.unreadable
    assert bad.file == root / UNREADABLE_FOLDER / f"{session}-skill-broken.json"
    assert bad.file.read_bytes() == content
    assert str(bad.file) in bad.message and bad.reason in bad.message
    claim.release()
    [again] = RecoveryStore(root).claim_orphans()
    assert again.unreadable == []


def test_a_link_in_place_of_a_record_is_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    _crashed(root, _record(tmp_path / "a" / "SKILL.md"))
    [session] = os.listdir(root)
    secret = tmp_path / "secret.json"
    secret.write_bytes(_record(tmp_path / "b" / "SKILL.md").to_bytes())
    (root / session / "skill-link.json").symlink_to(secret)

    [claim] = RecoveryStore(root).claim_orphans()
    assert [entry.record.path.parent.name for entry in claim.entries] == ["a"]
    assert len(claim.unreadable) == 1
    assert secret.exists()


def test_a_session_that_died_while_being_made_is_cleared_only_when_old(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    fresh, old = root / ".new-1-aa", root / ".new-2-bb"
    for folder in (fresh, old):
        folder.mkdir(parents=True)
    long_ago = time.time() - HALF_MADE_AGE - 5
    os.utime(old, (long_ago, long_ago))
    assert RecoveryStore(root).claim_orphans() == []
    assert fresh.is_dir() and not old.exists()


def test_a_folder_that_cannot_be_made_raises_for_the_caller_to_report(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    root.write_text("a file where the folder should be", encoding="utf-8")
    store = RecoveryStore(root)
    with pytest.raises(OSError):
        store.session.write("skill-a", _record(tmp_path / "SKILL.md"))
    assert store.claim_orphans() == []


def test_records_keep_any_path_and_text(tmp_path: Path) -> None:
    odd = tmp_path / "caf\udce9" / "SKILL.md"
    record = RecoveryRecord("draft", odd, "line\r\n\u2028 \x00 ✓", 5.0, None, "my-skill")
    assert RecoveryRecord.from_bytes(record.to_bytes()) == record
    assert json.loads(record.to_bytes())["format"] == 1


def test_the_disk_state_says_whether_the_file_changed_since(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"one\r\ntwo\r\n")
    entry = RecoveredEntry(_record(path, "one\nthree\n", disk="one\ntwo\n"), tmp_path / "r.json")
    assert entry.disk_state() is DiskState.SAME
    compared = entry.compare()
    assert "-two\n" in compared and "+three\n" in compared

    path.write_text("one\nchanged elsewhere\n", encoding="utf-8")
    assert entry.disk_state() is DiskState.CHANGED
    path.unlink()
    assert entry.disk_state() is DiskState.GONE
    draft = RecoveredEntry(RecoveryRecord("draft", path, "x\n", 1.0, None, "d"), path)
    assert draft.disk_state() is DiskState.NEVER_SAVED
    assert "+x\n" in draft.compare()


def test_the_writer_keeps_the_order_asked_and_tells_failures(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    store = RecoveryStore(root)
    writer = RecoveryWriter(store.session)
    record = _record(tmp_path / "SKILL.md")
    for _ in range(20):
        writer.write("skill-a", record)
        writer.discard("skill-a")
    writer.write("skill-b", record)
    assert writer.wait()
    assert store.session.folder is not None
    assert sorted(path.name for path in store.session.folder.glob("*.json")) == ["skill-b.json"]
    writer.close()
    assert len(RecoveryStore(root).claim_orphans()) == 1

    blocked = tmp_path / "blocked"
    blocked.write_text("", encoding="utf-8")
    failing = RecoveryWriter(RecoveryStore(blocked).session)
    future = failing.write("skill-a", record)
    assert not failing.wait()
    assert isinstance(future.exception(), OSError)
    assert failing.wait()
    failing.close()


def test_the_open_tabs_are_kept_with_the_records_and_read_back(tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    store = RecoveryStore(root)
    tabs = [OpenTab("skill", tmp_path / "a"), OpenTab("file", tmp_path / "a" / "notes ✓.md")]
    store.session.set_open_tabs(tabs)
    assert not root.exists(), "no session is made for the list alone"
    _crashed_with(store, _record(tmp_path / "a" / "SKILL.md"))

    (claim,) = RecoveryStore(root).claim_orphans()
    assert claim.open_tabs == tabs
    claim.release()


@pytest.mark.parametrize("content", [
    b"not json", b"{}", b'[{"kind": "draft", "path": "/x"}]', b'[{"kind": "skill", "path": "x"}]',
    b'[{"kind": "skill"}]', b'["/a"]', json.dumps([{"kind": "file", "path": "/a"}] * 2000).encode(),
])
def test_a_list_of_tabs_that_is_not_ours_reopens_nothing(tmp_path: Path, content: bytes) -> None:
    root = tmp_path / "recovery"
    store = RecoveryStore(root)
    _crashed_with(store, _record(tmp_path / "a" / "SKILL.md"))
    (folder,) = [child for child in root.iterdir() if child.is_dir()]
    (folder / OPEN_TABS_FILE).write_bytes(content)

    (claim,) = RecoveryStore(root).claim_orphans()
    assert claim.open_tabs == [] and len(claim.entries) == 1
    claim.release()


def _crashed_with(store: RecoveryStore, record: RecoveryRecord) -> None:
    """Write a record and go away without closing the session (its folder and list stay)."""
    store.session.write(record_key(record.kind, str(record.path)), record)
    folder = store.session.folder
    assert folder is not None
    # Only the lock goes with the process: the folder stays as a crash leaves it.
    store.session.folder = None
    store.session.close()
