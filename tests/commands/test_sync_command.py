"""`studio sync` and `studio sync --check`: restoring and checking a project's skills against its
`skills-lock.json` (studio's entries and the skills CLI's), from local git repositories only."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills.install.localstate import INSTALLED_FILE
from studio.skills.install.lockfile import computed_hash
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
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version one."))
    _write(repo, "skills/alpha/references/guide.md", "Guide one.\n")
    _write(repo, "skills/beta/SKILL.md", frontmatter("beta"))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "one")
    _git(repo, "tag", "v1")
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version two."))
    _git(repo, "commit", "-q", "-am", "two")
    return repo


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _lock(project: Path) -> dict[str, dict[str, object]]:
    skills: dict[str, dict[str, object]] = json.loads(
        (project / "skills-lock.json").read_text(encoding="utf-8"))["skills"]
    return skills


def _write_lock(project: Path, skills: dict[str, object]) -> None:
    project.mkdir(exist_ok=True)
    (project / "skills-lock.json").write_text(
        json.dumps({"version": 1, "skills": skills}, indent=2), encoding="utf-8")


def test_check_names_a_changed_file_and_a_deleted_skill_and_sync_restores_the_exact_bytes(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    where = ["--project", str(project)]
    assert main(["install", f"file://{repo}#v1", *where]) == 0
    skills = project / ".agents" / "skills"
    installed = {name: _snapshot(skills / name) for name in ("alpha", "beta")}
    lock_before = (project / "skills-lock.json").read_bytes()
    assert main(["sync", "--check", str(project)]) == 0
    capsys.readouterr()

    (skills / "alpha" / "references" / "guide.md").write_text("Edited.\n", encoding="utf-8")
    (skills / "alpha" / "notes.txt").write_text("mine\n", encoding="utf-8")
    shutil.rmtree(skills / "beta")

    assert main(["sync", "--check", str(project)]) == 1
    out = capsys.readouterr().out
    assert "alpha: modified" in out and "changed references/guide.md" in out
    assert "added notes.txt" in out
    assert "beta: missing" in out
    assert not (skills / "beta").exists()  # --check changes nothing

    assert main(["sync", "--check", str(project), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    by_name = {item["name"]: item for item in report["skills"]}
    assert by_name["alpha"]["state"] == "modified"
    assert by_name["alpha"]["changed"] == ["references/guide.md"]
    assert by_name["alpha"]["added"] == ["notes.txt"]
    assert by_name["beta"]["state"] == "missing"
    assert report["ok"] is False

    assert main(["sync", str(project)]) == 0
    err = capsys.readouterr().err
    assert "alpha" in err and "beta" in err
    assert {name: _snapshot(skills / name) for name in ("alpha", "beta")} == installed
    assert (project / "skills-lock.json").read_bytes() == lock_before
    assert not [p for p in skills.iterdir() if p.name.startswith(".studio-")
                and p.is_dir()]
    assert main(["sync", "--check", str(project)]) == 0


def test_a_copy_left_behind_by_a_pulled_lock_is_not_at_its_locked_commit(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    mine.mkdir()
    theirs.mkdir()
    assert main(["install", f"file://{repo}#v1", "--project", str(mine)]) == 0
    # A teammate updated to main and committed the lock; this copy is still at v1.
    assert main(["install", f"file://{repo}#main", "--project", str(theirs)]) == 0
    shutil.copyfile(theirs / "skills-lock.json", mine / "skills-lock.json")
    capsys.readouterr()
    assert main(["sync", "--check", str(mine)]) == 1
    out = capsys.readouterr().out
    main_commit, v1_commit = _git(repo, "rev-parse", "main"), _git(repo, "rev-parse", "v1^{commit}")
    assert f"alpha: not at its locked commit {main_commit} (last written from {v1_commit})" in out
    assert "changed SKILL.md" in out
    assert "beta: ok" in out
    assert main(["sync", str(mine)]) == 0
    assert _snapshot(mine / ".agents/skills/alpha") == _snapshot(theirs / ".agents/skills/alpha")
    assert main(["sync", "--check", str(mine)]) == 0


def test_an_install_from_a_tag_shows_the_commit_and_each_files_digest_first(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commit = _git(repo, "rev-parse", "v1^{commit}")
    assert main(["install", f"file://{repo}#v1", "--into", str(tmp_path / "into")]) == 0
    err = capsys.readouterr().err
    assert f"commit {commit}" in err
    digest = hashlib.sha256((repo / "skills/beta/SKILL.md").read_bytes()).hexdigest()
    assert f"{digest}  SKILL.md" in err


def test_a_lock_the_skills_cli_wrote_is_restored_when_its_hash_matches(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    reference = tmp_path / "reference"
    _git(tmp_path, "clone", "-q", "--branch", "v1", str(repo), str(reference))
    _write_lock(project, {
        "alpha": {"source": str(repo), "ref": "v1", "sourceType": "local",
                  "computedHash": computed_hash(reference / "skills" / "alpha")},
        "beta": {"source": str(repo), "sourceType": "local",
                 "computedHash": "0" * 64},
    })
    assert main(["sync", "--check", str(project)]) == 1
    assert "alpha: missing" in capsys.readouterr().out
    # beta's hash matches no version of it: it is refused, never written half-checked.
    assert main(["sync", str(project)]) == 1
    err = capsys.readouterr().err
    skills = project / ".agents" / "skills"
    assert _snapshot(skills / "alpha") == _snapshot(reference / "skills" / "alpha")
    assert "beta" in err and "do not match the hash" in err
    assert not (skills / "beta").exists()


@pytest.mark.parametrize(("entry", "said"), [
    ({"commit": "--upload-pack=touch /tmp/pwned"}, "commit"),
    ({"commit": "abc123"}, "commit"),
])
def test_a_tampered_commit_is_refused_before_git_runs(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    entry: dict[str, str], said: str
) -> None:
    project = tmp_path / "project"
    _write_lock(project, {"alpha": {
        "source": f"file://{repo}", "sourceType": "git", "computedHash": "0" * 64,
        "studio": {"url": f"file://{repo}", **entry}}})
    assert main(["sync", str(project)]) == 1
    err = capsys.readouterr().err
    assert "alpha" in err and said in err and "refused" in err
    assert not (project / ".agents" / "skills" / "alpha").exists()
    assert main(["sync", "--check", str(project)]) == 1
    assert "refused" in capsys.readouterr().out


def test_a_name_that_leads_out_of_the_skill_folder_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    _write_lock(project, {"../../escape": {
        "source": f"file://{repo}", "sourceType": "git", "computedHash": "0" * 64}})
    assert main(["sync", str(project)]) == 1
    assert "refused" in capsys.readouterr().err
    assert not (tmp_path / "escape").exists() and not (project / "escape").exists()


def test_a_folder_that_is_a_link_is_not_replaced_without_force(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", f"file://{repo}#v1", "--project", str(project)]) == 0
    skills = project / ".agents" / "skills"
    mine = tmp_path / "my-alpha"
    shutil.move(skills / "alpha", mine)
    (mine / "SKILL.md").write_text(frontmatter("alpha", "My working copy."), encoding="utf-8")
    (skills / "alpha").symlink_to(mine)
    capsys.readouterr()
    assert main(["sync", str(project)]) == 1
    assert "--force" in capsys.readouterr().err
    assert (skills / "alpha").is_symlink()
    assert "My working copy." in (mine / "SKILL.md").read_text(encoding="utf-8")
    assert main(["sync", str(project), "--force"]) == 0
    assert not (skills / "alpha").is_symlink()
    assert "My working copy." in (mine / "SKILL.md").read_text(encoding="utf-8")


def test_pin_keeps_an_install_at_its_commit_on_update(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    where = ["--project", str(project)]
    assert main(["install", f"file://{repo}#main", "--pin", *where]) == 0
    pinned_at = _git(repo, "rev-parse", "main")
    assert _lock(project)["alpha"]["studio"] == {**_lock(project)["alpha"]["studio"],  # type: ignore[dict-item]
                                                 "commit": pinned_at, "pinned": True}
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version three."))
    _git(repo, "commit", "-q", "-am", "three")
    capsys.readouterr()
    assert main(["update", *where]) == 0
    err = capsys.readouterr().err
    assert "pinned" in err and pinned_at[:12] in err
    alpha = project / ".agents" / "skills" / "alpha" / "SKILL.md"
    assert "Version two." in alpha.read_text(encoding="utf-8")


def test_a_source_at_ref_says_how_to_name_a_ref(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    assert main(["install", "owner/repo@v1", "--into", str(tmp_path / "into")]) == 1
    err = capsys.readouterr().err
    assert "owner/repo#v1" in err


def test_a_skill_whose_source_moved_on_is_not_touched(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A skills CLI entry (no commit) whose branch moved on: the edited copy stays byte for byte."""
    project = tmp_path / "project"
    skills = project / ".agents" / "skills"
    _write(skills, "alpha/SKILL.md", frontmatter("alpha", "Version one."))
    _write_lock(project, {"alpha": {"source": f"file://{repo}", "sourceType": "git",
                                    "computedHash": computed_hash(skills / "alpha")}})
    (skills / "alpha" / "SKILL.md").write_text("my edit\n", encoding="utf-8")
    assert main(["sync", "--check", str(project)]) == 1
    assert "which ones is not known" in capsys.readouterr().out
    assert main(["sync", str(project)]) == 1
    assert "do not match the hash" in capsys.readouterr().err
    assert (skills / "alpha" / "SKILL.md").read_text(encoding="utf-8") == "my edit\n"
    assert sorted(p.name for p in skills.iterdir()) == ["alpha"]


