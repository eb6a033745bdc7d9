"""The client registry: each record reaches every consumer it declares (a target `studio validate
--target` offers and the rules judge, folders installs place into and the library offers, dot
folders the search enters, a toggle file the toggles read and write), and the docs name it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.commands import install as install_command
from studio.commands import validate as validate_command
from studio.skills.catalog import effective_catalog
from studio.skills.catalog.found import known_folders
from studio.skills.catalog.rules import RULES, ClientRules
from studio.skills.checks.clients import CLIENTS as JUDGED
from studio.skills.clients import BY_KEY, RECORDS, SPEC, TARGETS, ClientRecord, client_key
from studio.skills.files import CLIENT_FOLDERS, walks_into
from studio.skills.install.pack import PACKED_FOR, judged_as
from studio.skills.install.packrules import FORMATS
from studio.skills.install.placement import CANONICAL, client_folders
from studio.skills.scan.roots import standard_locations
from studio.skills.toggles import set_enabled, skill_states

DOCS = Path(__file__).resolve().parents[2] / "docs"
KEYS = [record.key for record in RECORDS]


def _parser(register: Callable[[Any], None]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser


def test_the_registry_keeps_the_order_and_the_sets_the_consumers_had(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUDIO_SKILLS", raising=False)
    # What the separate tables held before the registry, and the clients issue 40 added; a
    # change here is a change of behaviour.
    assert TARGETS == (SPEC, "claude-code", "eino", "ollama", "codex", "claude-api",
                       "gemini-cli", "github-copilot", "cursor", "goose", "opencode")
    assert sorted(r.key for r in RECORDS if r.installs) == [
        "amp", "claude-code", "codex", "cursor", "gemini-cli", "github-copilot", "goose",
        "kiro-cli", "ollama", "opencode"]
    assert set(CLIENT_FOLDERS) == {".claude", ".agents", ".codex", ".github", ".cursor", ".goose",
                                   ".opencode", ".kiro", ".gemini", ".windsurf", ".ollama", ".copilot"}
    home, project = Path("/h"), Path("/p")
    # `.codex/skills` comes third since Codex's own record lists the project's (loader.rs).
    assert standard_locations(project, home, {}) == [
        project / ".agents/skills", project / ".claude/skills", project / ".codex/skills",
        project / ".gemini/skills", project / ".github/skills", project / ".cursor/skills",
        project / ".goose/skills", project / ".opencode/skills",
        home / ".agents/skills", home / ".claude/skills", home / ".codex/skills",
        home / ".gemini/skills", home / ".copilot/skills", home / ".cursor/skills",
        home / ".config/goose/skills", home / ".config/agents/skills",
        home / ".config/opencode/skills"]
    assert BY_KEY[SPEC].project == CANONICAL


@pytest.mark.parametrize("record", RECORDS, ids=KEYS)
def test_every_record_is_complete(record: ClientRecord) -> None:
    assert record.title and record.source
    assert record.installs <= bool(record.project and record.user)
    assert record.offered <= bool(record.project or record.user)
    for folder in (record.project, record.user, record.toggles, record.user_toggles):
        assert not folder.startswith(("/", "~")) and ".." not in Path(folder).parts
    assert all(name.startswith(".") and "/" not in name for name in record.walks)
    for read in record.skill_folders:
        assert read.path and ".." not in Path(read.path).parts
        assert read.path.startswith("/") == (read.scope == "system")


@pytest.mark.parametrize("record", RECORDS, ids=KEYS)
def test_a_client_reads_the_folders_it_installs_into(record: ClientRecord) -> None:
    folders = {(f.scope, f.path) for f in record.skill_folders}
    assert not record.project or ("project", record.project) in folders
    assert not record.user or ("user", record.user) in folders


def test_aliases_name_one_record_each_and_are_accepted_by_the_commands() -> None:
    aliases = [alias for record in RECORDS for alias in record.aliases]
    assert len(set(aliases)) == len(aliases) and not set(aliases) & set(BY_KEY)
    validate = _parser(validate_command.register)
    install = _parser(install_command.register)
    for record in RECORDS:
        for alias in record.aliases:
            assert client_key(alias) == record.key
            if record.target:
                assert validate.parse_args(["validate", "--target", alias, "x"]).target == record.key
            if record.installs:
                assert install.parse_args(["install", "x", "--client", alias]).client == [record.key]


@pytest.mark.parametrize("record", [r for r in RECORDS if r.target], ids=TARGETS)
def test_a_target_is_offered_by_validate_and_judged(record: ClientRecord) -> None:
    args = _parser(validate_command.register).parse_args(["validate", "--target", record.key, "x"])
    assert args.target == record.key
    assert JUDGED[record.key].title == record.title


def test_only_targets_are_offered_by_validate() -> None:
    parser = _parser(validate_command.register)
    for record in RECORDS:
        if not record.target:
            with pytest.raises(SystemExit):
                parser.parse_args(["validate", "--target", record.key, "x"])


@pytest.mark.parametrize("record", [r for r in RECORDS if r.installs],
                         ids=[r.key for r in RECORDS if r.installs])
def test_an_installing_client_gets_its_folders(record: ClientRecord, tmp_path: Path) -> None:
    args = _parser(install_command.register).parse_args(["install", "x", "--client", record.key])
    assert args.client == [record.key]
    for user, folder in ((False, record.project), (True, record.user)):
        expected = [] if folder == CANONICAL else [tmp_path / folder]
        assert client_folders([record.key], tmp_path, user, {}) == expected
    row = f"| {record.key} | `{record.project}` | `~/{record.user}` |"
    assert row in (DOCS / "installing.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("record", [r for r in RECORDS if r.offered],
                         ids=[r.key for r in RECORDS if r.offered])
def test_an_offered_clients_folders_are_standard_locations(
        record: ClientRecord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUDIO_SKILLS", raising=False)
    home, project = tmp_path / "home", tmp_path / "project"
    locations = standard_locations(project, home)
    base = {"project": project, "user": home}
    assert all(base[f.scope] / f.path in locations
               for f in record.skill_folders if f.scope != "system")
    offered = {base[f.scope] / f.path for r in RECORDS if r.offered
               for f in r.skill_folders if f.scope != "system"}
    assert set(locations) == offered


@pytest.mark.parametrize("record", [r for r in RECORDS if r.walks],
                         ids=[r.key for r in RECORDS if r.walks])
def test_the_search_enters_a_clients_dot_folders(record: ClientRecord) -> None:
    clients_page = (DOCS / "clients.md").read_text(encoding="utf-8")
    for name in record.walks:
        assert walks_into(name, include_hidden=False)
        assert f"`{name}`" in clients_page


@pytest.mark.parametrize("record", [r for r in RECORDS if r.toggles],
                         ids=[r.key for r in RECORDS if r.toggles])
def test_a_toggle_file_is_read_and_written(record: ClientRecord, tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    user_file = home / (record.user_toggles or record.toggles)
    skill_file = project / ".agents/skills/deploy/SKILL.md"
    mine = [s for s in skill_states("deploy", skill_file, project, home)
            if not isinstance(s, Exception) and s.client == record.key]
    assert [(s.scope, s.path, s.enabled) for s in mine] == [
        ("project", project / record.toggles, True), ("user", user_file, True)]
    set_enabled(mine[1], "deploy", skill_file, False)
    assert user_file.is_file()
    after = [s for s in skill_states("deploy", skill_file, project, home)
             if not isinstance(s, Exception) and s.client == record.key]
    assert [s.enabled for s in after] == [True, False]
    assert after[1].label == f"{record.title} (user)"


@pytest.mark.parametrize("record", [r for r in RECORDS if r.packs],
                         ids=[r.key for r in RECORDS if r.packs])
def test_a_clients_packages_are_judged_as_it_judges(record: ClientRecord) -> None:
    for kind in record.packs:
        assert PACKED_FOR[kind] == record.key
        assert judged_as(kind) == (record.key if record.target else SPEC)
        assert kind in FORMATS or kind in ("plugin", "marketplace")


def test_no_consumer_knows_a_client_the_registry_does_not() -> None:
    assert set(JUDGED) == set(TARGETS)
    assert set(PACKED_FOR) == {"plugin", "marketplace", *FORMATS}
    with pytest.raises(SystemExit):
        _parser(install_command.register).parse_args(["install", "x", "--client", "nobody"])


# -- the folders each client reads: one table, read by the catalog, Standard Locations, installs --

@pytest.mark.parametrize("rules", RULES, ids=[r.key for r in RULES])
def test_the_catalogs_folders_are_exactly_its_records_reads(rules: ClientRules) -> None:
    record = BY_KEY[client_key(rules.key)]
    assert record.reads, f"{record.key}: the catalog needs the folders its record reads"
    assert rules.folders == record.reads
    assert rules.precedence == record.same_name
    assert rules.nested == any(folder.nested for folder in record.reads)


def test_every_folder_a_record_reads_has_a_source_and_the_catalog_looks_there() -> None:
    looked = set(known_folders())
    for record in RECORDS:
        for folder in record.skill_folders:
            assert folder.source or record.source
            assert folder in looked


CODEX_AND_OLLAMA = {"CODEX_HOME": "/opt/codex", "OLLAMA_SKILLS": " /srv/ollama-skills ",
                    "XDG_CONFIG_HOME": "/x"}


def test_a_folder_a_variable_moves_resolves_as_the_client_resolves_it() -> None:
    home, project = Path("/h"), Path("/p")
    codex = BY_KEY["codex"].install_folder(True)
    ollama = BY_KEY["ollama"].install_folder(True)
    assert codex is not None and ollama is not None
    assert codex.resolve(project, home, {}) == home / ".codex/skills"
    assert codex.resolve(project, home, CODEX_AND_OLLAMA) == Path("/opt/codex/skills")
    assert ollama.resolve(None, home, CODEX_AND_OLLAMA) == Path("/srv/ollama-skills")
    assert ollama.resolve(None, home, {"XDG_CONFIG_HOME": "/x"}) == Path("/x/ollama/skills")
    assert ollama.resolve(None, home, {"OLLAMA_SKILLS": "  "}) == home / ".ollama/skills"
    assert ollama.shown == ("$OLLAMA_SKILLS, else $XDG_CONFIG_HOME/ollama/skills, "
                            "else ~/.ollama/skills")
    system = [f for f in BY_KEY["codex"].reads if f.scope == "system"]
    assert [f.resolve(None, home, {}, Path("/root")) for f in system] == [
        Path("/root/etc/codex/skills")]


def test_installs_and_standard_locations_follow_the_variables(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert client_folders(["codex", "ollama"], home, True, CODEX_AND_OLLAMA) == [
        Path("/opt/codex/skills"), Path("/srv/ollama-skills")]
    # A project's folders move with no variable: Codex's is the canonical `.agents/skills`.
    assert client_folders(["codex", "ollama"], tmp_path, False, CODEX_AND_OLLAMA) == [
        tmp_path / ".ollama/skills"]
    # Cursor reads `~/.codex/skills` itself, wherever CODEX_HOME points.
    locations = standard_locations(None, home, CODEX_AND_OLLAMA)
    assert locations.index(Path("/opt/codex/skills")) < locations.index(home / ".codex/skills")


def test_the_catalog_finds_a_skill_where_a_variable_puts_the_folder(tmp_path: Path) -> None:
    home, moved = tmp_path / "home", tmp_path / "codex-home"
    skill = moved / "skills/moved/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: moved\ndescription: Moves. Use when asked.\n---\nGo.\n")
    result = effective_catalog("codex", None, home, {"CODEX_HOME": str(moved)},
                               system=tmp_path / "root")
    assert [(e.path, e.state) for e in result.entries] == [(skill, "loaded")]


def test_the_docs_folder_table_gives_every_folder_each_client_reads() -> None:
    page = (DOCS / "clients.md").read_text(encoding="utf-8")
    section = page.split("## Where each client reads skills", 1)[1].split("\n## ", 1)[0]
    rows = {line.split(" | ")[0].removeprefix("| ").split(" [")[0].split(",")[0]: line
            for line in section.splitlines() if line.startswith("| ")}
    for record in RECORDS:
        if not record.reads or record.key == SPEC:
            continue
        row = rows[record.title]
        for folder in record.reads:
            for shown in folder.shown.split(", else "):
                assert f"`{shown}`" in row, f"{record.key}: {shown} is not in its row"
        assert record.precedence in row
