"""The readers of the languages other programs carry (sed scripts, awk programs), one line per
case: what each reads as safe, as doing more than editing text, or as unreadable."""

from __future__ import annotations

import pytest

from studio.policy.programs.awkscript import read_awk
from studio.policy.programs.sedscript import read_sed

SAFE, DANGER, UNREADABLE = "safe", "danger", "unreadable"

SED: list[tuple[str, str]] = [
    ("p", SAFE),
    ("1,5p", SAFE),
    ("s/a/b/g", SAFE),
    ("/^#/d", SAFE),
    ("$!N;s/\\n/ /", SAFE),
    ("y/ab/xy/", SAFE),
    ("0,/re/s//X/", SAFE),
    (":a;N;$!ba;s/\\n/ /g", SAFE),
    ("1{p;p}", SAFE),
    ("/x/{s/a/b/;p}", SAFE),
    ("1~2d", SAFE),
    ("/a/,+3p", SAFE),
    ("/a/I,/b/Mp", SAFE),
    ("\\%a%p", SAFE),
    ("s|a|b|", SAFE),
    ("s/[[:alpha:]]/X/g", SAFE),
    ("s/[]a]/X/", SAFE),
    ("s/[^]a]/X/", SAFE),
    ("s/x/y/3p", SAFE),
    ("s/a/b/ ; p", SAFE),
    ("s/a/b/ # comment", SAFE),
    ("l 5", SAFE),
    ("q5", SAFE),
    ("F;=", SAFE),
    ("1,3!p", SAFE),
    ("1 ! p", SAFE),
    ("$a text; e id", SAFE),  # the text of `a` runs to the end of its line
    ("1{\np\n}", SAFE),
    # what runs, reads or writes, however it is dressed
    ("1!e id", DANGER),
    ("e", DANGER),
    ("/a/p;e id", DANGER),
    ("s/x/y/e", DANGER),
    ("s/a/b/ge", DANGER),
    ("s|a|b|e", DANGER),
    ("s/\\//X/e", DANGER),
    ("s/x/y/gw out", DANGER),
    ("s/a/b/gw /dev/stdout", DANGER),
    ("W out", DANGER),
    ("s/x/y/;W /tmp/o", DANGER),
    ("1r/root/.ssh/id_rsa", DANGER),
    ("$R /etc/passwd", DANGER),
    (":a;e id", DANGER),  # a label ends at `;`
    ("b end; e id", DANGER),
    ("a\\\nfoo\ne id", DANGER),  # the text ends with its line
    ("s/a/b/\ne id", DANGER),
    # bracket expressions: `[/]` does not end the expression, in addresses or in `s`
    ("s/[/]/x/e", UNREADABLE),
    ("/[/]/w /tmp/out", UNREADABLE),
    ("s/a[/]b/x/w /tmp/o", UNREADABLE),
    ("s/[[:alpha:]/]/x/e", UNREADABLE),
    ("s/[\\/]/x/", UNREADABLE),
    ("s|[|]|x|e", UNREADABLE),
    ("s/[a/X/", UNREADABLE),
    ("s/[[:alpha/X/", UNREADABLE),
    # what sed would not accept, or the policy cannot read
    ("s/" + "\\" * 41, UNREADABLE),
    ("s/a/b/ x", UNREADABLE),
    ("s/x/y/w", UNREADABLE),
    ("1,", UNREADABLE),
    ("/abc", UNREADABLE),
    ("s", UNREADABLE),
    ("1", UNREADABLE),
    ("k", UNREADABLE),
    ("/a\nb/p", UNREADABLE),
]

