"""Skills the model drafts, through a scripted model server: create, refuse an invalid draft,
update with a diff, all only with the user's approval; and `search_skills`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import yaml

from studio.agent.approval import Approval
from studio.agent.drafts import DraftDesk, DraftRefused
from studio.agent.events import Event, ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.loop import Agent, AgentConfig
from studio.agent.search_tool import SkillSearch
from studio.agent.tools import SkillToolbox
from studio.llm import Message, make_client
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.approvers import RecordingApprover
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
BODY = "# Greeting\n\nSay hello to the user by name.\n"


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write_skill(root, "demo", frontmatter("demo", "Demo skill. Use when testing.", "license: MIT\n"))
    return root


def _agent(server: FakeOllama, http: httpx.AsyncClient, library: Path, approver: object,
           create_in: Path | None) -> tuple[Agent, list[Message]]:
    skills = scan_root(SkillRoot(library)).skills
    desk = DraftDesk(create_in, TOOL_MODEL, clock=lambda: NOW)
    toolbox = SkillToolbox(skills, library, drafts=desk, search=SkillSearch(skills, None))
    executor = ToolExecutor(toolbox, approver, Grants(library.parent / "grants.yaml"),  # type: ignore[arg-type]
                            AuditLog(library.parent / "audit.jsonl"), home=library.parent / "home")
    agent = Agent(make_client("ollama", server.url, http), executor, AgentConfig(TOOL_MODEL))
    return agent, [Message("system", "skills"), Message("user", "make it a skill")]


async def _finished(agent: Agent, messages: list[Message]) -> list[ToolFinished]:
    events: list[Event] = [event async for event in agent.run(messages)]
    return [event for event in events if isinstance(event, ToolFinished)]


def _frontmatter_of(path: Path) -> dict[str, object]:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])  # type: ignore[no-any-return]


async def test_create_is_shown_then_written_with_provenance(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, library: Path
) -> None:
    fake_ollama.script(
        calls(Call("create_skill", {"name": "greeter", "description": "Greets people. Use when "
                                    "asked to say hello.", "body": BODY,
                                    "files": {"references/names.md": "Ada\n"}})),
        calls(Call("activate_skill", {"name": "greeter"})),
        reply("Saved."),
    )
    approver = RecordingApprover(Approval("once", by="user"))
    agent, messages = _agent(fake_ollama, http_client, library, approver, library)
    finished = await _finished(agent, messages)
    assert [f.status for f in finished] == ["ok", "ok"]
    (request,) = approver.requests
    assert request.tool == "create_skill" and request.grant_scope is None
    assert "New skill greeter" in request.preview and "Say hello to the user" in request.preview
    assert "--- references/names.md ---\nAda" in request.preview
    meta = _frontmatter_of(library / "greeter" / "SKILL.md")["metadata"]
    assert meta == {"created-by": TOOL_MODEL, "created-at": "2026-01-02T03:04:05+00:00"}
    assert (library / "greeter" / "references" / "names.md").read_text() == "Ada\n"
    assert "Say hello to the user by name." in finished[1].result
    assert [p.name for p in library.iterdir() if p.name.startswith(".")] == []


async def test_an_invalid_draft_is_refused_with_diagnostics_and_nothing_is_asked_or_written(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, library: Path
) -> None:
    fake_ollama.script(
        calls(Call("create_skill", {"name": "Bad_Name", "description": "x", "body": BODY})),
        reply("I will fix it."),
    )
    approver = RecordingApprover()
    agent, messages = _agent(fake_ollama, http_client, library, approver, library)
    (finished,) = await _finished(agent, messages)
    assert finished.status == "error"
    assert "not valid, so nothing was written" in finished.result and "SKILL.md:2:" in finished.result
    assert approver.requests == []
    assert sorted(p.name for p in library.iterdir()) == ["demo"]
    tool_message = fake_ollama.chats[1]["messages"][-1]
    assert tool_message["role"] == "tool" and "not valid" in tool_message["content"]


async def test_update_shows_a_diff_and_a_denial_writes_nothing(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, library: Path
) -> None:
    skill_file = library / "demo" / "SKILL.md"
    before = skill_file.read_text(encoding="utf-8")
    update = Call("update_skill", {"name": "demo", "body": "# Demo\n\nNew steps.\n"})
    fake_ollama.script(calls(update), reply("Not saved."), calls(update), reply("Saved."))
    approver = RecordingApprover(Approval("deny", by="user", reason="not yet"),
                                 Approval("once", by="user"))
    agent, messages = _agent(fake_ollama, http_client, library, approver, None)
    (denied,) = await _finished(agent, messages)
    assert denied.status == "denied" and "not yet" in denied.result
    assert skill_file.read_text(encoding="utf-8") == before
    diff = approver.requests[0].preview
    assert "--- a/SKILL.md\n+++ b/SKILL.md" in diff
    assert "-Body.\n" in diff and "+New steps.\n" in diff and "+  updated-by: " in diff
    messages.append(Message("user", "now save it"))
    (saved,) = await _finished(agent, messages)
    assert saved.status == "ok"
    fields = _frontmatter_of(skill_file)
    assert fields["license"] == "MIT" and fields["description"] == "Demo skill. Use when testing."
    assert fields["metadata"] == {"updated-by": TOOL_MODEL, "updated-at": "2026-01-02T03:04:05+00:00"}
    assert skill_file.read_text(encoding="utf-8").endswith("New steps.\n")


def test_desk_refusals_name_what_is_wrong(library: Path) -> None:
    desk = DraftDesk(library, "user", locate=lambda name: library / name if name == "demo" else None)
    cases = [
        ("create_skill", {"name": "demo", "description": "d", "body": "b"}, "already exists"),
        ("create_skill", {"name": "../x", "description": "d", "body": "b"}, "cannot be a folder"),
        ("create_skill", {"name": "ok", "description": "d", "body": "b",
                          "files": {"../../evil": "x"}}, "inside the skill's folder"),
        ("create_skill", {"name": "ok", "description": "d", "body": "b",
                          "files": {"SKILL.md": "x"}}, "not `files`"),
        ("create_skill", {"name": "ok", "body": "b"}, "must both be given"),
        ("update_skill", {"name": "nope", "body": "b"}, "no writable skill"),
        ("update_skill", {"name": "demo"}, "nothing to change"),
    ]
    for tool, arguments, words in cases:
        with pytest.raises(DraftRefused, match=words):
            desk.draft(tool, arguments)
    with pytest.raises(DraftRefused, match="no writable skill folder"):
        DraftDesk(None, "user").draft("create_skill", {"name": "ok", "description": "d", "body": "b"})


async def test_search_skills_finds_a_skill_by_need(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, library: Path
) -> None:
    write_skill(library, "pdf-merge", frontmatter("pdf-merge", "Merges PDF files into one."))
    fake_ollama.script(calls(Call("search_skills", {"query": "combine pdf documents"})), reply("Found."))
    agent, messages = _agent(fake_ollama, http_client, library, RecordingApprover(), None)
    (finished,) = await _finished(agent, messages)
    assert finished.status == "ok"
    assert finished.result.startswith("- pdf-merge: Merges PDF files into one.")
    offered = {t["function"]["name"] for t in fake_ollama.chats[0]["tools"]}
    assert {"search_skills", "create_skill", "update_skill"} <= offered
    assert not any("delete" in name for name in offered)


async def test_a_command_deleting_a_skill_folder_is_blocked_without_asking(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, library: Path
) -> None:
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": "rm -rf ../demo"})),
        reply("I cannot delete it."),
    )
    approver = RecordingApprover()
    agent, messages = _agent(fake_ollama, http_client, library, approver, library)
    (finished,) = await _finished(agent, messages)
    assert finished.status == "blocked"
    assert "deleting a skill is left to the user" in finished.result
    assert approver.requests == []
    assert (library / "demo" / "SKILL.md").is_file()


COMMENTED = """---
# The demo skill; keep this note.
name: demo   # must match the folder
license: MIT
description: 'Demo skill. Use when testing.'
metadata:
  # who owns it
  owner: ada
  updated-by: someone  # replaced
  version: "1.0"
