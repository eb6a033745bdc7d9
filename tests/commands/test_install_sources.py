"""`studio install` from git repositories into a project laid out by the skills CLI, with client
links or copies; `studio list`, `update` and `remove` on both tools' installs. Local git
repositories only (file:// URLs and paths)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills.install.localstate import INSTALLED_FILE
from studio.skills.install.lockfile import computed_hash, read_lock
from studio.skills.install.sources import SourceError, parse_source
from tests.fakes.files import FileServer
from tests.skills.helpers import frontmatter


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=repo, check=True,
                          capture_output=True, text=True)
    return done.stdout.strip()


def _write(repo: Path, relative: str, text: str) -> None:
    (repo / relative).parent.mkdir(parents=True, exist_ok=True)
    (repo / relative).write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _write(repo, "README.md", "skills\n")
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version one."))
    _write(repo, "skills/beta/SKILL.md", frontmatter("beta"))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "one")
    _git(repo, "tag", "v1")
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version two."))
    _git(repo, "commit", "-q", "-am", "two")
    return repo


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """What `npx skills add anthropics/skills --skill pdf -a claude-code` leaves."""
    project = tmp_path / "project"
    _write(project, ".agents/skills/pdf/SKILL.md", frontmatter("pdf"))
    (project / ".claude" / "skills").mkdir(parents=True)
    os.symlink("../../.agents/skills/pdf", project / ".claude" / "skills" / "pdf")
    lock = {"version": 1, "skills": {"pdf": {
        "source": "anthropics/skills", "sourceType": "github",
        "computedHash": computed_hash(project / ".agents" / "skills" / "pdf")}}}
    (project / "skills-lock.json").write_text(json.dumps(lock, indent=2), encoding="utf-8")
    return project


def _lock(project: Path) -> dict[str, dict[str, object]]:
    data = json.loads((project / "skills-lock.json").read_text(encoding="utf-8"))
    skills: dict[str, dict[str, object]] = data["skills"]
    return skills


def test_a_tag_of_a_git_repository_installs_with_client_links_and_keeps_the_cli_entry(
    repo: Path, project: Path
) -> None:
    cli_entry = _lock(project)["pdf"]
    assert main(["install", f"file://{repo}#v1", "--project", str(project),
                 "--client", "claude-code", "--client", "cursor", "--client", "codex"]) == 0
    alpha = project / ".agents" / "skills" / "alpha"
    assert "Version one." in (alpha / "SKILL.md").read_text(encoding="utf-8")
    for client in (".claude", ".cursor"):
        link = project / client / "skills" / "alpha"
        assert link.is_symlink() and os.readlink(link) == "../../.agents/skills/alpha"
    assert not (project / ".codex").exists()  # Codex reads .agents/skills itself
    lock = _lock(project)
    assert lock["pdf"] == cli_entry
    entry = lock["alpha"]
    assert (entry["source"], entry["sourceType"], entry["ref"]) == (f"file://{repo}", "git", "v1")
    assert entry["computedHash"] == computed_hash(alpha)
    studio = entry["studio"]
    assert isinstance(studio, dict)
    assert studio["commit"] == _git(repo, "rev-parse", "v1")
    assert studio["clients"] == ["claude-code", "cursor", "codex"] and studio["mode"] == "link"


def test_a_commit_a_path_and_a_subfolder_install_only_what_they_name(
    repo: Path, tmp_path: Path
) -> None:
    first = _git(repo, "rev-list", "--max-parents=0", "HEAD")
    into = tmp_path / "by-commit"
    assert main(["install", f"file://{repo}#{first}", "--into", str(into)]) == 0
    assert "Version one." in (into / "alpha" / "SKILL.md").read_text(encoding="utf-8")
    into = tmp_path / "by-path"
    assert main(["install", str(repo / "skills" / "beta"), "--into", str(into)]) == 0
    assert sorted(p.name for p in into.iterdir()) == ["beta", "skills-lock.json"]
    _write(tmp_path, "checkout-of-gamma/SKILL.md", frontmatter("gamma"))
    assert main(["install", str(tmp_path / "checkout-of-gamma"), "--into", str(into)]) == 0
    assert (into / "gamma" / "SKILL.md").is_file()


def test_copies_update_and_remove(repo: Path, project: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--project", str(project)]
    assert main(["install", f"file://{repo}", *where, "--client", "cursor", "--copy"]) == 0
    copy = project / ".cursor" / "skills" / "alpha"
    assert copy.is_dir() and not copy.is_symlink()
    assert "Version two." in (copy / "SKILL.md").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["update", "alpha", "beta", *where]) == 0
    assert f"file://{repo}: up to date" in capsys.readouterr().err
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version three."))
    _git(repo, "commit", "-q", "-am", "three")
    assert main(["update", "alpha", *where]) == 0
    for folder in (project / ".agents" / "skills" / "alpha", copy):
        assert "Version three." in (folder / "SKILL.md").read_text(encoding="utf-8")
    assert _lock(project)["alpha"]["computedHash"] == computed_hash(project / ".agents/skills/alpha")
    assert main(["remove", "alpha", *where]) == 0
    assert not copy.exists() and not (project / ".agents" / "skills" / "alpha").exists()
    assert sorted(_lock(project)) == ["beta", "pdf"]


def test_list_and_remove_work_on_the_skills_clis_installs(
    repo: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--project", str(project)]
    assert main(["install", f"file://{repo}", *where, "--client", "claude-code"]) == 0
    capsys.readouterr()
    assert main(["list", *where, "--format", "json"]) == 0
    listed = {item["name"]: item for item in json.loads(capsys.readouterr().out)}
    assert sorted(listed) == ["alpha", "beta", "pdf"]
    assert listed["pdf"]["installedBy"] == "skills CLI" and listed["pdf"]["changed"] is False
    assert listed["pdf"]["links"] == [str(project / ".claude" / "skills" / "pdf")]
    assert listed["alpha"]["installedBy"] == "studio"
    _write(project, ".agents/skills/beta/notes.md", "mine")
    assert main(["list", *where]) == 0
    text = capsys.readouterr().out
    assert "beta  file://" in text and "changed since installed" in text
    assert f"linked from {project / '.claude' / 'skills' / 'alpha'}" in text
    assert main(["remove", "pdf", *where]) == 0
    assert not os.path.lexists(project / ".claude" / "skills" / "pdf")
    assert not (project / ".agents" / "skills" / "pdf").exists()
    assert sorted(_lock(project)) == ["alpha", "beta"]
    assert main(["remove", "nothing", *where]) == 1
    assert "nothing is not recorded" in capsys.readouterr().err


def test_a_folder_of_its_own_in_a_clients_place_is_not_replaced_without_yes(
    repo: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(project, ".claude/skills/alpha/SKILL.md", frontmatter("alpha", "My own."))
    before = (project / "skills-lock.json").read_bytes()
    assert main(["install", f"file://{repo}", "--project", str(project),
                 "--client", "claude-code"]) == 1
    assert "pass --yes" in capsys.readouterr().err
    assert (project / "skills-lock.json").read_bytes() == before
    assert not (project / ".agents" / "skills" / "alpha").exists()


def test_an_unreadable_lock_file_stops_the_install_and_stays_as_it_was(
    repo: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "skills-lock.json").write_bytes(b"<<<<<<< HEAD\n{}\n")
    assert main(["install", f"file://{repo}", "--project", str(project)]) == 1
    assert "skills-lock.json is not valid JSON" in capsys.readouterr().err
    assert (project / "skills-lock.json").read_bytes() == b"<<<<<<< HEAD\n{}\n"
    assert sorted(p.name for p in (project / ".agents" / "skills").iterdir()) == ["pdf"]


@pytest.mark.parametrize(("text", "kind", "location", "subpath", "ref"), [
    ("anthropics/skills", "github", "https://github.com/anthropics/skills.git", None, None),
    ("anthropics/skills/skills/pdf#v2", "github", "https://github.com/anthropics/skills.git",
     "skills/pdf", "v2"),
    ("https://github.com/o/r/tree/main/skills/x", "github", "https://github.com/o/r.git",
     "skills/x", "main"),
    ("git@example.org:o/r.git#dev", "git", "git@example.org:o/r.git", None, "dev"),
    ("https://example.org/o/r.git", "git", "https://example.org/o/r.git", None, None),
    ("https://example.org/pack.zip", "archive", "https://example.org/pack.zip", None, None),
    ("https://codeload.example.org/o/r/zip/main", "archive",
     "https://codeload.example.org/o/r/zip/main", None, None),
])
def test_sources_are_read_as_the_skills_cli_reads_them(
    text: str, kind: str, location: str, subpath: str | None, ref: str | None
) -> None:
    source = parse_source(text)
    assert (source.kind, source.location, source.subpath, source.ref) == (kind, location, subpath, ref)


def test_nonsense_is_refused_with_the_forms_it_takes() -> None:
    with pytest.raises(SourceError, match="owner/repo"):
        parse_source("just-a-word")


def test_update_of_a_skills_cli_entry_fetches_its_source_and_replaces_only_that_skill(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "cli-project"
    _write(project, ".agents/skills/alpha/SKILL.md", frontmatter("alpha", "Old."))
    lock = {"version": 1, "skills": {"alpha": {
        "source": f"file://{repo}", "sourceType": "git", "unknownKey": 1,
        "computedHash": computed_hash(project / ".agents" / "skills" / "alpha")}}}
    (project / "skills-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    assert main(["update", "--project", str(project)]) == 0
    assert "Version two." in (project / ".agents/skills/alpha/SKILL.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in (project / ".agents" / "skills").iterdir()) == [
        INSTALLED_FILE, "alpha"]
    entry = _lock(project)["alpha"]
    assert entry["unknownKey"] == 1
    assert entry["computedHash"] == computed_hash(project / ".agents" / "skills" / "alpha")
    capsys.readouterr()
    assert main(["update", "--project", str(project)]) == 0
    assert "up to date" in capsys.readouterr().err


def test_a_sites_well_known_index_installs_the_skills_it_lists(tmp_path: Path) -> None:
    index = {"skills": [{"name": "alpha", "description": "A.", "files": ["SKILL.md", "refs/a.md"]}]}
    files = {"/.well-known/agent-skills/index.json": json.dumps(index).encode(),
             "/.well-known/agent-skills/alpha/SKILL.md": frontmatter("alpha").encode(),
             "/.well-known/agent-skills/alpha/refs/a.md": b"# A\n"}
    with FileServer(files) as server:
        url = f"{server.url}/.well-known/agent-skills/index.json"
        assert main(["install", url, "--into", str(tmp_path / "in")]) == 0
        assert (tmp_path / "in" / "alpha" / "refs" / "a.md").read_bytes() == b"# A\n"
        (record,) = read_lock(tmp_path / "in")
        assert (record.source, record.source_type) == (url, "well-known")
        server.files["/.well-known/agent-skills/index.json"] = json.dumps(
            {"skills": [{"name": "bad", "files": ["../../etc/passwd"]}]}).encode()
        assert main(["install", url, "--into", str(tmp_path / "other")]) == 1
        assert not (tmp_path / "other" / "bad").exists()


@pytest.mark.parametrize("kind", ["git", "folder"])
def test_a_link_out_of_the_source_is_refused_and_nothing_is_installed(
    tmp_path: Path, kind: str
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    _write(source, "skills/alpha/SKILL.md", frontmatter("alpha"))
    (tmp_path / "id_rsa").write_text("secret\n")
    os.symlink(tmp_path / "id_rsa", source / "skills" / "alpha" / "key")
    os.symlink("SKILL.md", source / "skills" / "alpha" / "inside")
    if kind == "git":
        _git(source, "init", "-q")
        _git(source, "add", "-A")
        _git(source, "commit", "-q", "-m", "one")
        text = f"file://{source}#HEAD"
    else:
        text = str(source)
    into = tmp_path / "into"
    assert main(["install", text, "--into", str(into)]) == 1
    assert not (into / "alpha").exists()