AWK: list[tuple[str, str]] = [
    ("{print $1}", SAFE),
    ("{print $1, $2}", SAFE),
    ("BEGIN{FS=\",\"} {s += $2} END {print s}", SAFE),
    ('{print "a;b|c"}', SAFE),  # `;` and `|` inside a string
    ('/a|b/ {print}', SAFE),  # `|` in a regular expression is alternation
    ('$0 ~ /x>y/ {print}', SAFE),
    ("{print (NF > 2)}", SAFE),
    ("{print a[NF>2]}", SAFE),
    ("NF > 2 {print}", SAFE),
    ("{x = 4 / 2; y = x / 1; print y}", SAFE),
    ("{print length / 2}", SAFE),
    ("{if ($1 > 3) print $1; else print $2}", SAFE),
    ("# print | \"sh\"\n{print}", SAFE),  # a comment
    ("BEGIN{while(1) a[i++]=i}", SAFE),  # resource limits are the sandbox's
    ('/[/|]/ {print}', UNREADABLE),  # awks disagree on a `/` inside `[...]`
    ('/a\\/b/ {print}', SAFE),
    ('{ gsub(/a/, "b"); print }', SAFE),
    # runs, pipes, redirects, reads or chooses files
    ('BEGIN{x=";"; print "id" | "sh"}', DANGER),
    ('{print "a;b"} END {print $0 | "sh"}', DANGER),
    ('BEGIN{system("id")}', DANGER),
    ('BEGIN{ system ("id") }', DANGER),
    ('{ "date" | getline d }', DANGER),
    ("{ getline line < \"/etc/passwd\" }", DANGER),
    ('{print > "/tmp/x"}', DANGER),
    ('{print >> "log"}', DANGER),
    ('{printf("%s", $0) > "out"}', DANGER),
    ('{print $1 |& "cat"}', DANGER),
    ('BEGIN{ARGV[1]="/etc/shadow"; ARGC=2} {print}', DANGER),
    ('BEGIN{split("/etc/shadow", ARGV)} {print}', DANGER),
    ('@load "readfile"', DANGER),
    ('@include "x.awk"', DANGER),
    ("{x = 1 / 2; print 1 | \"sh\"; y = 3 / 4}", DANGER),  # divisions, not a regex
    ("{print 1 > 2}", DANGER),
    # after `if (...)` a statement starts: `/"/` is a regular expression, its `"` no string
    ('{ if (1) /"/; print 1 | "sh"; x = "/" "a" }', DANGER),
    ('{ if (NR > 1) /x/ }', SAFE),
    ('{ while (i < 3) i++ ; print i / 2 }', SAFE),
    ('BEGIN { if (1) print "x" > "f" }', DANGER),
    # what the policy cannot read
    ('{print "never closed}', UNREADABLE),
    ("/never closed {print}", UNREADABLE),
    ("{print `x`}", UNREADABLE),
]


def _sed_verdict(script: str) -> str:
    read = read_sed(script)
    if read.problem is not None:
        return UNREADABLE
    return DANGER if read.runs or read.reads or read.writes else SAFE


def _awk_verdict(program: str) -> str:
    read = read_awk(program)
    if read.problem is not None:
        return UNREADABLE
    return DANGER if read.unsafe else SAFE


@pytest.mark.parametrize(("script", "expected"), SED, ids=[repr(s)[:50] for s, _ in SED])
def test_sed_scripts(script: str, expected: str) -> None:
    assert _sed_verdict(script) == expected, read_sed(script)


@pytest.mark.parametrize(("program", "expected"), AWK, ids=[repr(p)[:50] for p, _ in AWK])
def test_awk_programs(program: str, expected: str) -> None:
    assert _awk_verdict(program) == expected, read_awk(program)


def test_sed_reads_the_commands_e_runs_and_the_files_it_names() -> None:
    read = read_sed("1e id\ns/a/b/w out.txt\n$r notes.md")
    assert (read.runs, read.writes, read.reads) == (["id"], ["out.txt"], ["notes.md"])


def test_awk_gives_the_command_of_a_plain_system_call() -> None:
    assert read_awk('BEGIN{system("rm -rf \\"/\\"")}').commands == ['rm -rf "/"']


def test_awk_environment_reads_are_told_apart() -> None:
    assert read_awk("BEGIN{print ENVIRON[\"HOME\"]}").environment
    assert not read_awk('BEGIN{print "ENVIRON"}').environment