allowed-tools: Bash(python3:*)
---

# Demo

Old steps.
"""


def test_update_keeps_frontmatter_comments_order_and_quoting(library: Path) -> None:
    (library / "demo" / "SKILL.md").write_text(COMMENTED, encoding="utf-8")
    desk = DraftDesk(None, TOOL_MODEL, locate=lambda name: library / name, clock=lambda: NOW)

    draft = desk.draft("update_skill", {"name": "demo", "description": "Demo skill, newer. Use "
                                        "when testing.", "body": "# Demo\n\nNew steps.\n"})

    expected = COMMENTED.replace(
        "description: 'Demo skill. Use when testing.'",
        "description: Demo skill, newer. Use when testing.",
    ).replace(
        "  updated-by: someone  # replaced\n",
        f"  updated-by: {TOOL_MODEL}\n",
    ).replace(
        '  version: "1.0"\n',
        '  version: "1.0"\n  updated-at: \'2026-01-02T03:04:05+00:00\'\n',
    ).replace("Old steps.", "New steps.")
    assert draft.texts["SKILL.md"] == expected


def test_update_of_a_body_only_leaves_the_frontmatter_but_the_stamps(library: Path) -> None:
    (library / "demo" / "SKILL.md").write_text(COMMENTED.replace("\n", "\r\n"), encoding="utf-8")
    desk = DraftDesk(None, TOOL_MODEL, locate=lambda name: library / name, clock=lambda: NOW)

    text = desk.draft("update_skill", {"name": "demo", "body": "New\nsteps."}).texts["SKILL.md"]

    assert "# The demo skill; keep this note.\r\n" in text and "  # who owns it\r\n" in text
    assert text.endswith("---\r\n\r\nNew\r\nsteps.\r\n")
    assert "\n" not in text.replace("\r\n", "")


def test_a_flow_style_metadata_is_rewritten_but_stays_right(library: Path) -> None:
    (library / "demo" / "SKILL.md").write_text(
        "---\nname: demo\ndescription: Demo skill. Use when testing.\nmetadata: {owner: ada}\n"
        "---\nBody.\n", encoding="utf-8")
    desk = DraftDesk(None, TOOL_MODEL, locate=lambda name: library / name, clock=lambda: NOW)

    text = desk.draft("update_skill", {"name": "demo", "body": "New."}).texts["SKILL.md"]

    fields = yaml.safe_load(text.split("---\n")[1])
    assert fields["metadata"] == {"owner": "ada", "updated-by": TOOL_MODEL,
                                  "updated-at": "2026-01-02T03:04:05+00:00"}
    assert text.endswith("New.\n")
