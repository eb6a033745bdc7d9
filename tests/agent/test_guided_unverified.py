"""A guided answer no script's output backs says so: after a denial, or with no run (issue 38)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from studio.agent.events import Done
from studio.agent.guided.replies import Guide
from studio.llm import Message, ToolCall
from tests.agent.test_guided import HELLO_MD, agent_for, toolbox
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.skills.helpers import write_skill

ASKED = Message("user", "Greet Ada with the hello skill.")
LOADED = [Message("assistant", "", [ToolCall("1", "activate_skill", {"name": "hello"})]),
          Message("tool", "<skill_content ...>", tool_name="activate_skill", tool_call_id="1"),
          Message("assistant", "", [ToolCall("2", "run_skill_script",
                                             {"skill": "hello", "command": "python3 scripts/hello.py Ada"})])]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "hello", HELLO_MD, {"scripts/hello.py": "print('Hello')\n"})
    return root


def ran(result: str) -> list[Message]:
    return [ASKED, *LOADED, Message("tool", result, tool_name="run_skill_script", tool_call_id="2")]


def test_why_an_answer_is_not_verified(project: Path) -> None:
    guide = Guide(toolbox(project / "skills"))
    assert guide.unverified(ran("exit code 0 after 0.02 s\nHello, Ada!\n")) == ""
    # A failed run's output still backs an answer saying what failed.
    assert guide.unverified(ran("exit code 2 after 0.02 s\nusage: hello.py NAME\n")) == ""
    denied = ran("denied by user: not now. Do not run it another way; tell the user.")
    assert guide.unverified(denied) == "given after the run was denied, so no script's output backs it"
    assert guide.unverified([ASKED]) == "no script ran for it, so it comes from the model alone"
    assert guide.unverified(ran("exit code 0 after 0.02 s\n")) == \
        "no script ran for it, so it comes from the model alone"


async def test_the_turn_ends_saying_the_answer_is_not_verified(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply('{"answer": "The file has 120 rows and 10 columns."}'))
    agent, messages = agent_for(fake_openai, http_client, project)
    messages[-1] = Message("user", "How many rows has data.csv?")
    events = [event async for event in agent.run(messages)]
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered"
    assert done.unverified == "no script ran for it, so it comes from the model alone"