def test_pin_needs_a_git_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "plain/SKILL.md", frontmatter("plain"))
    assert main(["install", str(tmp_path / "plain"), "--pin", "--into", str(tmp_path / "in")]) == 1
    assert "--pin" in capsys.readouterr().err
    assert not (tmp_path / "in" / "plain").exists()


def test_check_of_a_project_that_is_not_there_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["sync", "--check", str(tmp_path / "no-such-project")]) == 2


@pytest.mark.parametrize(("studio", "said"), [
    ({"files": {"../../outside": "0" * 64}}, "studio.files"),
    ({"files": {"SKILL.md": "not-a-digest"}}, "studio.files"),
    ({"pinned": "yes"}, "studio.pinned"),
    ({"commit": "0" * 39}, "studio.commit"),
])
def test_entries_a_tool_would_not_write_are_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    studio: dict[str, object], said: str
) -> None:
    project = tmp_path / "project"
    _write_lock(project, {"alpha": {"source": f"file://{repo}", "sourceType": "git",
                                    "computedHash": "0" * 64,
                                    "studio": {"url": f"file://{repo}", **studio}}})
    assert main(["sync", "--check", "--format", "json", str(project)]) == 1
    (item,) = json.loads(capsys.readouterr().out)["skills"]
    assert item["state"] == "refused" and said in item["problem"]
    assert main(["sync", str(project)]) == 1
    assert not (project / ".agents").exists() or not any((project / ".agents" / "skills").iterdir())


