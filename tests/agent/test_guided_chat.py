"""A guided chat as a newcomer has it with the smallest model (issue 29): small talk is answered
without loading a skill, and a run denied with a reason is answered within that reason, never
with the reason said back."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from studio.agent.approval import Approval
from studio.agent.events import ChatNotice, Done, Event, TextDelta, ToolCallRequested
from studio.agent.execute import ToolExecutor
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.llm import Message
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.approvers import RecordingApprover
from tests.fakes.fixtures import OPENAI_MODEL
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill

REASON = "Do not run scripts; just tell me the formula."
AREA_MD = frontmatter("circle-area", "Computes the area of a circle from its radius.").replace(
    "Body.\n", "The area is pi times the radius squared (A = pi r^2).\n\n"
    "Run `python3 scripts/area.py RADIUS`.\n")
RUN = ('{"tool": "run_skill_script", "arguments": {"skill": "circle-area", '
       '"command": "python3 scripts/area.py 2"}}')


def deny_with_reason() -> RecordingApprover:
    """The user denies every run, saying why."""
    return RecordingApprover(Approval("deny", "user", reason=REASON))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "circle-area", AREA_MD,
                {"scripts/area.py": "import sys, math\nprint(math.pi * float(sys.argv[1]) ** 2)\n"})
    write_skill(root / "skills", "json-check", frontmatter(
        "json-check", "Checks a JSON document against a JSON Schema."))
    return root


def agent_for(server: FakeOpenAI, http: httpx.AsyncClient, project: Path,
              approver: RecordingApprover, prompt: str) -> tuple[Agent, list[Message]]:
    skills = scan_root(SkillRoot(project / "skills")).skills
    executor = ToolExecutor(SkillToolbox(skills, project), approver,
                            Grants(project.parent / "grants.yaml"), AuditLog(project.parent / "a.jsonl"),
                            home=project.parent / "home")
    system, _ = system_prompt(skills)
    config = AgentConfig(OPENAI_MODEL, guided=True, options={"max_tokens": 400})
    return (Agent(OpenAIClient(server.url, http, idle_timeout=20.0), executor, config),
            [Message("system", system), Message("user", prompt)])


def choices(body: dict[str, object]) -> set[str]:
    schema = body["response_format"]["json_schema"]["schema"]  # type: ignore[index]
    return {b["properties"]["tool"]["enum"][0] if "tool" in b["properties"] else "answer"
            for b in schema.get("oneOf", [schema])}


async def test_small_talk_is_answered_without_loading_a_skill(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply('{"answer": "Hello! I can use skills such as circle-area."}'))
    agent, messages = agent_for(fake_openai, http_client, project, deny_with_reason(),
                                "Hello! What can you do?")
    events: list[Event] = [event async for event in agent.run(messages)]
    assert choices(fake_openai.chats[0]) == {"answer"}
    assert not [e for e in events if isinstance(e, ToolCallRequested)]
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered" and done.rounds == 1


async def test_a_denied_run_is_answered_within_the_users_reason(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply('{"tool": "activate_skill", "arguments": {"name": "circle-area"}}'),
                       reply(RUN), reply('{"answer": "The area is pi r^2: pi times the radius squared."}'))
    approver = deny_with_reason()
    agent, messages = agent_for(fake_openai, http_client, project, approver,
                                "What is the area of a circle of radius 2?")
    events = [event async for event in agent.run(messages)]
    assert len(approver.requests) == 1  # not asked a second time
    after = fake_openai.chats[2]
    assert choices(after) == {"answer"}
    shown = after["messages"][-1]["content"]
    assert REASON in shown and "A = pi r^2" in shown  # the reason, and the skill's instructions
    assert "".join(e.text for e in events if isinstance(e, TextDelta)).startswith("The area is pi r^2")


async def test_a_reply_that_only_repeats_the_denial_is_not_the_answer(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply('{"tool": "activate_skill", "arguments": {"name": "circle-area"}}'),
                       reply(RUN), reply('{"answer": "Formula.. Do not run it another way; tell the user."}'))
    agent, messages = agent_for(fake_openai, http_client, project, deny_with_reason(),
                                "What is the area of a circle of radius 2?")
    events = [event async for event in agent.run(messages)]
    assert not [e for e in events if isinstance(e, TextDelta)]
    assert any(isinstance(e, ChatNotice) and "only said your reason" in e.message for e in events)
    done = events[-1]
    assert isinstance(done, Done) and done.text == ""
