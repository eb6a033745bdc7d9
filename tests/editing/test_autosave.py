"""Unsaved edits kept beside the settings: written, listed, discarded, junk ignored."""

from __future__ import annotations

from pathlib import Path

from studio.editing.autosave import AutosaveStore


def test_autosave_store(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path / "auto")
    target = tmp_path / "a" / "SKILL.md"
    store.write(target, "text ✓")
    (tmp_path / "auto" / "junk.json").write_text("{", encoding="utf-8")
    entries = store.entries()
    assert [(e.path, e.text, e.kind) for e in entries] == [(target, "text ✓", "skill")]
    store.discard(target)
    store.discard(target)
    assert store.entries() == []
