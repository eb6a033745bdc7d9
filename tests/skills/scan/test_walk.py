"""Which folders the search for skills goes into: clients' dot folders yes, caches and virtual
environments no."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.skills.files import CLIENT_FOLDERS
from studio.skills.scan.walk import WalkMemo, discover, walk_skills
from tests.skills.helpers import frontmatter, write_skill


def _found(root: Path, include_hidden: bool = False) -> list[str]:
    return sorted(directory.relative_to(root).as_posix()
                  for directory, _ in discover(root, include_hidden))


@pytest.mark.parametrize("client", sorted(CLIENT_FOLDERS))
def test_skills_under_a_clients_dot_folder_inside_a_repository_are_found(
    tmp_path: Path, client: str
) -> None:
    write_skill(tmp_path / "repo" / client / "skills", "alpha", frontmatter("alpha"))
    assert _found(tmp_path) == [f"repo/{client}/skills/alpha"]


def test_other_dot_folders_stay_skipped_unless_hidden_folders_are_asked_for(tmp_path: Path) -> None:
    write_skill(tmp_path / "repo" / ".claude" / "skills", "alpha", frontmatter("alpha"))
    write_skill(tmp_path / "repo" / ".cache" / "skills", "beta", frontmatter("beta"))
    assert _found(tmp_path) == ["repo/.claude/skills/alpha"]
    assert _found(tmp_path, include_hidden=True) == [
        "repo/.cache/skills/beta", "repo/.claude/skills/alpha"]


def test_git_node_modules_and_virtual_environments_are_never_searched(tmp_path: Path) -> None:
    write_skill(tmp_path / "repo", "alpha", frontmatter("alpha"))
    for folder in (".git", "node_modules", ".venv", "venv"):
        write_skill(tmp_path / "repo" / folder / "skills", "beta", frontmatter("beta"))
    environment = tmp_path / "repo" / "env"
    (environment / "lib").mkdir(parents=True)
    (environment / "pyvenv.cfg").write_text("home = /usr/bin\n")
    write_skill(environment / "lib" / "site-packages" / "pkg", "gamma", frontmatter("gamma"))
    for include_hidden in (False, True):
        assert _found(tmp_path, include_hidden) == ["repo/alpha"]


def test_a_root_that_is_itself_a_virtual_environment_is_still_searched(tmp_path: Path) -> None:
    (tmp_path / "pyvenv.cfg").write_text("home = /usr/bin\n")
    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    assert _found(tmp_path) == ["alpha"]


def _age(root: Path) -> None:
    """Make every folder below `root` old enough for a walk's memo to trust its mtime."""
    for folder in [root, *(path for path in root.rglob("*") if path.is_dir())]:
        os.utime(folder, ns=(10**18, 10**18))


def _memo_walk(root: Path, memo: WalkMemo, listed: list[str]) -> list[str]:
    real = os.scandir

    def counting(path: str) -> object:
        listed.append(Path(path).relative_to(root).as_posix())
        return real(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "scandir", counting)
        found = [Path(item.folder).relative_to(root).as_posix()
                 for item in walk_skills(root, False, None, None, "skill-file", memo)]
    memo.kept, memo.fresh = memo.fresh, {}
    return sorted(found)


def test_a_walk_with_a_memo_lists_again_only_the_folders_that_changed(tmp_path: Path) -> None:
    write_skill(tmp_path / "a", "alpha", frontmatter("alpha"))
    write_skill(tmp_path / "b", "beta", frontmatter("beta"))
    _age(tmp_path)
    memo, listed = WalkMemo(), []
    assert _memo_walk(tmp_path, memo, listed) == ["a/alpha", "b/beta"]
    assert sorted(listed) == [".", "a", "a/alpha", "b", "b/beta"]
    listed.clear()
    assert _memo_walk(tmp_path, memo, listed) == ["a/alpha", "b/beta"]
    assert listed == []
    write_skill(tmp_path / "b", "gamma", frontmatter("gamma"))  # b's mtime changes
    listed.clear()
    assert _memo_walk(tmp_path, memo, listed) == ["a/alpha", "b/beta", "b/gamma"]
    assert sorted(listed) == ["b", "b/gamma"]


def test_a_walk_memo_does_not_trust_recent_mtimes_or_folders_with_links(tmp_path: Path) -> None:
    write_skill(tmp_path / "a", "alpha", frontmatter("alpha"))
    (tmp_path / "link").symlink_to(tmp_path / "a")
    _age(tmp_path)
    os.utime(tmp_path / "a", None)  # now: within the tick a new entry could hide in
    memo, listed = WalkMemo(), []
    _memo_walk(tmp_path, memo, listed)
    listed.clear()
    assert _memo_walk(tmp_path, memo, listed) == ["a/alpha"]
    assert sorted(listed) == [".", "a"]
