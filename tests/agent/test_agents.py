"""Saved agents and Agentfiles: reading, writing, and what a bad file says."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.agent.agentfile import AgentfileError, parse_agentfile, read_agentfile, to_agentfile
from studio.agent.agents import AgentError, AgentSpec, AgentStore

AGENTFILE = '''# a comment
FROM qwen3:0.6b
SKILL ./skills/csv-profiler
skill /abs/other
AGENT_TYPE conversational
SYSTEM """
You answer briefly.
Twice.
"""
PARAMETER temperature 0.2
PARAMETER num_ctx 4096
PARAMETER stop <end>
PARAMETER stop <stop>
TEMPLATE {{ .Prompt }}
'''


def test_an_agentfile_gives_every_directive(tmp_path: Path) -> None:
    parsed = parse_agentfile(AGENTFILE, "profiler", tmp_path)
    spec = parsed.spec
    assert spec.model == "qwen3:0.6b"
    assert spec.skills == (str(tmp_path / "skills/csv-profiler"), "/abs/other")
    assert spec.agent_type == "conversational"
    assert spec.system == "You answer briefly.\nTwice."
    assert spec.parameters == {"temperature": 0.2, "num_ctx": 4096, "stop": ["<end>", "<stop>"]}
    [warning] = parsed.warnings
    assert warning.startswith("line 14: TEMPLATE")


def test_a_single_line_system_and_an_inline_block(tmp_path: Path) -> None:
    assert parse_agentfile("SYSTEM Be kind.\n", "a", tmp_path).spec.system == "Be kind."
    assert parse_agentfile('SYSTEM """Be kind."""\n', "a", tmp_path).spec.system == "Be kind."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("FROM\n", "line 1: FROM needs a value"),
        ("\n\nSKILL   \n", "line 3: SKILL needs a value"),
        ("PARAMETER temperature\n", "line 1: PARAMETER needs a name and a value"),
        ('FROM m\nSYSTEM """\nnever closed\n', 'line 2: the SYSTEM block opened with """'),
    ],
)
def test_a_bad_line_is_an_error_naming_it(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(AgentfileError, match=message.replace('"', '.')):
        parse_agentfile(text, "a", tmp_path)


def test_export_then_import_gives_the_same_agent(tmp_path: Path) -> None:
    spec = parse_agentfile(AGENTFILE, "profiler", tmp_path).spec
    assert parse_agentfile(to_agentfile(spec), "profiler", tmp_path).spec == spec


def test_a_file_that_is_not_text_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "Agentfile"
    path.write_bytes(b"FROM \xff\n")
    with pytest.raises(AgentfileError, match="not UTF-8"):
        read_agentfile(path)
    with pytest.raises(AgentfileError, match="cannot read"):
        read_agentfile(tmp_path / "missing")


def test_an_agentfile_is_named_after_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "helper"
    folder.mkdir()
    (folder / "Agentfile").write_text("FROM m\n")
    assert read_agentfile(folder / "Agentfile").spec.name == "helper"


def test_the_store_saves_and_reads_agents_by_name(tmp_path: Path) -> None:
    store = AgentStore(tmp_path / "agents")
    spec = AgentSpec("helper", "m", ("/s",), "Be kind.", {"temperature": 0.1}, "chat")
    store.save(spec)
    assert store.names() == ["helper"]
    assert store.get("helper") == spec
    assert not list((tmp_path / "agents").glob(".*"))  # no temp file left behind


def test_the_store_refuses_names_that_are_paths_and_says_what_is_missing(tmp_path: Path) -> None:
    store = AgentStore(tmp_path / "agents")
    with pytest.raises(AgentError, match="not an agent name"):
        store.get("../../etc/passwd")
    with pytest.raises(AgentError, match="no agent named 'nobody'"):
        store.get("nobody")


def test_a_damaged_agent_file_is_a_clear_error(tmp_path: Path) -> None:
    store = AgentStore(tmp_path)
    (tmp_path / "bad.yaml").write_text("name: bad\nskills: 3\n")
    with pytest.raises(AgentError, match="`skills` must be a list"):
        store.get("bad")
    (tmp_path / "worse.yaml").write_text("name: [\n")
    with pytest.raises(AgentError, match="not valid YAML"):
        store.get("worse")
