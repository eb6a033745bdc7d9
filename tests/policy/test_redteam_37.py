"""Issue 37's red team, as a decision table: every example the issue gives, and more hostile
commands of the same classes (environment names, syntax the reader does not model, writes
through options, hard links, clock setting, git verbs), each with the verdict it must get. None
of them may be allowed. Then benign commands of the same shapes that must stay allowed, so the
common case is not broken.

Each row: the command, the verdict, and the kind of warning (ask) or blocking finding (block)
that must be among the reasons. `{ws}`, `{home}` and `{out}` stand for the workspace, the home
folder and a folder outside both; `skills/pdf: ` runs the command in that skill's folder. The
world is the policy tests' own, plus hard links in the workspace: `hard.txt` and
`linked/data.txt` to a file outside it, `key.txt` to the home's SSH key.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.policy import Decision, Grant, Grants, judge
from tests.policy.world import World, build_world

ALLOW, ASK, BLOCK = "allow", "ask", "block"

# The issue's own examples.
ISSUE: list[tuple[str, str, str]] = [
    ("GIT_COMMON_DIR=x git diff --no-index a b", ASK, "indirection"),
    ("GIT_TRACE=skills/pdf/SKILL.md git status", BLOCK, "destructive"),
    ("GIT_GRAFT_FILE=/etc/passwd git log -1", ASK, "indirection"),
    ("GIT_GRAFT_FILE=/etc/shadow git log -1", BLOCK, "credential"),
    ("skills/pdf: RIPGREP_CONFIG_PATH=x rg foo", ASK, "indirection"),
    ("GCONV_PATH=. iconv -f utf8 -t ascii README.md", ASK, "indirection"),
    ("LOCPATH=. ls", ASK, "indirection"),
    ("XDG_CONFIG_HOME=. git status", ASK, "indirection"),
    ("x='a[$(id)]'; echo $[x]", ASK, "indirection"),
    ("date 01010101", ASK, "program"),
    ("date -s 2020-01-01", ASK, "program"),
    ("git remote -v add x 'ext::sh -c id'", ASK, "write"),
    ("cat hard.txt", ASK, "outside"),
    ("sort -o SKILL.md README.md", BLOCK, "destructive"),
    ("tree -o SKILL.md", BLOCK, "destructive"),
    ("time -o SKILL.md ls", BLOCK, "destructive"),
    ("split -n 4 -a 1 README.md SKILL.m", BLOCK, "destructive"),
    ("uniq README.md SKILL.md", BLOCK, "destructive"),
    ("xxd README.md SKILL.md", BLOCK, "destructive"),
    ("git log --output=SKILL.md", BLOCK, "destructive"),
    ("awk '{print > \"SKILL.md\"}' README.md", BLOCK, "destructive"),
    ("cat README.md 1<>SKILL.md", BLOCK, "destructive"),
    ("chmod 000 SKILL.md", BLOCK, "destructive"),
    ("skills/pdf: chmod -R 000 .", BLOCK, "destructive"),
    ("let x=1", ASK, "indirection"),
    ("((a[x]=1))", ASK, "indirection"),
    ("coproc cat README.md", ASK, "parse"),
    ("exec 3<>README.md", ASK, "indirection"),
]

# Environment names: only locale, time zone, colour and terminal size pass, with plain values;
# wherever the policy sees an assignment (prefix, env, export, declare -x, nested shells,
# wrappers, xargs, find -exec).
ENVIRONMENT: list[tuple[str, str, str]] = [
    ("GIT_TRACE={ws}/SKILL.md git status", BLOCK, "destructive"),
    ("GIT_TRACE2_EVENT={ws}/skills/pdf/SKILL.md git log -1", BLOCK, "destructive"),
    ("GIT_EXTERNAL_DIFF=./x git diff", ASK, "indirection"),
    ("GIT_DIR=/etc git log", ASK, "indirection"),
    ("GIT_INDEX_FILE=x git status", ASK, "indirection"),
    ("GIT_ATTR_SOURCE=HEAD git diff", ASK, "indirection"),
    ("GIT_CONFIG_COUNT=0 git status", ASK, "indirection"),
    ("GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=sh git log", ASK, "indirection"),
    ("GIT_SSH_COMMAND='sh -c id' git status", ASK, "indirection"),
    ("LD_PRELOAD=./x.so cat README.md", ASK, "indirection"),
    ("LD_LIBRARY_PATH=. ls", ASK, "indirection"),
    ("LD_AUDIT=./a.so ls", ASK, "indirection"),
    ("DYLD_INSERT_LIBRARIES=./x.dylib ls", ASK, "indirection"),
    ("PYTHONPATH=. python3 --version", ASK, "indirection"),
    ("PYTHONSTARTUP=x.py python3 --version", ASK, "indirection"),
    ("PYTHONWARNINGS=error python3 --version", ASK, "indirection"),
    ("PYTHONUNBUFFERED=1 python3 --version", ASK, "indirection"),
    ("NODE_OPTIONS='--require ./x.js' node --version", ASK, "indirection"),
    ("PERL5LIB=. grep x README.md", ASK, "indirection"),
    ("BASH_ENV=./x.sh bash -c ls", ASK, "indirection"),
    ("ENV=./x.sh sh -c ls", ASK, "indirection"),
    ("PROMPT_COMMAND=id bash -c ls", ASK, "indirection"),
    ("IFS=/ ls", ASK, "indirection"),
    ("PAGER='sh -c id' git log", ASK, "indirection"),
    ("LESSOPEN='|id %s' cat README.md", ASK, "indirection"),
    ("GREP_OPTIONS=-r grep x README.md", ASK, "indirection"),
    ("XDG_DATA_DIRS=. ls", ASK, "indirection"),
    ("TERMINFO=. ls", ASK, "indirection"),
    ("RIPGREP_CONFIG_PATH={home}/.ssh/id_rsa rg foo", BLOCK, "credential"),
    ("FOO=1 ls", ASK, "indirection"),
    ("TZ=/etc/shadow date", ASK, "indirection"),
    ("TZ=../../etc/localtime date", ASK, "indirection"),
    ("LANG=../x ls", ASK, "indirection"),
    ("LC_ALL=/tmp/x ls", ASK, "indirection"),
    ("TERM=../x ls", ASK, "indirection"),
    ("COLUMNS='$(id)' ls", ASK, "indirection"),
    ("env GIT_TRACE=x git status", ASK, "indirection"),
    ("env -i git status", ASK, "indirection"),
    ("env -u GIT_CONFIG_GLOBAL git status", ASK, "indirection"),
    ("env LD_PRELOAD=./x.so ls", ASK, "indirection"),
    ("export GIT_DIR=/tmp/x; git status", ASK, "indirection"),
    ("export LD_PRELOAD=./x.so", ASK, "indirection"),
    ("declare -x GIT_EXTERNAL_DIFF=x; git diff", ASK, "indirection"),
    ("typeset -x PAGER=x", ASK, "indirection"),
    ("bash -c 'GIT_TRACE=x git status'", ASK, "indirection"),
    ("sh -c 'LD_PRELOAD=x ls'", ASK, "indirection"),
    ("echo README.md | xargs env GIT_DIR=x git log", ASK, "indirection"),
    ("nohup env PYTHONPATH=. python3 --version", ASK, "indirection"),
    ("timeout 5 env LD_PRELOAD=x ls", ASK, "indirection"),
    ("find . -name x -exec env LD_PRELOAD=x cat {} \\;", ASK, "indirection"),
    ("CDPATH=/etc; cd x", ASK, "indirection"),
    ("http_proxy=http://127.0.0.1:1; ls", ASK, "indirection"),
    ("for PATH in .; do ls; done", ASK, "indirection"),
    ("select LD_PRELOAD in ./x.so; do ls; done", ASK, "indirection"),
    ("(LD_PRELOAD=x; ls)", ASK, "indirection"),
    ("export {LD_PRELOAD,X}=1", ASK, "indirection"),
    ("command -p env LD_PRELOAD=x ls", ASK, "indirection"),
    ("env LANG=C GIT_DIR=x git status", ASK, "indirection"),
]

# Syntax the reader does not model, or that evaluates what it cannot see: it asks.
SYNTAX: list[tuple[str, str, str]] = [
    ("echo $[1+2]", ASK, "indirection"),
    ('echo "$[x]"', ASK, "indirection"),
    (": $[a[$(id)]]", ASK, "indirection"),
    ("cat <<EOF\n$[x]\nEOF", ASK, "indirection"),
    ("let 'a[$(id)]=1'", ASK, "indirection"),
    ("(( a[$(id)] ))", ASK, "indirection"),
    ("for ((i=x; i<3; i++)); do echo; done", ASK, "indirection"),
    ("[[ a[$(id)] -eq 1 ]]", ASK, "indirection"),
    ("coproc NAME { cat README.md; }", ASK, "parse"),
    ("exec 3<README.md", ASK, "indirection"),
    ("exec {fd}<>README.md", ASK, "parse"),
    ("cat README.md {fd}>out.txt", ASK, "parse"),
    ("a=([x]=1)", ASK, "indirection"),
    ("echo ${a[$(id)]}", ASK, "indirection"),
    ("declare -n r=x", ASK, "program"),
    ("printf -v 'a[$(id)]' x", ASK, "program"),
    ("mapfile -C id x < README.md", ASK, "indirection"),
    ("echo $((x))", ASK, "indirection"),
    ("case a in $[y]) echo;; esac", ASK, "indirection"),
    ("case a in $((y))) echo;; esac", ASK, "indirection"),
    ("case a in ${!y}) echo;; esac", ASK, "indirection"),
    ("ls > $[x]", ASK, "indirection"),
    ("cat <<< $[x]", ASK, "indirection"),
]

# Options and operands that write a file are writes; over a SKILL.md (or taking read access from
# one or its folder) they block.
WRITES: list[tuple[str, str, str]] = [
    ("sort --output=SKILL.md README.md", BLOCK, "destructive"),
    ("sort --out=skills/pdf/SKILL.md README.md", BLOCK, "destructive"),
    ("sort -oSKILL.md README.md", BLOCK, "destructive"),
    ("command time -o SKILL.md ls", BLOCK, "destructive"),
    ("/usr/bin/time -o SKILL.md ls", BLOCK, "destructive"),
    ("csplit -f SKILL.m -b 'd%.0d' README.md 1", BLOCK, "destructive"),
    ("xxd -r README.md SKILL.md", BLOCK, "destructive"),
    ("git diff --output SKILL.md", BLOCK, "destructive"),
    ("git show --outp=SKILL.md HEAD", BLOCK, "destructive"),
    ("git archive -o SKILL.md HEAD", BLOCK, "destructive"),
    ("awk 'BEGIN{print \"x\" >> \"skills/pdf/SKILL.md\"}'", BLOCK, "destructive"),
    ("awk '{f=\"SKILL.md\"; print > f}' README.md", BLOCK, "destructive"),
    ("gawk '{printf \"%s\", $0 > \"SKILL.md\"}' README.md", BLOCK, "destructive"),
    ("awk '{print > (\"SKI\" \"LL.md\")}' README.md", BLOCK, "destructive"),
    ("echo x >> SKILL.md", BLOCK, "destructive"),
    ("exec 3<>SKILL.md", BLOCK, "destructive"),
    ("iconv -f utf8 -t ascii -o SKILL.md README.md", BLOCK, "destructive"),
    ("tee -a SKILL.md < README.md", BLOCK, "destructive"),
    ("touch SKILL.md", BLOCK, "destructive"),
    ("find . -name x -fprint SKILL.md", BLOCK, "destructive"),
    ("chmod a-r skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("chmod u-x skills/pdf", BLOCK, "destructive"),
    ("chmod 0 skills", BLOCK, "destructive"),
    ("chmod -R u=w skills/pdf", BLOCK, "destructive"),
    ("cp skills/pdf/SKILL.md .", BLOCK, "destructive"),
    ("cp -t . skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("patch -o SKILL.md README.md x.patch", BLOCK, "destructive"),
    ("gunzip -f SKILL.md.gz", BLOCK, "destructive"),
    ("skills/pdf: sort -o SKILL.md ../../README.md", BLOCK, "destructive"),
    ("cp -r skills/pdf/. .", BLOCK, "destructive"),
    ("cp -rT skills/pdf .", BLOCK, "destructive"),
    ("rsync -a skills/pdf/ .", BLOCK, "destructive"),
    ("rsync -a --log-file=SKILL.md references/ backup/", BLOCK, "destructive"),
    ("find . -name '*.md' -exec sed -i s/a/b/ {} +", BLOCK, "destructive"),
    ("find . -type f -exec chmod 000 {} +", BLOCK, "destructive"),
    ("find . -name SKILL.md | xargs sed -i s/a/b/", BLOCK, "destructive"),
    ("ed -s SKILL.md", BLOCK, "destructive"),
    ("awk '{ print | \"cat > SKILL.md\" }' README.md", BLOCK, "destructive"),
    ("awk 'BEGIN { \"rm -rf /\" | getline x }'", BLOCK, "destructive"),
    ("git stash show --output=SKILL.md", BLOCK, "destructive"),
    ("sort -o S*.md README.md", BLOCK, "destructive"),
    ("cat README.md 0<>SKILL.md", BLOCK, "destructive"),
    ("chmod u-r .", BLOCK, "destructive"),
    ("sort README.md | sponge SKILL.md", BLOCK, "destructive"),
    ("vim -es -c ':wq' skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("shuf -o SKILL.md README.md", BLOCK, "destructive"),
    ("sort -uo SKILL.md README.md", BLOCK, "destructive"),
    ("cat README.md 2>> SKILL.md", BLOCK, "destructive"),
    ("time -o out.txt ls", ASK, "write"),
    ("cp -r skills/pdf skills/pdf-copy", ASK, "write"),
    ("chmod 644 SKILL.md", ASK, "write"),
    ("chmod u=rw SKILL.md", ASK, "write"),
]

# Hard links: a file with more than one name counts as outside; one that is a credential's
# other name blocks.
LINKS: list[tuple[str, str, str]] = [
    ("cat key.txt", BLOCK, "credential"),
    ("head -1 key.txt", BLOCK, "credential"),
    ("grep x hard.txt", ASK, "outside"),
    ("sort -o hard.txt README.md", ASK, "outside"),
    ("echo x >> hard.txt", ASK, "outside"),
    ("wc -l key.txt", BLOCK, "credential"),
    ("grep -rn PRIVATE .", BLOCK, "credential"),
    ("rg PRIVATE", BLOCK, "credential"),
    ("tar czf /tmp/all.tgz .", BLOCK, "credential"),
    ("grep -rn x linked", ASK, "outside"),
]

# Setting the clock, git verbs hidden behind options, awk's own writers and variables, output
# options of programs the policy does not read, package managers the project's files steer.
OTHERS: list[tuple[str, str, str]] = [
    ("awk -dSKILL.md 'BEGIN{}'", BLOCK, "destructive"),
    ("gawk --pretty-print=SKILL.md 'BEGIN{}'", BLOCK, "destructive"),
    ("awk -v ARGC=2 '{print}' README.md", ASK, "program"),
    ("awk 'BEGIN{SYMTAB[\"ARGC\"]=2}' README.md", ASK, "program"),
    ("pandoc -o SKILL.md x.docx", BLOCK, "destructive"),
    ("mytool --output=skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("yarn --version", ASK, "program"),
    ("pnpm ls", ASK, "program"),
    ("uv tree", ASK, "program"),
    ("npm help install", ASK, "program"),
    ("date --set=@0", ASK, "program"),
    ("date -u 123456", ASK, "program"),
    ("date 0101 +%F", ASK, "program"),
    ("git remote --verbose set-url origin 'ext::sh -c id'", ASK, "write"),
    ("git stash -p", ASK, "write"),
    ("git worktree -v add x", ASK, "write"),
    ("git reflog -n 1 expire --all", ASK, "write"),
    ("git notes --ref=x add -m y", ASK, "write"),
]

HOSTILE = ISSUE + ENVIRONMENT + SYNTAX + WRITES + LINKS + OTHERS

BENIGN: list[str] = [
    "ls -la",
    "grep -rn foo references",
    "LANG=C sort README.md",
    "TZ=UTC date +%F",
    "git log --oneline -5",
    "LC_ALL=C.UTF-8 grep -c x README.md",
    "NO_COLOR=1 ls",
    "COLUMNS=120 ls",
    "TERM=xterm-256color ls",
    "TZ=Europe/Paris date",
    "LANGUAGE=en:de ls",
    "env LANG=C sort README.md",
    "date",
    "date -u +%s",
    "date -d yesterday +%F",
    "git remote -v",
    "git remote get-url origin",
    "git stash list",
    "git status",
    "x=README.md; echo $x",
    "awk '{print $1}' README.md",
    "sed -n 1p README.md",
    "head -3 SKILL.md",
    "wc -l SKILL.md",
    "sort -r README.md | uniq -c",
    "time ls",
    "time -p ls",
    "awk -v n=2 -v OFS=, '{print $n}' README.md",
    "npm ls",
    "case README.md in *.md) echo md;; esac",
    "for f in README.md notes.md; do echo hi; done",
]


def _format(command: str, world: World) -> str:
    return (
        command.replace("{ws}", str(world.workspace))
        .replace("{home}", str(world.home))
        .replace("{out}", str(world.outside))
    )


@pytest.fixture(scope="module")
def red_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    world = build_world(tmp_path_factory.mktemp("redteam-37"))
    os.link(world.outside / "data.txt", world.workspace / "hard.txt")
    os.link(world.home / ".ssh" / "id_rsa", world.workspace / "key.txt")
    (world.workspace / "linked").mkdir()
    os.link(world.outside / "data.txt", world.workspace / "linked" / "data.txt")
    return world


def _judge(world: World, row: str) -> Decision:
    folder, colon, command = row.partition(": ")
    if colon and folder == "skills/pdf":
        return judge(_format(command, world), world.in_dir(folder))
    return judge(_format(row, world), world.context)


def test_the_table_is_large_and_has_no_duplicates() -> None:
    commands = [row[0] for row in HOSTILE] + BENIGN
    assert len(set(commands)) == len(commands), [c for c in commands if commands.count(c) > 1]
    assert len(HOSTILE) - len(ISSUE) >= 60
    assert len(BENIGN) >= 15
    assert all(verdict != ALLOW for _, verdict, _ in HOSTILE)


@pytest.mark.parametrize(("command", "verdict", "kind"), HOSTILE, ids=[repr(r[0])[:60] for r in HOSTILE])
def test_hostile(red_world: World, command: str, verdict: str, kind: str) -> None:
    decision = _judge(red_world, command)
    summary = (decision.verdict, decision.reasons, decision.warning_pairs())
    assert decision.verdict == verdict, summary
    if verdict == BLOCK:
        assert kind in {b.kind for b in decision.blockers}, summary
    else:
        assert kind in {w.kind for w in decision.warnings}, summary


@pytest.mark.parametrize("command", BENIGN)
def test_benign_stays_allowed(red_world: World, command: str) -> None:
    decision = _judge(red_world, command)
    assert decision.verdict == ALLOW, (decision.reasons, decision.warning_pairs())


@pytest.mark.parametrize(
    "command",
    ["GIT_TRACE=x git status", "LD_PRELOAD=./x.so ls", "FOO=1 ls", "env -i git status",
     "PYTHONPATH=. python3 scripts/extract.py", "export GIT_DIR=x; git status"],
)
def test_an_environment_setting_is_never_granted(red_world: World, command: str) -> None:
    """An "always allow" for a program must not cover the next environment it is given."""
    assert _judge(red_world, command).grant is None


def test_a_hard_link_counts_as_outside_only_while_it_has_other_names(tmp_path: Path) -> None:
    world = build_world(tmp_path)
    os.link(world.workspace / "notes.md", world.workspace / "copy.md")
    assert judge("cat notes.md", world.context).verdict == ASK
    os.unlink(world.workspace / "copy.md")
    assert judge("cat notes.md", world.context).verdict == ALLOW


@pytest.mark.parametrize(
    ("granted", "command"),
    [
        ("python3", "PYTHONPATH=. python3 scripts/extract.py"),
        ("python3", "env LD_PRELOAD=./x.so python3 scripts/extract.py"),
        ("sort", "GCONV_PATH=. sort -o out.txt README.md"),
        ("git commit", "GIT_EXTERNAL_DIFF=./x git commit -m x"),
    ],
)
def test_a_grant_for_the_program_does_not_cover_its_environment(
    red_world: World, granted: str, command: str
) -> None:
    """Granted `python3` in the workspace: the same command with a variable set asks again."""
    grants = Grants.session_only()
    grants.add(Grant(granted, "./", red_world.workspace))
    plain = command.split(" ", 1)[1] if "=" in command.split(" ", 1)[0] else None
    if plain is not None:
        assert judge(plain, red_world.context, grants).verdict == ALLOW
    assert judge(command, red_world.context, grants).verdict == ASK


def test_hard_links_in_git_objects_count_only_as_a_credential(tmp_path: Path) -> None:
    """A local `git clone` hard-links its objects to the repository it came from: `grep -r` is
    not asked about them, but one that is the SSH key's other name still blocks."""
    world = build_world(tmp_path)
    objects = world.workspace / ".git" / "objects"
    objects.mkdir()
    (world.outside / "pack").write_text("objects")
    os.link(world.outside / "pack", objects / "pack-1")
    assert judge("grep -rn x .", world.context).verdict == ALLOW
    os.link(world.home / ".ssh" / "id_rsa", objects / "pack-2")
    decision = judge("grep -rn x .", world.context)
    assert decision.verdict == BLOCK and {b.kind for b in decision.blockers} == {"credential"}
