"""No command takes a skill away: deleting, moving, emptying or writing over a skill folder or its
SKILL.md is blocked however it is spelled; the same commands on other files only ask. The world
(see world.py) is a skill project with a nested skill at skills/pdf."""

from __future__ import annotations

import pytest

from studio.policy import judge
from tests.policy.world import World

TAKES_A_SKILL = [
    # moving a skill folder or its SKILL.md away, or writing over it
    "mv skills/pdf /tmp/pdf",
    "mv skills/pdf skills/renamed",
    "mv skills /tmp/all-skills",
    "mv SKILL.md notes.md",
    "mv notes.md SKILL.md",
    "mv README.md skills/pdf/SKILL.md",
    "mv -t /tmp skills/pdf",
    "mv skills/* /tmp/",
    "mv *.md /tmp/",
    "mv ski*/p?f /tmp",
    "mv -f ./skills//pdf/ {out}/",
    "m\\v skills/pdf /tmp/x",
    "'mv' skills/pdf /tmp/x",
    "\"m\"v skills/p'd'f /tmp/x",
    "$'\\x6d\\x76' skills/pdf /tmp/x",
    "d=skills/pdf; mv $d /tmp",
    "cd skills && mv pdf /tmp",
    "mv references/../skills/pdf /tmp",
    "rename s/pdf/x/ skills/pdf",
    "rename pdf x skills/pdf",
    "cp /dev/null SKILL.md",
    "ln -sf /dev/null skills/pdf/SKILL.md",
    "install -m 644 notes.md SKILL.md",
    # the sweeping deleters
    "find skills -delete",
    "find . -name SKILL.md -delete",
    "find . -iname 'skill.md' -delete",
    "find . -name '*.md' -o -name '*.pyc' -delete",
    "find skills -type d -exec rm -r {} +",
    "find skills -name '*' -exec /bin/rm {} ;",
    "git clean -fdx",
    "git clean -f -- skills",
    "git rm -r skills/pdf",
    "rsync -a --delete /tmp/empty/ skills/",
    "rsync -a --delete-after /tmp/empty/ skills/pdf/",
    "rsync -a --remove-source-files skills/pdf/ /tmp/copy/",
    # emptying SKILL.md
    "truncate -s 0 SKILL.md",
    "truncate --size=0 skills/pdf/SKILL.md",
    "> SKILL.md",
    ": > skills/pdf/SKILL.md",
    "echo '' > SKILL.md",
    "echo x >| SKILL.md",
    "ls &> SKILL.md",
    "cat /dev/null > skills/pdf/SK'ILL'.md",
    "tee SKILL.md < /dev/null",
    "dd if=/dev/zero of=SKILL.md count=0",
    "unlink SKILL.md",
    "shred -u skills/pdf/SKILL.md",
    # through a shell or inline code
    "bash -c 'mv skills/pdf /tmp'",
    "sh -c \"find skills -delete\"",
    "python3 -c 'import shutil; shutil.rmtree(\"skills/pdf\")'",
    "python3 -c 'import shutil; shutil.move(\"skills\", \"/tmp/s\")'",
    "python3 -c 'import os; os.remove(\"SKILL.md\")'",
    "python3 -c \"open('SKILL.md', 'w').close()\"",
    "python3 -c 'import shutil; shutil.rmtree(\".\")'",
    "perl -e 'unlink \"skills/pdf/SKILL.md\"'",
    "node -e 'require(\"fs\").rmSync(\"skills\", {recursive: true})'",
    "ruby -e 'FileUtils.rm_rf(\"skills\")'",
    "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('skills')\nEOF",
    "python3 <<< 'import os; os.unlink(\"SKILL.md\")'",
]

LEAVES_SKILLS_ALONE = [
    "mv notes.md references/",
    "mv notes.* /tmp/",
    "mv */SKILL.md /tmp/",
    "mv README.md README.txt",
    "truncate -s 0 README.md",
    "echo x > notes.md",
    "find . -name '*.pyc' -delete",
    "find skills -type f -name '*.pyc' -exec rm {} +",
    "git clean -n",
    "git rm --cached -r skills/pdf",
    "rsync -a skills/pdf/ /tmp/copy/",
    "python3 -c 'print(\"a.b\".replace(\".\", \"_\"))'",
    "python3 -c 'import os; os.remove(\"notes.md\")'",
    "cp SKILL.md /tmp/backup.md",
]


def _format(command: str, world: World) -> str:
    return command.replace("{out}", str(world.outside))


@pytest.mark.parametrize("command", TAKES_A_SKILL)
def test_a_command_that_would_take_a_skill_away_is_blocked(world: World, command: str) -> None:
    decision = judge(_format(command, world), world.context)

    assert decision.verdict == "block", (decision.reasons, decision.warning_pairs())
    assert "destructive" in {b.kind for b in decision.blockers}, decision.reasons


@pytest.mark.parametrize("command", LEAVES_SKILLS_ALONE)
def test_the_same_commands_on_other_files_are_not_blocked(world: World, command: str) -> None:
    decision = judge(_format(command, world), world.context)

    assert decision.verdict == "ask", (decision.reasons, decision.warning_pairs())


def test_in_a_skill_folder_its_own_removal_is_blocked(world: World) -> None:
    inside = world.in_dir("skills/pdf")
    for command in ("cd .. && mv pdf /tmp", "mv ../pdf ../gone", "find . -delete",
                    "python3 -c 'import shutil; shutil.rmtree(\"../pdf\")'", "> SKILL.md"):
        assert judge(command, inside).verdict == "block", command


def test_a_path_known_only_when_it_runs_still_asks(world: World) -> None:
    decision = judge("mv \"$(cat which.txt)\" /tmp", world.context)

    assert decision.verdict == "ask"
    assert "indirection" in {w.kind for w in decision.warnings}
