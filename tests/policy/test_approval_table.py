"""Issue 25 ("Approval means approval"): the commands the tester ran with no approval, and the
benign ones wrongly blocked, as a decision table. One line per case: the command, the verdict,
and the kind of warning (ask) or blocking finding (block) that must be among the reasons.

The world is the policy tests' own (world.py) with what these cases need beside it: a link to
`/etc` and one out of the workspace inside a skill, a skill that ships its own `.git` (whose
config runs a program on `git status`), and a CA bundle next to a private key. A `DIR:` prefix
runs the command in that folder of the workspace.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.policy import PolicyContext, judge
from studio.policy.shell.budget import BUDGET_STEPS, Budget
from tests.policy.world import World, build_world

ALLOW, ASK, BLOCK = "allow", "ask", "block"

_CERTIFICATE = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
_KEY = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"

ROWS: list[tuple[str, str, str | None]] = [
    # -- sed: a real reading of the script ------------------------------------------------------
    ("sed -n '1,5p' README.md", ALLOW, None),
    ("sed -E 's/(a)/b/' README.md", ALLOW, None),
    ("sed -z 's/a/b/' README.md", ALLOW, None),
    ("sed -s -n '$p' README.md notes.md", ALLOW, None),
    ("sed -e p -e 's/a/b/' README.md", ALLOW, None),
    ("sed --expression=p -n README.md", ALLOW, None),
    ("sed 's/[[:space:]]*$//' README.md", ALLOW, None),
    ("sed '/^#/{s/#/-/;p}' README.md", ALLOW, None),
    ("sed 'r notes.md' README.md", ALLOW, None),
    ("sed -f scripts/edit.sed README.md", ALLOW, None),
    ("sed 's/[/]/x/e' README.md", ASK, "program"),
    ("sed '/[/]/w /tmp/out' README.md", ASK, "program"),
    ("sed 's/a[/]b/x/w /tmp/o' README.md", ASK, "program"),
    ("sed 's|a|b|e' README.md", ASK, "program"),
    ("sed -n '/a/p;e id' README.md", ASK, "program"),
    ("sed 's/x/y/;W {out}/o' README.md", ASK, "outside"),
    ("sed 's/x/y/w out.txt' README.md", ASK, "program"),
    ("sed '1e rm -rf /' README.md", BLOCK, "destructive"),
    ("sed -e 'a\\' -e 'e id' README.md", ALLOW, None),  # -e joins with a newline: text of `a`
    ("sed -e 'p' -e 'e id' README.md", ASK, "program"),
    ("sed 'r /etc/shadow' README.md", BLOCK, "credential"),
    ("sed 'R {out}/data.txt' README.md", ASK, "outside"),
    ("sed -f scripts/evil.sed README.md", ASK, "program"),
    ("sed -f {out}/data.txt README.md", ASK, "program"),
    ("sed --in-place 's/a/b/' notes.md", ASK, "write"),
    ("sed -i.bak 's/a/b/' notes.md", ASK, "write"),
    ("sed 's/a/b/w SKILL.md' README.md", BLOCK, "destructive"),
    ("sed -i 's/a/b/' SKILL.md", BLOCK, "destructive"),
    ("sed -ni 's/a/b/p' skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("sed --frobnicate p README.md", ASK, "program"),
    ("sed --frobnicate -i p SKILL.md", BLOCK, "destructive"),
    ("sed -i -f \"$X\" SKILL.md", BLOCK, "destructive"),
    ("sed -i -f {out}/data.txt SKILL.md", BLOCK, "destructive"),
    ("sed -i \"$X\" SKILL.md", BLOCK, "destructive"),
    ("sed 'k' README.md", ASK, "program"),
    # -- awk: tokens, not patterns ----------------------------------------------------------------
    ("awk '{print $1}' assets/sample.csv", ALLOW, None),
    ("awk -F, '{print \"a;b|c\", $2}' assets/sample.csv", ALLOW, None),
    ("awk '/a|b/ {n++} END {print n}' README.md", ALLOW, None),
    ("awk 'NF > 1 {print (NF > 2)}' README.md", ALLOW, None),
    ("awk -v n=2 '{print $n}' assets/sample.csv", ALLOW, None),
    ("awk 'BEGIN{while(1) a[i++]=i}'", ALLOW, None),  # memory is the sandbox's to limit
    ("awk 'BEGIN{x=\";\"; print \"id\" | \"sh\"}' README.md", ASK, "program"),
    ("awk '{print \"a;b\"} END {print $0 | \"sh\"}' README.md", ASK, "program"),
    ("awk 'BEGIN{ARGV[1]=\"/etc/shadow\"; ARGC=2} {print}' README.md", ASK, "program"),
    ("awk 'BEGIN{split(\"/etc/passwd\", ARGV)} {print}' README.md", ASK, "program"),
    ("awk '{ \"date\" | getline d; print d }' README.md", ASK, "program"),
    ("awk '{getline x < \"/etc/passwd\"}' README.md", ASK, "program"),
    ("awk '{print > \"/tmp/x\"}' README.md", ASK, "program"),
    ("awk '{printf(\"%s\", $0) >> \"log\"}' README.md", ASK, "program"),
    ("awk '@load \"readfile\"; BEGIN{}'", ASK, "program"),
    ("awk 'BEGIN{system(\"rm -rf /\")}'", BLOCK, "destructive"),
    ("awk 'BEGIN{print ENVIRON[\"OPENAI_API_KEY\"]}'", ASK, "secrets"),
    ("awk -f scripts/prog.awk README.md", ASK, "program"),
    ("gawk -E scripts/prog.awk README.md", ASK, "program"),
    ("gawk -i inplace '{sub(/a/, \"b\")} 1' SKILL.md", BLOCK, "destructive"),
    ("gawk '@include \"inplace\"; {print}' SKILL.md", BLOCK, "destructive"),
    ("gawk -i inplace '{print}' notes.md", ASK, "write"),
    ("awk '{print}' ARGV=x README.md", ASK, "program"),
    ("awk '{x = 4 / 2; print 1 | \"sh\"; y = 3 / 4}' README.md", ASK, "program"),
    # -- jq -----------------------------------------------------------------------------------------
    ("jq '.name' package.json", ALLOW, None),
    ("jq '.env' package.json", ALLOW, None),  # a field of the input
    ("jq -n env", ASK, "secrets"),
    ("jq -n '$ENV.HOME'", ASK, "secrets"),
    ("jq -n '\"\\(env.HOME)\"'", ASK, "secrets"),
    ("jq -n '\"\\(\")\" + env.HOME + \"(\")\"'", ASK, "secrets"),  # where strings end hangs on code
    ("jq -n '$ ENV.HOME'", ASK, "secrets"),
    ("jq -n '\"env\"'", ALLOW, None),
    ("jq input_filename README.md", ASK, "program"),
    ("jq -n 'import \"a\" as a {search: \"/etc\"}; 1'", ASK, "program"),
    ("jq -n 'include \"a\"; 1'", ASK, "program"),
    ("jq --rawfile x /etc/passwd -n '$x'", ASK, "outside"),
    ("jq --slurpfile x {out}/data.txt -n '$x'", ASK, "outside"),
    ("jq -L /etc -n 1", ASK, "program"),
    ("jq -L/etc -n 1", ASK, "program"),
    ("jq -n -f scripts/env.jq", ASK, "secrets"),
    # -- git: per-subcommand options, files, the repository's own configuration ----------------
    ("git status", ALLOW, None),
    ("git log -S needle --oneline", ALLOW, None),
    ("git blame -L 1,2 README.md", ALLOW, None),
    ("git blame -S /etc/passwd README.md", ASK, "outside"),
    ("git blame -S/etc/passwd README.md", ASK, "program"),
    ("git blame --contents /etc/passwd README.md", ASK, "outside"),
    ("git blame --contents=/etc/passwd README.md", ASK, "program"),
    ("git blame --ignore-revs-file {out}/data.txt README.md", ASK, "outside"),
    ("git config --get user.name", ALLOW, None),
    ("git config --file /etc/passwd --list", ASK, "outside"),
    ("git config -f /etc/passwd -l", ASK, "outside"),
    ("git config --fil /etc/passwd -l", ASK, "program"),
    ("git config --global --list", ASK, "program"),
    ("git -c core.pager=id log", ASK, "indirection"),
    ("git --config-env=core.pager=X log", ASK, "indirection"),
    ("git --exec-path=/tmp log", ASK, "indirection"),
    ("git -C /etc status", ASK, "outside"),
    ("git --git-dir={out} status", ASK, "outside"),
    ("git --work-tree={out} status", ASK, "outside"),
    ("git log --frob", ASK, "program"),
    ("git status --frob", ASK, "program"),
    ("git cat-file --textconv HEAD:README.md", ASK, "program"),
    ("git cat-file -p HEAD", ALLOW, None),
    ("git diff -Oorder.txt", ASK, "program"),
    ("git shortlog -sn", ALLOW, None),
    ("git help -w log", ASK, "program"),
    ("git -C skills/pdf status", ALLOW, None),
    ("git -C skills/shipped status", ASK, "program"),
    ("skills/shipped: git status", ASK, "program"),
    ("skills/shipped: git log --oneline", ASK, "program"),
    ("skills/shipped/scripts: git diff", ASK, "program"),
    ("skills/shipped: git --version", ALLOW, None),
    ("skills/bare: git log -p", ASK, "program"),  # a bare repository is used as one too
    ("git -C skills/bare log", ASK, "program"),
    (".git: git log --oneline", ALLOW, None),  # the workspace's own repository, from inside
    # -- shell constructs the parser does not model ---------------------------------------------
    ("wait -p 'a[$(id)]'", ASK, "indirection"),
    ("wait -n -p 'a[`id`]'", ASK, "indirection"),
    ("wait -p pid", ALLOW, None),
    ("declare 'a[$(id)]=1'", ASK, "program"),
    ("typeset 'a[$(id)]=1'", ASK, "program"),
    ("local 'a[$(id)]'", ASK, "program"),
    ("read 'a[$(id)]'", ASK, "indirection"),
    ("printf -v 'a[$(id)]' x", ASK, "program"),
    ("mapfile 'a[$(id)]'", ASK, "indirection"),
    ("[[ -v a[$(id)] ]]", ASK, "indirection"),
    ("(( a[$(id)]++ ))", ASK, "indirection"),
    ("echo $(( a[$(id)] ))", ASK, "indirection"),
    ("let 'a[$(id)]=1'", ASK, "indirection"),
    ("unset 'a[$(id)]'", ASK, "indirection"),
    ("getopts ab 'a[$(id)]'", ASK, "indirection"),
    ("case x in a[$(frob)]) ls;; esac", ASK, "program"),
    # -- paths resolved as the kernel does: links before `..` -----------------------------------
    ("cat skills/x/link-to-etc/../etc/shadow", BLOCK, "credential"),
    ("cat skills/x/link-to-etc/../etc/hostname", ASK, "outside"),
    ("cat skills/x/link-out/../data.txt", ASK, "outside"),
    ("cat skills/x/link-out/../../project/README.md", ALLOW, None),
    ("cat skills/x/link-to-etc/../../dev/null", ALLOW, None),
    ("cat skills/x/../pdf/SKILL.md", ALLOW, None),
    ("rm skills/x/link-out/../data.txt", ASK, "outside"),
    ("echo hi > skills/x/link-out/../new.txt", ASK, "outside"),
    ("/usr/bin/ls references", ALLOW, None),
    ("skills/x/link-to-etc/../usr/bin/ls", ASK, "outside"),
    # -- links followed while walking a tree ----------------------------------------------------
    ("grep -R x references", ALLOW, None),
    ("grep -r x .", ALLOW, None),  # -r follows only the links it is given
    ("grep -R x skills", ASK, "outside"),
    ("grep --dereference-recursive x skills", ASK, "outside"),
    ("grep -Rn x", ASK, "outside"),
    ("rg -L x skills", ASK, "outside"),
    ("rg --follow x .", ASK, "outside"),
    ("rg -L x references", ALLOW, None),
    ("find -L skills -name x", ASK, "outside"),
    ("find skills -follow -name x", ASK, "outside"),
    ("find -L references -name x", ALLOW, None),
    ("cp -rL skills backup", ASK, "outside"),
    ("tar -h -cf a.tar skills", ASK, "outside"),
    ("tar --dereference -cf a.tar skills", ASK, "outside"),
    ("du -L skills", ASK, "outside"),
    ("du -L references", ALLOW, None),
    ("ls -L skills/x", ASK, "outside"),
    ("ls -LR skills", ASK, "outside"),
    ("ls -L skills", ALLOW, None),  # only one level: the links are a level further down
    ("diff -r skills references", ASK, "outside"),
    ("diff -r --no-dereference skills references", ALLOW, None),
    # -- must block on a SKILL.md ---------------------------------------------------------------
    ("echo SKILL.md | xargs rm", BLOCK, "destructive"),
    ("printf 'SKILL.md\\n' | xargs rm -f", BLOCK, "destructive"),
    ("find . -name SKILL.md | xargs rm", BLOCK, "destructive"),
    ("find . -name SKILL.md -print0 | xargs -0 mv -t /tmp", BLOCK, "destructive"),
    ("gzip SKILL.md", BLOCK, "destructive"),
    ("bzip2 skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("gzip -r skills", BLOCK, "destructive"),
    ("zip -m a.zip SKILL.md", BLOCK, "destructive"),
    ("zip -rm a.zip skills", BLOCK, "destructive"),
    ("tar --remove-files -cf a.tar SKILL.md", BLOCK, "destructive"),
    ("tar --remove-files -czf a.tgz skills/pdf", BLOCK, "destructive"),
    ("git mv SKILL.md README2.md", BLOCK, "destructive"),
    ("git mv skills/pdf skills/pdf2", BLOCK, "destructive"),
    ("git mv notes.md SKILL.md", BLOCK, "destructive"),
    ("git checkout -- SKILL.md", BLOCK, "destructive"),
    ("git checkout HEAD~1 -- skills/pdf/SKILL.md", BLOCK, "destructive"),
    ("git restore SKILL.md", BLOCK, "destructive"),
    ("perl -pi -e 's/a/b/' SKILL.md", BLOCK, "destructive"),
    ("perl -i.bak -pe 's/a/b/' SKILL.md", BLOCK, "destructive"),
    ("ruby -i -pe '1' SKILL.md", BLOCK, "destructive"),
    ("perl -Mstrict -ne 'print' SKILL.md", ASK, "indirection"),  # reads it, `i` of `-Mstrict`
    ("python3 -c \"open('SKILL.md','w').write('x')\"", BLOCK, "destructive"),
    ("python3 -c \"open('SKILL.md', 'a').write('x')\"", BLOCK, "destructive"),
    ("python3 -c \"import pathlib; pathlib.Path('SKILL.md').write_text('x')\"", BLOCK, "destructive"),
    ("node -e \"require('fs').writeFileSync('SKILL.md', '')\"", BLOCK, "destructive"),
    # ...and the same on other files only asks
    ("echo notes.md | xargs rm", ASK, "write"),
    ("gzip notes.md", ASK, "write"),
    ("gzip -k SKILL.md", ASK, "write"),
    ("zip a.zip SKILL.md", ASK, "write"),
    ("tar -cf a.tar SKILL.md", ASK, "write"),
    ("git mv notes.md notes2.md", ASK, "write"),
    ("git checkout -- notes.md", ASK, "write"),
    ("perl -pi -e 's/a/b/' notes.md", ASK, "indirection"),
    # -- benign commands that must not block ----------------------------------------------------
    ("rm -rf *.egg-info", ASK, "write"),
    ("rm -rf build dist *.egg-info", ASK, "write"),
    ("rm -rf /tmp/mybuild", ASK, "outside"),
    ("rm -r ../other/build", ASK, "outside"),
    ("chmod -R 755 .", ASK, "write"),
    ("chmod -R u+x scripts", ASK, "write"),
    ("ls ~/.ssh", ASK, "secrets"),
    ("ls -la ~/.gnupg", ASK, "secrets"),
    ("cat references/ca-bundle.pem", ALLOW, None),
    ("grep -c BEGIN references/ca-bundle.pem", ALLOW, None),
    # ...while their dangerous neighbours still do
    ("rm -rf *", BLOCK, "destructive"),
    ("rm -rf .*", BLOCK, "destructive"),
    ("rm -rf /tmp", BLOCK, "destructive"),
    ("rm -rf /usr/local/lib", BLOCK, "destructive"),
    ("rm -rf ~/Documents", BLOCK, "destructive"),
    ("rm -rf ~/.config/app", BLOCK, "destructive"),
    ("rm -rf skills/x/link-out/", BLOCK, "destructive"),
    ("chmod -R 755 ~", BLOCK, "destructive"),
    ("chmod -R 755 /", BLOCK, "destructive"),
    ("cat ~/.ssh/id_rsa", BLOCK, "credential"),
    ("ls ~/.ssh/id_rsa", BLOCK, "credential"),
    ("cat references/key.pem", BLOCK, "credential"),
    ("cat references/missing.pem", BLOCK, "credential"),
    ("tar -czf keys.tgz ~/.ssh", BLOCK, "credential"),
]

# A skill's own repository: its config runs a program whenever git reads the work tree.
_SHIPPED_CONFIG = "[core]\n\tfsmonitor = touch /tmp/pwned\n\tpager = sh -c id\n"


def _extend(world: World) -> World:
    workspace = world.workspace
    files = {
        workspace / "skills" / "x" / "SKILL.md": "---\nname: x\n---\n",
        workspace / "skills" / "shipped" / "SKILL.md": "---\nname: shipped\n---\n",
        workspace / "skills" / "shipped" / ".git" / "config": _SHIPPED_CONFIG,
        workspace / "skills" / "shipped" / "scripts" / "run.py": "print(1)\n",
        workspace / "references" / "ca-bundle.pem": _CERTIFICATE * 2,
        workspace / "references" / "key.pem": _CERTIFICATE + _KEY,
        workspace / "scripts" / "edit.sed": "s/a/b/\n/^#/d\n",
        workspace / "scripts" / "evil.sed": "s/a/b/\n1e id\n",
        workspace / "scripts" / "prog.awk": "{print}\n",
        workspace / "scripts" / "env.jq": "env.HOME\n",
        workspace / "package.json": '{"name": "x"}\n',
        world.outside / "sub" / "keep.txt": "keep\n",
        workspace / "skills" / "bare" / "HEAD": "ref: refs/heads/main\n",
        workspace / "skills" / "bare" / "config": "[diff]\n\texternal = sh -c id\n",
        workspace / "skills" / "bare" / "objects" / "info" / "packs": "",
        workspace / "skills" / "bare" / "refs" / "heads" / "main": "",
        workspace / ".git" / "HEAD": "ref: refs/heads/main\n",
        workspace / ".git" / "objects" / "info" / "packs": "",
        workspace / ".git" / "refs" / "heads" / "main": "",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    os.symlink("/etc", workspace / "skills" / "x" / "link-to-etc")
    os.symlink(world.outside / "sub", workspace / "skills" / "x" / "link-out")
    return world


@pytest.fixture(scope="module")
def approval_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return _extend(build_world(tmp_path_factory.mktemp("approval-world")))


def _format(command: str, world: World) -> str:
    return (
        command.replace("{ws}", str(world.workspace))
        .replace("{home}", str(world.home))
        .replace("{out}", str(world.outside))
    )


def _split(row: str) -> tuple[str, str]:
    folder, colon, command = row.partition(": ")
    if colon and " " not in folder and ("/" in folder or folder.startswith(".")):
        return folder, command
    return "", row


def test_the_table_has_no_duplicates() -> None:
    commands = [row[0] for row in ROWS]
    assert len(set(commands)) == len(commands), [c for c in commands if commands.count(c) > 1]


@pytest.mark.parametrize(("command", "verdict", "kind"), ROWS, ids=[repr(r[0])[:60] for r in ROWS])
def test_decision(approval_world: World, command: str, verdict: str, kind: str | None) -> None:
    folder, text = _split(command)
    context = approval_world.in_dir(folder) if folder else approval_world.context
    decision = judge(_format(text, approval_world), context)
    summary = (decision.verdict, decision.reasons, decision.warning_pairs())
    assert decision.verdict == verdict, summary
    if verdict == BLOCK:
        assert kind in {b.kind for b in decision.blockers}, summary
    elif verdict == ASK:
        assert kind in {w.kind for w in decision.warnings}, summary
    else:
        assert not decision.warnings, summary


def test_git_in_a_skill_that_is_its_own_workspace_and_repository_asks(approval_world: World) -> None:
    """Each skill its own workspace (the app's default): the `.git` at the workspace's root came
    with the skill, and the command is the skill's."""
    skill = approval_world.workspace / "skills" / "shipped"
    context = PolicyContext(skill, skill, approval_world.home, skill="shipped")
    decision = judge("git status", context)
    assert decision.verdict == ASK
    assert any("repository of the skill" in r for r in decision.reasons)
    plain = PolicyContext(skill, skill, approval_world.home)  # `studio policy check`: no skill
    assert judge("git status", plain).verdict == ALLOW


def test_a_skill_repository_is_never_granted(approval_world: World) -> None:
    """An "always allow" for git in a skill's own repository would let its config run later."""
    decision = judge("git status", approval_world.in_dir("skills/shipped"))
    assert decision.verdict == ASK
    assert decision.grant is None


@pytest.mark.parametrize(
    "command",
    ["sed 's/x/y/e' README.md", "sed 's/x/y/w out.txt' README.md", "sed 's/[/]/x/' README.md",
     "awk '{print | \"sh\"}' README.md", "awk '{print > \"out\"}' README.md"],
)
def test_an_embedded_program_that_runs_or_writes_is_never_granted(
    approval_world: World, command: str
) -> None:
    """A grant names a program and folders; "always allow sed" must not cover the next script."""
    decision = judge(command, approval_world.context)
    assert decision.verdict == ASK
    assert decision.grant is None


# Hostile programs and the verdict each must get, judged to the end (never "could not be checked").
HOSTILE: list[tuple[str, str]] = [
    ("awk 'BEGIN{" + "print;" * 16_000 + "}'", ASK),
    ("awk '" + "{print $1 > 2}" * 1_400 + "' README.md", ASK),
    ("awk 'BEGIN{" + 'x=";|";' * 2_000 + "}' README.md", ALLOW),
    ("sed '" + "s/a/b/;" * 14_000 + "' README.md", ASK),
    ("sed '" + "s/[a]/b/;" * 1_800 + "' README.md", ALLOW),
    ("sed '" + "e ls\n" * 19_000 + "' README.md", ASK),
    ("jq -n '" + "env|" * 4_000 + ".'", ASK),
]


@pytest.mark.parametrize(("command", "verdict"), HOSTILE, ids=[c[:30] for c, _ in HOSTILE])
def test_hostile_programs_are_judged_within_the_budget_of_cpu(
    approval_world: World, command: str, verdict: str
) -> None:
    """The budget counts steps, not time: the same command spends the same steps on any
    machine, under any load, so it gets the same verdict. Each of these is read to the end
    within the default budget, and needs the steps it spent: one step fewer and it would have
    come back blocked as unchecked (so the budget was really looked at)."""
    budget = Budget()
    decision = judge(command, approval_world.context, budget=budget)
    assert decision.verdict == verdict, decision.reasons
    assert not any("could not be checked" in r for r in decision.reasons)
    assert budget.used <= BUDGET_STEPS
    again = Budget()
    assert judge(command, approval_world.context, budget=again).verdict == verdict
    assert again.used == budget.used
    if budget.used == 0:
        # Asked before it is read at all: a line of more words than the policy reads.
        assert any("too many to check" in r for r in decision.reasons), decision.reasons
        return
    short = judge(command, approval_world.context, budget=Budget(budget.used - 1))
    assert short.verdict == BLOCK and "could not be checked" in short.reasons[0]


@pytest.mark.parametrize(("command", "verdict"), HOSTILE, ids=[c[:30] for c, _ in HOSTILE])
def test_hostile_programs_end_on_a_budget_of_a_few_steps(
    approval_world: World, command: str, verdict: str
) -> None:
    """Every stage spends the budget as it goes; given almost no steps, the check still ends,
    and never with an allow it did not finish."""
    decision = judge(command, approval_world.context, budget=Budget(3))
    assert decision.verdict in (ASK, BLOCK)


def test_a_parser_that_never_looks_at_the_budget_would_be_stopped(approval_world: World) -> None:
    """The embedded readers spend the budget: with too few steps for it, reading a long (but
    allowed-size) awk program stops with a block."""
    program = "awk 'BEGIN{" + "x=1;" * 3_000 + "}'"
    budget = Budget()
    assert judge(program, approval_world.context, budget=budget).verdict == ALLOW
    decision = judge(program, approval_world.context, budget=Budget(budget.used // 2))
    assert decision.verdict == BLOCK
    assert any("could not be checked" in r for r in decision.reasons)


SUBMODULE_ROWS: list[tuple[str, str]] = [
    ("git status", ASK),
    ("git diff", ASK),
    ("git describe --dirty", ASK),
    ("git submodule status", ASK),
    ("git grep --recurse-submodules x", ASK),
    ("git status --ignore-submodules", ALLOW),
    ("git diff --ignore-submodules=all", ALLOW),
    ("git log --oneline -5", ALLOW),
    ("git show HEAD:README.md", ALLOW),
]


@pytest.mark.parametrize(("command", "verdict"), SUBMODULE_ROWS, ids=[c for c, _ in SUBMODULE_ROWS])
def test_git_that_enters_submodules_asks(tmp_path: Path, command: str, verdict: str) -> None:
    """A skill added to the project as a submodule: `git status` runs git inside it, and so its
    own configuration."""
    world = build_world(tmp_path)
    (world.workspace / ".gitmodules").write_text('[submodule "skills/pdf"]\n\tpath = skills/pdf\n')
    decision = judge(command, world.context)
    assert decision.verdict == verdict, decision.reasons
