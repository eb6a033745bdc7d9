"""The policy's readings checked against the programs themselves: the kernel for paths (a path
resolved by the policy is the file `open` reaches), and GNU sed for sed scripts (`--sandbox`
refuses exactly `e`, `r` and `w`, so a script sed refuses must never read as safe)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.policy.paths import resolve, unfollowed
from studio.policy.sedscript import read_sed


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """A tree with links into it, out of it, and a chain of them."""
    (tmp_path / "ws" / "skills" / "x").mkdir(parents=True)
    (tmp_path / "out" / "deep" / "er").mkdir(parents=True)
    (tmp_path / "out" / "deep" / "secret").write_text("outside\n")
    (tmp_path / "out" / "secret").write_text("outside, one up\n")
    (tmp_path / "ws" / "skills" / "secret").write_text("inside\n")
    os.symlink(tmp_path / "out" / "deep", tmp_path / "ws" / "skills" / "x" / "link")
    os.symlink("link/er", tmp_path / "ws" / "skills" / "x" / "chain")
    os.symlink("../..", tmp_path / "ws" / "skills" / "x" / "up")
    return tmp_path / "ws"


@pytest.mark.parametrize(
    "path",
    [
        "skills/x/link/secret",
        "skills/x/link/../secret",
        "skills/x/link/../deep/secret",
        "skills/x/chain/../secret",
        "skills/x/chain/../../secret",
        "skills/x/up/skills/secret",
        "skills/x/up/skills/x/link/../secret",
        "skills/x/../secret",
    ],
)
def test_a_resolved_path_is_the_file_the_kernel_opens(linked: Path, path: str) -> None:
    resolved = resolve(path, linked)
    assert os.stat(resolved).st_ino == os.stat(linked / path).st_ino
    assert resolved.read_text() == (linked / path).read_text()


def test_a_link_followed_by_dotdot_leaves_the_folder_it_seems_to_stay_in(linked: Path) -> None:
    # Read as text, `skills/x/link/../secret` is `skills/x/secret`; the kernel reads `out/secret`.
    assert resolve("skills/x/link/../secret", linked) == linked.parent / "out" / "secret"


def test_unfollowed_resolves_the_folder_but_not_the_last_link(linked: Path) -> None:
    assert unfollowed("skills/x/link", linked) == linked / "skills" / "x" / "link"
    assert unfollowed("skills/x/link/../er", linked) == linked.parent / "out" / "er"
    assert unfollowed("skills/x/up/..", linked) == linked.parent  # up is ws itself


_GNU_SED = shutil.which("sed")


def _gnu_sed() -> bool:
    if _GNU_SED is None:
        return False
    result = subprocess.run([_GNU_SED, "--version"], capture_output=True, text=True, check=False)
    return "GNU sed" in result.stdout


def _sed_refuses(script: str) -> bool:
    """Whether GNU sed, in its sandbox mode, refuses `script` for holding `e`, `r` or `w`."""
    assert _GNU_SED is not None
    result = subprocess.run(
        [_GNU_SED, "--sandbox", "-n", "-e", script],
        input="",
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
    )
    return "disabled in sandbox mode" in result.stderr


# Pieces that make the reading hard: delimiters, brackets, escapes, separators, the dangerous
# commands and flags, labels and text commands.
_PIECES = st.sampled_from(
    ["s", "/", "|", "[", "]", "\\", ";", "\n", "e", "w", "r", "W", "R", "p", "g", "a", "i", "c",
     " ", "x", "1", "$", "!", "{", "}", ":", "b", "#", "y", "^", "[:alpha:]", ",", "~", "I"]
)


@pytest.mark.skipif(not _gnu_sed(), reason="needs GNU sed (its --sandbox is the oracle)")
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, min_size=1, max_size=14).map("".join))
def test_no_script_gnu_sed_refuses_reads_as_safe(script: str) -> None:
    read = read_sed(script)
    safe = read.problem is None and not (read.runs or read.reads or read.writes)
    if safe:
        assert not _sed_refuses(script), read


@pytest.mark.skipif(not _gnu_sed(), reason="needs GNU sed (its --sandbox is the oracle)")
@pytest.mark.parametrize(
    "script",
    [
        "s/[/]/x/e",
        "/[/]/w /tmp/out",
        "s/a[/]b/x/w /tmp/o",
        "s/[[:alpha:]/]/x/e",
        ":a;e id",
        "b end; e id",
        "a\\\nfoo\ne id",
        "s/x/y/;W /tmp/o",
        "1!e id",
        "$R /etc/passwd",
    ],
)
def test_the_scripts_of_the_report_are_refused_by_sed_and_not_read_as_safe(script: str) -> None:
    assert _sed_refuses(script)
    read = read_sed(script)
    assert read.problem is not None or read.runs or read.reads or read.writes
