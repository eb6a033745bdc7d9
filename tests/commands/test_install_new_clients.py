"""`studio install --client` for Gemini CLI, GitHub Copilot, Cursor, goose and OpenCode: each
skill lands where that client reads it, the lock records the client by its key, and `studio
remove` takes the links away again."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from studio.cli import main
from tests.skills.helpers import frontmatter

# Where a project install leaves a link for each client (none: it reads .agents/skills itself).
PROJECT_LINKS = {
    "gemini-cli": None, "github-copilot": None, "cursor": ".cursor/skills", "goose": None,
    "opencode": None,
}
USER_LINKS = {
    "gemini-cli": ".gemini/skills", "github-copilot": ".copilot/skills",
    "cursor": ".cursor/skills", "goose": None, "opencode": ".config/opencode/skills",
}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    folder = tmp_path / "src" / "alpha"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(frontmatter("alpha"), encoding="utf-8")
    return folder


def _links(base: Path) -> list[str]:
    return sorted(str(p.relative_to(base)) for p in base.rglob("alpha") if p.is_symlink())


@pytest.mark.parametrize("client", sorted(PROJECT_LINKS))
def test_a_project_install_puts_the_skill_where_the_client_reads_it(
        client: str, source: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", str(source), "--project", str(project), "--client", client]) == 0
    assert (project / ".agents/skills/alpha/SKILL.md").is_file()
    expected = PROJECT_LINKS[client]
    assert _links(project) == ([] if expected is None else [f"{expected}/alpha"])
    if expected is not None:
        assert os.readlink(project / expected / "alpha") == "../../.agents/skills/alpha"
    lock = json.loads((project / "skills-lock.json").read_text(encoding="utf-8"))
    assert lock["skills"]["alpha"]["studio"]["clients"] == [client]
    assert main(["remove", "alpha", "--project", str(project)]) == 0
    assert _links(project) == [] and not (project / ".agents/skills/alpha").exists()


@pytest.mark.parametrize("client", sorted(USER_LINKS))
def test_a_user_install_links_from_the_clients_own_folder(
        client: str, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert main(["install", str(source), "--global", "--client", client]) == 0
    assert (home / ".agents/skills/alpha/SKILL.md").is_file()
    expected = USER_LINKS[client]
    assert _links(home) == ([] if expected is None else [f"{expected}/alpha"])


def test_copilot_names_github_copilot_in_the_lock(source: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", str(source), "--project", str(project), "--client", "copilot"]) == 0
    lock = json.loads((project / "skills-lock.json").read_text(encoding="utf-8"))
    assert lock["skills"]["alpha"]["studio"]["clients"] == ["github-copilot"]
