"""Hostile values through every place the installer takes one from data: `studio install
SOURCE#REF`, a project's `skills-lock.json` then a plain `studio update` (no flags, stdin closed),
and a site's well-known index. Each value would run `touch MARKER` if git read it as an option or
a transport; the marker must never appear, and the message must name what was refused.

Real git repositories in a temp folder; the index from a scripted server on loopback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills.install.localstate import INSTALLED_FILE
from studio.skills.install.lockfile import computed_hash
from tests.fakes.files import FileServer
from tests.skills.helpers import frontmatter

REPO_ROOT = Path(__file__).resolve().parents[2]


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=repo, check=True,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return done.stdout.strip()


def _write(root: Path, relative: str, text: str) -> None:
    (root / relative).parent.mkdir(parents=True, exist_ok=True)
    (root / relative).write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _write(repo, "skills/alpha/SKILL.md", frontmatter("alpha", "Version one."))
    _write(repo, "skills/beta/SKILL.md", frontmatter("beta"))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "one")
    _git(repo, "tag", "v1")
    return repo


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "MARKER"


def _hostile_sources(repo: Path, marker: Path) -> list[tuple[str, str]]:
    """(SOURCE as typed, what the message must name)."""
    run = f"touch {marker}"
    return [
        (f"file://{repo}#--upload-pack={run};:", "the ref '--upload-pack="),
        (f"file://{repo}#-oProxyCommand={run}", "the ref '-oProxyCommand="),
        (f"{repo}#--upload-pack={run};:", "the ref '--upload-pack="),
        (f"o/r#--upload-pack={run};:", "the ref '--upload-pack="),
        (f"https://github.com/o/r/tree/--upload-pack={run};:", "the ref '--upload-pack="),
        (f"file://{repo}#v1\x00", "holds '\\x00'"),
        (f"file://{repo}#v1\nrefs/heads/x", "holds '\\n'"),
        (f"file://{repo}#v1/../../x", "holds '..'"),
        (f"ext::sh -c touch% {marker}", "'ext' transport"),
        (f"ext::sh -c touch% {marker}@x:y", "'ext' transport"),
        ("fd::3", "'fd' transport"),
        (f"ssh://-oProxyCommand=touch%20{marker}/x", "the host '-oproxycommand"),
        (f"git@-oProxyCommand={run}:o/r.git", "the git source 'git@-oProxyCommand="),
        ("git@-oProxyCommand=touch%20M:o/r.git", "the host '-oProxyCommand="),
        (f"-oProxyCommand={run}@example.org:o/r", "starts with '-'"),
        (f"--upload-pack={run};:", "starts with '-'"),
        (f"file://{repo}/../\x00", "control or invisible character"),
    ]


def test_a_hostile_source_or_ref_runs_nothing_and_names_what_was_refused(
    repo: Path, marker: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / "into"
    for source, named in _hostile_sources(repo, marker):
        capsys.readouterr()
        assert main(["install", "--into", str(into), "--", source]) == 1, source
        assert not marker.exists(), source
        err = capsys.readouterr().err
        assert named in err and "nothing was written" in err, (source, err)
    assert not into.exists() or sorted(p.name for p in into.iterdir()) == []
    # The same repository at a real tag still installs.
    assert main(["install", "--into", str(into), f"file://{repo}#v1"]) == 0
    assert (into / "alpha" / "SKILL.md").is_file()


def _studio(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m studio ARGV` as a user runs it in a project, stdin closed."""
    path = os.pathsep.join(filter(None, (str(REPO_ROOT), os.environ.get("PYTHONPATH"))))
    return subprocess.run([sys.executable, "-m", "studio", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=180, stdin=subprocess.DEVNULL, check=False,
                          env=dict(os.environ, PYTHONPATH=path))


def test_a_hostile_lock_file_then_a_plain_update_runs_nothing_and_updates_the_good_entries(
    repo: Path, marker: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    skills = project / ".agents" / "skills"
    _write(skills, "alpha/SKILL.md", frontmatter("alpha", "Old."))
    _write(project, "escape/keep.txt", "not the installer's\n")
    run = f"touch {marker}"
    good = computed_hash(skills / "alpha")
    url = f"file://{repo}"
    entries: dict[str, dict[str, object]] = {
        "alpha": {"source": url, "sourceType": "git", "computedHash": good},
        "by-ref": {"source": url, "sourceType": "git", "ref": f"--upload-pack={run};:"},
        "by-url": {"source": "o/r", "sourceType": "github",
                   "studio": {"url": f"{url}#--upload-pack={run};:"}},
        "by-source": {"source": f"--upload-pack={run};:", "sourceType": "git"},
        "by-ext": {"source": f"ext::sh -c touch% {marker}", "sourceType": "git"},
        "by-fd": {"source": "fd::3", "sourceType": "git"},
        "by-ssh": {"source": f"ssh://-oProxyCommand=touch%20{marker}/x", "sourceType": "git"},
        "by-nul": {"source": url, "sourceType": "git", "ref": "v1\x00"},
        "by-newline": {"source": url, "sourceType": "git", "ref": "v1\nrefs/heads/x"},
        "by-dots": {"source": url, "sourceType": "git", "ref": "v1/../x"},
        "../../escape": {"source": url, "sourceType": "git"},
        "by-clients": {"source": url, "sourceType": "git",
                       "studio": {"url": url, "clients": ["../../x"]}},
    }
    (project / "skills-lock.json").write_text(json.dumps({"version": 1, "skills": entries}),
                                              encoding="utf-8")
    done = _studio("update", cwd=project)
    assert done.returncode == 1, done.stderr
    assert not marker.exists()
    named = {
        "by-ref": "\"ref\" '--upload-pack=", "by-url": "\"studio.url\"",
        "by-source": "\"source\": the git source '--upload-pack=", "by-ext": "'ext' transport",
        "by-fd": "'fd' transport", "by-ssh": "the host '-oproxycommand", "by-nul": "'\\x00'",
        "by-newline": "'\\n'", "by-dots": "holds '..'", "../../escape": "its name is not one folder",
        "by-clients": "\"studio.clients\"",
    }
    for name, why in named.items():
        line = next((line for line in done.stderr.splitlines() if f"entry {name!r}" in line), "")
        assert why in line and "was refused" in line, (name, done.stderr)
    # The good entry was updated from the same repository; nothing landed outside the folder.
    assert "Version one." in (skills / "alpha" / "SKILL.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in skills.iterdir()) == [INSTALLED_FILE, "alpha"]
    assert (project / "escape" / "keep.txt").is_file()
    listed = _studio("list", cwd=project)
    assert listed.returncode == 0 and "studio update refuses this entry" in listed.stdout
    removed = _studio("remove", "../../escape", cwd=project)
    assert removed.returncode == 1 and "its name is not one folder name" in removed.stderr
    assert (project / "escape" / "keep.txt").is_file()
    assert not marker.exists()


INDEX = "/.well-known/agent-skills/index.json"


@pytest.mark.parametrize(("skill", "named"), [
    ({"name": "--upload-pack=touch MARKER", "files": ["SKILL.md"]}, "needs a lowercase \"name\""),
    ({"name": "ext::sh -c touch MARKER", "files": ["SKILL.md"]}, "needs a lowercase \"name\""),
    ({"name": "alpha\n", "files": ["SKILL.md"]}, "needs a lowercase \"name\""),
    ({"name": "alpha", "files": ["SKILL.md\x00"]}, "'SKILL.md\\x00', which holds a control"),
    ({"name": "alpha", "files": ["refs/a\nb.md"]}, "'refs/a\\nb.md', which holds a control"),
    ({"name": "alpha", "files": [".git/config"]}, "'.git/config', which is inside a .git"),
    ({"name": "alpha", "files": ["x/.GIT/hooks/post-checkout"]}, "which is inside a .git"),
    ({"name": "alpha", "files": ["../../x"]}, "'../../x', which leads out of the skill"),
    ({"name": "alpha", "files": ["/etc/passwd"]}, "which is not a relative path"),
    ({"name": "alpha", "files": [{"path": "SKILL.md", "digest": "sha256:00"}]},
     "does not match the digest"),
])
def test_a_hostile_well_known_index_runs_nothing_and_names_the_entry(
    tmp_path: Path, marker: Path, skill: dict[str, object], named: str,
    capsys: pytest.CaptureFixture[str]
) -> None:
    files = {INDEX: json.dumps({"skills": [skill]}).encode(),
             "/.well-known/agent-skills/alpha/SKILL.md": frontmatter("alpha").encode()}
    into = tmp_path / "into"
    with FileServer(files) as server:
        assert main(["install", "--into", str(into), f"{server.url}{INDEX}"]) == 1
    err = capsys.readouterr().err
    assert named in err and "nothing was written" in err, err
    assert not marker.exists() and not (into / "alpha").exists()


def test_file_names_shaped_like_options_in_an_index_stay_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = ["--upload-pack=touch;MARKER", "-oProxyCommand=touch;MARKER"]
    files = {INDEX: json.dumps({"skills": [{"name": "alpha", "files": ["SKILL.md", *odd]}]}).encode(),
             "/.well-known/agent-skills/alpha/SKILL.md": frontmatter("alpha").encode()}
    files.update({f"/.well-known/agent-skills/alpha/{name}": b"data\n" for name in odd})
    into = tmp_path / "into"
    with FileServer(files) as server:
        assert main(["install", "--into", str(into), f"{server.url}{INDEX}"]) == 0, (
            capsys.readouterr().err)
    assert all((into / "alpha" / name).read_bytes() == b"data\n" for name in odd)
    assert not any(path.name == "MARKER" for path in tmp_path.rglob("*"))
