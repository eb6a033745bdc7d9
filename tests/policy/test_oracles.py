"""The policy's readings checked against the programs themselves: the kernel for paths (a path
resolved by the policy is the file `open` reaches), GNU sed for sed scripts (`--sandbox` refuses
exactly `e`, `r` and `w`, so a script sed refuses must never read as safe), and mawk for awk
programs (`-W dump` compiles without running: a program compiled to `system`, `getline`, a piped
or redirected print or a use of `ARGV` must never read as safe)."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.policy.programs.awkscript import read_awk
from studio.policy.programs.paths import resolve, unfollowed
from studio.policy.programs.sedscript import read_sed


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


_MAWK = shutil.which("mawk")
_AWK_EXPRESSIONS = [
    "x", "1", "$1", '"a;b"', '"|"', "/x|y/", "(x > 1)", "a[x>1]", "x / 2", "NF", '"\\""', '"a" "b"',
    "length", "x++", "--x",
]
_AWK_DANGERS = ["getline", 'system("id")', "ARGV[1]", 'ENVIRON["x"]']


def _awk_expression(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 2 or roll < 0.4:
        return rng.choice(_AWK_EXPRESSIONS)
    if roll < 0.6:
        operator = rng.choice([" / ", " > ", " ", " ~ ", " + ", " | ", " == "])
        return _awk_expression(rng, depth + 1) + operator + _awk_expression(rng, depth + 1)
    if roll < 0.7:
        return "(" + _awk_expression(rng, depth + 1) + ")"
    if roll < 0.8:
        return "/" + rng.choice(["a", "[/]", "\\/", "a|b", '"', ";"]) + "/"
    return rng.choice(_AWK_DANGERS) if rng.random() < 0.2 else _awk_expression(rng, depth + 1)


def _awk_statement(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if roll < 0.3:
        tail = rng.choice(["", "", ' > "f"', ' | "sh"', ", " + _awk_expression(rng)])
        return "print " + _awk_expression(rng) + tail
    if roll < 0.45 and depth < 2:
        otherwise = rng.choice(["", "; else " + _awk_statement(rng, depth + 1)])
        return "if (" + _awk_expression(rng) + ") " + _awk_statement(rng, depth + 1) + otherwise
    if roll < 0.55:
        return "x = " + _awk_expression(rng)
    if roll < 0.65 and depth < 2:
        return "{ " + _awk_statement(rng, depth + 1) + "; " + _awk_statement(rng, depth + 1) + " }"
    if roll < 0.75:
        return _awk_expression(rng)
    return "printf(" + _awk_expression(rng) + ")" + rng.choice(["", ' > "f"', " >> " + _awk_expression(rng)])


def _awk_program(rng: random.Random) -> str:
    statements = "; ".join(_awk_statement(rng) for _ in range(rng.randint(1, 3)))
    return rng.choice(["", "BEGIN", _awk_expression(rng) + " "]) + "{ " + statements + " }"


def _mawk_compiles_danger(program: str) -> bool | None:
    """What mawk makes of `program` without running it (`-W dump` prints the compiled code):
    whether it calls system or getline, redirects or pipes a print, or touches ARGV, ARGC or
    ENVIRON; None when mawk does not accept the program."""
    assert _MAWK is not None
    result = subprocess.run(
        [_MAWK, "-W", "dump", program],
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
        stdin=subprocess.DEVNULL,
    )
    if result.returncode != 0:
        return None
    lines = result.stdout.splitlines()
    for index, line in enumerate(lines):
        if re.search(r"\t(system|getline)\b", line):
            return True
        if re.search(r"\t(?!pushs|match)\w+\t(ARGV|ARGC|ENVIRON)\b", line):
            return True
        if re.search(r"\tprintf?\b", line) and index and re.search(r"pushint\t-\d", lines[index - 1]):
            return True
    return False


@pytest.mark.skipif(_MAWK is None, reason="needs mawk (its -W dump is the oracle)")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_no_program_mawk_compiles_to_danger_reads_as_safe(rng: random.Random) -> None:
    program = _awk_program(rng)
    read = read_awk(program)
    if read.problem is None and not read.unsafe and not read.environment:
        assert _mawk_compiles_danger(program) is not True, program


@pytest.mark.skipif(_MAWK is None, reason="needs mawk (its -W dump is the oracle)")
@pytest.mark.parametrize(
    "program",
    [
        'BEGIN{x=";"; print "id" | "sh"}',
        '{print "a;b"} END {print $0 | "sh"}',
        'BEGIN{ARGV[1]="/etc/shadow"; ARGC=2} {print}',
        '{ "date" | getline d }',
        '{print > "/tmp/x"}',
        "{x = 1 / 2; print 1 | \"sh\"; y = 3 / 4}",
    ],
)
def test_the_programs_of_the_report_compile_to_danger_and_do_not_read_as_safe(program: str) -> None:
    assert _mawk_compiles_danger(program) is True
    read = read_awk(program)
    assert read.problem is not None or read.unsafe
