"""What the commands share, declared once: `--option KEY=VALUE` and `--guided` (options.py), the
core sessions with the user's grants and audit log (sessions.py), and `studio eval` scanning each
folder once."""

from __future__ import annotations

import argparse
import ast
import io
from pathlib import Path

import httpx
import pytest

from studio.agent import DenyAllApprover
from studio.cli import COMMANDS, main
from studio.commands import eval as eval_command
from studio.commands.options import OptionError, guided_flag, option_flag, parse_options
from studio.commands.sessions import session_factories, session_factory
from studio.paths import config_dir, data_dir
from studio.skills.scan import scan
from tests.skills.helpers import frontmatter, write_skill


def test_options_are_read_as_json_when_they_can_be() -> None:
    assert parse_options(["temperature=0", "stop=[\"\\n\"]", "name= x ", "seed=1", "seed=2",
                          "note=not json"]) == {
        "temperature": 0, "stop": ["\n"], "name": " x ", "seed": 2, "note": "not json"}


@pytest.mark.parametrize("item", ["temperature", "=1", " =1", ""])
def test_an_option_without_a_key_says_what_it_wants(item: str) -> None:
    with pytest.raises(OptionError, match="--option wants KEY=VALUE") as caught:
        parse_options([item])
    assert repr(item) in caught.value.user_message


@pytest.mark.parametrize("command", ["chat", "eval"])
def test_a_bad_option_stops_the_command_with_its_name_and_exit_2(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(tmp_path / "skills", "demo", frontmatter("demo", "Greets people. Use to greet."))
    argv = {"chat": ["chat", "hello", "--skills", str(tmp_path / "skills")],
            "eval": ["eval", str(tmp_path / "skills" / "demo")]}[command]
    assert main([*argv, "--url", "http://127.0.0.1:9", "--option", "temperature"]) == 2
    assert capsys.readouterr().err.endswith(
        f"studio {command}: --option wants KEY=VALUE, such as temperature=0, not 'temperature'\n")


def test_the_shared_flags_parse_the_same_in_every_command() -> None:
    parser = argparse.ArgumentParser()
    option_flag(parser, "a sampling option")
    guided_flag(parser)
    args = parser.parse_args(["--option", "a=1", "--option", "b=x", "--no-guided"])
    assert (args.option, args.guided) == (["a=1", "b=x"], "off")
    assert parser.parse_args(["--guided"]).guided == "on"
    assert parser.parse_args([]).guided == "auto" and parser.parse_args([]).option == []
    assert parser.parse_args([]).guided_write and not parser.parse_args(["--no-guided-write"]).guided_write


async def test_every_command_session_shares_the_users_grants_and_audit_log() -> None:
    async with httpx.AsyncClient() as http:
        factories = session_factories(DenyAllApprover(), http, 3)
        single = session_factory(DenyAllApprover(), http)
        first = factories[0]
        assert all(f.grants is first.grants and f.audit is first.audit for f in factories)
        assert len({id(f.server) for f in factories}) == 3
        for factory in (first, single):
            assert factory.grants.path == config_dir() / "grants.yaml"
            assert factory.audit.path == data_dir() / "audit.jsonl"
            assert isinstance(factory.approver, DenyAllApprover)
        for factory in (*factories, single):
            await factory.close()


def _counting_collect(monkeypatch: pytest.MonkeyPatch) -> list[list[Path]]:
    scanned: list[list[Path]] = []

    def counted(paths: list[Path], *rest: object) -> object:
        scanned.append(list(paths))
        return scan(paths, *rest)

    monkeypatch.setattr(eval_command, "scan", counted)
    return scanned


def test_eval_scans_a_folder_of_skills_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skills = tmp_path / "skills"
    for name in ("one", "two", "three"):
        write_skill(skills, name, frontmatter(name, f"Does {name}. Use when asked for {name}."))
    scanned = _counting_collect(monkeypatch)
    targets = eval_command._targets([skills], io.StringIO())
    assert scanned == [[skills]]
    assert sorted(t.display_name for t, _ in targets) == ["one", "three", "two"]
    assert all(sorted(s.display_name for s in catalog) == ["one", "three", "two"]
               for _, catalog in targets)


def test_eval_scans_the_parent_of_skills_named_one_by_one_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skills = tmp_path / "skills"
    for name in ("one", "two"):
        write_skill(skills, name, frontmatter(name, f"Does {name}. Use when asked for {name}."))
    scanned = _counting_collect(monkeypatch)
    err = io.StringIO()
    targets = eval_command._targets([skills / "one", skills / "two", skills / "one"], err)
    assert scanned == [[skills / "one"], [skills], [skills / "two"]]
    assert [t.display_name for t, _ in targets] == ["one", "two", "one"]
    assert err.getvalue() == ""


def _imported_commands(source: Path) -> set[str]:
    """The `studio.commands` modules `source` imports, wherever in the file."""
    found = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "studio.commands":
            found.update(f"studio.commands.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("studio.commands."):
            found.add(str(node.module))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("studio.commands."))
    return found


# `studio install --update` runs `studio update`'s loop: update_all belongs in installing.py (the
# install commands' shared module), to move when the install commands' rework is merged.
KNOWN = {("studio.commands.install", "studio.commands.update")}


def test_no_command_imports_another_command() -> None:
    """A subcommand's module is a leaf: what two commands share lives in a module of its own
    (options, sessions, arguments, terminal, textsafe, installing, ...), never in a command."""
    commands = set(COMMANDS.values())
    root = Path(eval_command.__file__).parent
    reached = {(f"studio.commands.{source.stem}", target)
               for source in root.glob("*.py") for target in _imported_commands(source)
               if target in commands and target != f"studio.commands.{source.stem}"}
    assert reached == KNOWN
