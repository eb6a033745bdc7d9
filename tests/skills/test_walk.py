"""Which folders the search for skills goes into: clients' dot folders yes, caches and virtual
environments no."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.skills.files import CLIENT_FOLDERS
from studio.skills.walk import discover
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
