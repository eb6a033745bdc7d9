"""Grants: what "always allow" proposes, what a grant covers, and how grants are kept."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from studio.policy import Grant, Grants, GrantsError, judge, propose_grant
from studio.policy.grants import normalize_folder
from tests.policy.world import World


def grant(world: World, command: str, folder: str) -> Grants:
    grants = Grants.session_only()
    grants.add(Grant(command, folder, world.workspace))
    return grants


def test_a_read_outside_the_read_only_list_is_proposed_with_its_folder(world: World) -> None:
    proposal = propose_grant("python3 references/api/v1.md", world.context)
    assert proposal is not None
    assert [(g.command, g.folder) for g in proposal.grants] == [("python3", "references/api/")]
    assert proposal.description == "`python3` in `references/api/` and below"


def test_without_path_arguments_the_working_folder_is_the_scope(world: World) -> None:
    proposal = propose_grant("make", world.in_dir("skills/pdf"))
    assert proposal is not None and proposal.grants[0].folder == "skills/pdf/"
    root = propose_grant("make", world.context)
    assert root is not None and root.description == "`make` anywhere in the workspace"


def test_subcommands_and_modules_are_part_of_the_grant(world: World) -> None:
    git = propose_grant("git commit -m msg", world.context)
    assert git is not None and git.grants[0].command == "git commit"
    module = propose_grant("python3 -m pytest references", world.context)
    assert module is not None and module.grants[0].command == "python3 -m pytest"


def test_a_script_run_by_path_is_granted_by_its_path(world: World) -> None:
    proposal = propose_grant("./scripts/fill.py", world.in_dir("skills/pdf"))
    assert proposal is not None and proposal.grants[0].command == "skills/pdf/scripts/fill.py"


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /",  # blocked
        "cat /etc/hosts",  # outside
        "echo x > .profile",  # dotfile
        "git push --force",  # history
        "eval ls",  # indirection
        "python3 -c 'print(1)'",  # inline code
        'cat "$FILE"',  # unknown path
        "echo 'unclosed",  # unreadable
        "ls",  # already allowed
    ],
)
def test_no_grant_is_proposed_when_a_grant_could_not_or_need_not_allow_it(world: World, command: str) -> None:
    assert propose_grant(command, world.context) is None


@pytest.mark.parametrize(
    "command",
    [
        "python3 scripts/extract.py README.md",
        "./scripts/run.sh",
        "bash scripts/run.sh",
        "touch references/new.md",
        "cp references/guide.md references/copy.md",
        "git add README.md",
        "curl https://example.com -o references/page.html",
        "python3 scripts/extract.py | sort -o references/out.txt",
        "mkdir -p build && python3 scripts/extract.py > build/out.txt",
    ],
)
def test_accepting_the_proposal_allows_exactly_that_command(world: World, command: str) -> None:
    decision = judge(command, world.context)
    assert decision.verdict == "ask" and decision.grant is not None
    grants = Grants.session_only()
    grants.add_proposal(decision.grant)
    after = judge(command, world.context, grants)
    assert after.verdict == "allow", after.reasons
    assert all(r.startswith("allowed by your grant") for r in after.reasons)


def test_a_grant_covers_its_folder_and_below_and_nothing_else(world: World) -> None:
    grants = grant(world, "python3", "references/")
    ok = ["python3 references/guide.md", "python3 references/api/v1.md", "cd references && python3 guide.md"]
    for command in ok:
        assert judge(command, world.context, grants).verdict == "allow", command
    not_covered = [
        "python3 README.md",  # another folder
        "python3 references/guide.md README.md",  # one path outside the folder
        "python3 references/../README.md",  # climbs out
        "python3 escape/data.txt",  # a link out of the workspace
        "python3 references/guide.md > out.txt",  # a write outside the folder
        "node references/guide.md",  # another program
        "python3 -c 'import os' references/guide.md",  # indirection
        "python3 $(echo references/guide.md)",  # a computed path
        "python3",  # no path: the workspace root is outside references/
    ]
    for command in not_covered:
        assert judge(command, world.context, grants).verdict != "allow", command


def test_a_grant_never_allows_a_blocked_command(world: World) -> None:
    grants = grant(world, "python3", "./")
    assert judge("python3 references/guide.md ~/.ssh/id_rsa", world.context, grants).verdict == "block"
    assert judge("python3 scripts/extract.py; rm -rf /", world.context, grants).verdict == "block"
    assert judge("python3 scripts/extract.py .env", world.context, grants).verdict == "block"


def test_every_part_must_be_covered(world: World) -> None:
    grants = grant(world, "python3", "scripts/")
    assert judge("python3 scripts/extract.py | sort", world.context, grants).verdict == "allow"
    assert judge("python3 scripts/extract.py && make", world.context, grants).verdict == "ask"
    assert judge("bash -c 'python3 scripts/extract.py'", world.context, grants).verdict == "allow"
    assert judge("eval 'python3 scripts/extract.py'", world.context, grants).verdict == "ask"


def test_grants_belong_to_their_workspace(world: World, tmp_path: Path) -> None:
    grants = Grants.session_only()
    grants.add(Grant("python3", "./", tmp_path))
    assert judge("python3 scripts/extract.py", world.context, grants).verdict == "ask"


def test_grant_folders_have_one_spelling_and_stay_inside() -> None:
    assert normalize_folder("references") == "references/"
    assert normalize_folder("./references/api/") == "references/api/"
    assert normalize_folder("") == normalize_folder(".") == "./"
    for bad in ("/etc", "../x", "a/../../b", "~/x"):
        with pytest.raises(ValueError):
            normalize_folder(bad)


def test_a_bare_program_name_is_not_a_grant(world: World) -> None:
    with pytest.raises(GrantsError):
        Grants.session_only().add(Grant("  ", "./", world.workspace))


def test_remembered_grants_are_saved_and_read_back(world: World, tmp_path: Path) -> None:
    path = tmp_path / "grants.yaml"
    grants = Grants(path)
    grants.add(Grant("python3", "scripts", world.workspace), remember=True)
    grants.add(Grant("make", "./", world.workspace))
    text = path.read_text()
    assert text.startswith("# Commands Skill Studio may run without asking")
    data = yaml.safe_load(text)
    assert [(e["command"], e["folder"]) for e in data["grants"]] == [("python3", "scripts/")]
    again = Grants(path)
    assert [g.key for g in again.all()] == ["python3:scripts/"]
    assert again.all()[0].remembered
    assert judge("python3 scripts/extract.py", world.context, again).verdict == "allow"
    assert judge("make", world.context, again).verdict == "ask"


def test_the_default_file_is_in_the_config_folder(world: World, scratch_home: Path) -> None:
    grants = Grants()
    grants.add(Grant("make", "./", world.workspace), remember=True)
    assert grants.path == scratch_home / "studio-config" / "grants.yaml"
    assert grants.path.exists()


def test_revoke_removes_session_and_remembered_grants(world: World, tmp_path: Path) -> None:
    path = tmp_path / "grants.yaml"
    grants = Grants(path)
    grants.add(Grant("python3", "scripts/", world.workspace), remember=True)
    grants.add(Grant("python3", "scripts/", world.workspace))
    grants.add(Grant("make", "./", world.workspace), remember=True)
    removed = grants.revoke("python3:scripts/")
    assert len(removed) == 2
    assert [g.key for g in grants.all()] == ["make:./"]
    assert [g.key for g in Grants(path).all()] == ["make:./"]
    assert grants.revoke("nothing:./") == []


def test_a_hand_edited_file_is_read_again(world: World, tmp_path: Path) -> None:
    path = tmp_path / "grants.yaml"
    grants = Grants(path)
    assert grants.all() == []
    path.write_text(f"grants:\n  - command: make\n    folder: .\n    workspace: {world.workspace}\n")
    grants.reload()
    assert judge("make", world.context, grants).verdict == "allow"


def test_a_broken_file_is_reported_and_never_overwritten(world: World, tmp_path: Path) -> None:
    path = tmp_path / "grants.yaml"
    broken = "grants:\n  - command: make\n    folder: [unclosed\n"
    path.write_text(broken)
    grants = Grants(path)
    assert grants.problem is not None
    assert str(path) in grants.problem and "line" in grants.problem and "left untouched" in grants.problem
    with pytest.raises(GrantsError, match="for this session only"):
        grants.add(Grant("python3", "./", world.workspace), remember=True)
    assert path.read_text() == broken
    assert judge("python3 scripts/extract.py", world.context, grants).verdict == "allow"
    proposal = judge("make", world.context).grant
    assert proposal is not None
    with pytest.raises(GrantsError):
        grants.add_proposal(proposal, remember=True)
    assert judge("make", world.context, grants).verdict == "allow"
    assert path.read_text() == broken


def test_bad_entries_are_skipped_and_the_file_kept(world: World, tmp_path: Path) -> None:
    path = tmp_path / "grants.yaml"
    text = (
        "grants:\n"
        f"  - {{command: make, folder: ./, workspace: {world.workspace}}}\n"
        f"  - {{command: cat, workspace: {world.workspace}}}\n"
        "  - {command: rm, folder: ../.., workspace: relative/path}\n"
        "  - just a string\n"
    )
    path.write_text(text)
    grants = Grants(path)
    assert [g.key for g in grants.all()] == ["make:./"]
    assert grants.problem is not None
    for number in ("entry 2", "entry 3", "entry 4"):
        assert number in grants.problem
    with pytest.raises(GrantsError):
        grants.revoke("make:./")
    assert path.read_text() == text


def test_a_file_of_the_wrong_shape_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "grants.yaml"
    path.write_text("- a list\n- not a mapping\n")
    grants = Grants(path)
    assert grants.all() == [] and grants.problem is not None and "grants:" in grants.problem
