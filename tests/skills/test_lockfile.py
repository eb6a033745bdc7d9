"""skills-lock.json in the skills CLI's shape: read, keep, migrate, refuse, hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.skills.install.lockfile import (
    LOCK_FILE,
    InstallRecord,
    LockError,
    computed_hash,
    lock_path,
    read_lock,
    read_lock_file,
    record_install,
)

# What the skills CLI (vercel-labs/skills) writes at a project's root, plus keys we do not know.
CLI_LOCK = {
    "version": 1,
    "skills": {
        "pdf": {"source": "anthropics/skills", "sourceType": "github",
                "computedHash": "ab" * 32, "someday": {"x": 1}},
    },
    "futureTopLevel": [1, 2],
}


def test_an_install_keeps_every_entry_and_key_of_the_cli_lock_file(tmp_path: Path) -> None:
    into = tmp_path / ".agents" / "skills"
    (into / "mine").mkdir(parents=True)
    (into / "mine" / "SKILL.md").write_text("x", encoding="utf-8")
    (tmp_path / LOCK_FILE).write_text(json.dumps(CLI_LOCK), encoding="utf-8")
    assert lock_path(into) == tmp_path / LOCK_FILE
    record_install(into, InstallRecord("mine", "https://e.org/p.zip", "archive",
                                       computed_hash(into / "mine"), None, {"url": "https://e.org/p.zip"}))
    data = json.loads((tmp_path / LOCK_FILE).read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["futureTopLevel"] == [1, 2]
    assert data["skills"]["pdf"] == CLI_LOCK["skills"]["pdf"]  # type: ignore[index]
    assert list(data["skills"]) == ["mine", "pdf"]
    assert data["skills"]["mine"]["studio"] == {"url": "https://e.org/p.zip"}
    assert [(r.name, r.installed_by) for r in read_lock(into)] == [
        ("mine", "studio"), ("pdf", "skills CLI")]


def test_replacing_an_entry_keeps_the_keys_we_do_not_set(tmp_path: Path) -> None:
    (tmp_path / LOCK_FILE).write_text(json.dumps(CLI_LOCK), encoding="utf-8")
    lock = read_lock_file(tmp_path / LOCK_FILE)
    lock.put(InstallRecord("pdf", "anthropics/skills", "github", "cd" * 32, "v2", {"url": "u"}))
    lock.write()
    entry = json.loads((tmp_path / LOCK_FILE).read_text(encoding="utf-8"))["skills"]["pdf"]
    assert entry == {"source": "anthropics/skills", "sourceType": "github", "computedHash": "cd" * 32,
                     "someday": {"x": 1}, "ref": "v2", "studio": {"url": "u"}}


def test_our_old_installs_list_is_migrated_without_losing_a_skill(tmp_path: Path) -> None:
    (tmp_path / "alpha").mkdir()
    (tmp_path / "alpha" / "SKILL.md").write_text("a", encoding="utf-8")
    old = {"version": 1, "installs": [
        {"url": "https://e.org/a.zip", "sha256": "0" * 64, "installed_at": "2026-01-01T00:00:00+00:00",
         "skills": ["alpha", "gone"]}]}
    (tmp_path / LOCK_FILE).write_text(json.dumps(old), encoding="utf-8")
    records = read_lock(tmp_path)
    assert [(r.name, r.url, r.source_type) for r in records] == [
        ("alpha", "https://e.org/a.zip", "archive"), ("gone", "https://e.org/a.zip", "archive")]
    assert records[0].computed_hash == computed_hash(tmp_path / "alpha")
    assert records[0].studio["sha256"] == "0" * 64
    lock = read_lock_file(tmp_path / LOCK_FILE)
    lock.write()
    data = json.loads((tmp_path / LOCK_FILE).read_text(encoding="utf-8"))
    assert "installs" not in data and sorted(data["skills"]) == ["alpha", "gone"]


@pytest.mark.parametrize("content", [
    b"{not json", b"[1, 2]", b'{"version": 1, "skills": []}', b"\xff\xfe{}",
    b'{"version": 1, "installs": {}}',
])
def test_a_lock_file_we_do_not_understand_is_an_error_and_stays_as_it_was(
    tmp_path: Path, content: bytes
) -> None:
    (tmp_path / LOCK_FILE).write_bytes(content)
    with pytest.raises(LockError, match=r"skills-lock\.json"):
        read_lock(tmp_path)
    assert (tmp_path / LOCK_FILE).read_bytes() == content


def test_an_unreadable_lock_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / LOCK_FILE).mkdir()
    with pytest.raises(LockError, match="cannot read"):
        read_lock(tmp_path)


def test_the_folder_hash_equals_the_skills_cli_one(tmp_path: Path) -> None:
    """The expected value was computed by the CLI's computeSkillFolderHash (Node, localeCompare
    order) over this same tree: .git and node_modules skipped, links skipped, dot files kept."""
    skill = tmp_path / "s"
    for relative, text in {"SKILL.md": "skill\n", "scripts/run.sh": "#!/bin/sh\n", "_a.txt": "u",
                           "a-b.md": "d", "B.md": "B", "b.md": "b", "10.txt": "ten",
                           "references/x.md": "x", ".git/HEAD": "ignored",
                           "node_modules/m.js": "n", ".hidden": "dot"}.items():
        (skill / relative).parent.mkdir(parents=True, exist_ok=True)
        (skill / relative).write_text(text, encoding="utf-8")
    (skill / "link.md").symlink_to("SKILL.md")
    assert computed_hash(skill) == "a46122c6e47390d2124ed1719daff5cc47c04113a171b7f93b847882b47b7341"