@pytest.mark.parametrize("note", [
    "not json", '{"skills": {"alpha": {"commit": "--upload-pack=x"}}}', '["a"]',
])
def test_a_garbled_note_of_what_was_written_is_ignored(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], note: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", f"file://{repo}#v1", "--project", str(project)]) == 0
    skills = project / ".agents" / "skills"
    (skills / INSTALLED_FILE).write_text(note, encoding="utf-8")
    (skills / "alpha" / "SKILL.md").write_text("edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["sync", "--check", str(project)]) == 1
    assert "alpha: modified" in capsys.readouterr().out
    assert main(["sync", str(project)]) == 0
    assert main(["sync", "--check", str(project)]) == 0


def test_a_node_modules_entry_is_checked_by_its_hash_and_left_to_the_skills_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    skills = project / ".agents" / "skills"
    _write(skills, "from-npm/SKILL.md", frontmatter("from-npm"))
    _write_lock(project, {"from-npm": {"source": "@acme/skills", "sourceType": "node_modules",
                                       "skillPath": "skills/from-npm/SKILL.md",
                                       "computedHash": computed_hash(skills / "from-npm")}})
    assert main(["sync", "--check", str(project)]) == 0
    (skills / "from-npm" / "SKILL.md").write_text("edited\n", encoding="utf-8")
    assert main(["sync", "--check", str(project)]) == 1
    assert "from-npm: modified" in capsys.readouterr().out
    assert main(["sync", str(project)]) == 1
    assert "experimental_sync" in capsys.readouterr().err
    assert (skills / "from-npm" / "SKILL.md").read_text(encoding="utf-8") == "edited\n"


def test_sync_gives_a_restored_skill_its_client_links_again(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", f"file://{repo}#v1", "--project", str(project),
                 "--client", "claude-code"]) == 0
    link = project / ".claude" / "skills" / "alpha"
    shutil.rmtree(project / ".agents" / "skills" / "alpha")
    link.unlink()
    theirs = project / ".claude" / "skills" / "beta"
    theirs.unlink()
    theirs.mkdir()  # a folder of the user's own where beta's link was
    (theirs / "notes.md").write_text("mine\n", encoding="utf-8")
    shutil.rmtree(project / ".agents" / "skills" / "beta")
    capsys.readouterr()
    assert main(["sync", str(project)]) == 1
    err = capsys.readouterr().err
    assert link.is_symlink() and (link / "SKILL.md").is_file()
    assert f"placed {link}" in err
    assert f"{theirs} holds something else" in err
    assert (theirs / "notes.md").read_text(encoding="utf-8") == "mine\n"
    assert (project / ".agents" / "skills" / "beta" / "SKILL.md").is_file()
