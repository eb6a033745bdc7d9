"""Guided "auto": a model is guided when the server says it is small: Ollama's parameter_size, or
the GGUF file llama.cpp's `/props` names (its size label or parameter count, else its file size);
a model whose size cannot be told is not guided."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import ChatNotice, Event
from studio.agent.execute import ToolExecutor
from studio.agent.guided.mode import (
    WINDOW_HINT,
    auto_guided,
    gguf_parameters,
    label,
    model_parameters,
    parameters_of_label,
)
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.llm import ChatClient, Message, ModelInfo
from studio.llm.ollama import OllamaClient
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.settings import guided_mode
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ggufwriter import write_gguf
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill


@pytest.mark.parametrize(("text", "count"), [
    ("135M", 135_000_000), ("1.5B", 1_500_000_000), ("7.6b", 7_600_000_000), ("8x7B", 56_000_000_000),
    (" 360M ", 360_000_000), ("1T", 10**12), (134_515_008, 134_515_008),
    ("", None), ("big", None), ("1.5Q", None), ("-1B", None), ("0M", None), (0, None), (-5, None),
    (True, None), (None, None), (1.5, None), (["135M"], None),
])
def test_a_size_label_gives_a_parameter_count(text: object, count: int | None) -> None:
    assert parameters_of_label(text) == count


def test_a_count_is_written_as_people_write_it() -> None:
    counts = (135_000_000, 1_500_000_000, 134_515_008, 999)
    assert [label(n) for n in counts] == ["135M", "1.5B", "135M", "999"]


@pytest.mark.parametrize(("value", "mode"), [
    (True, "on"), (False, "off"), ("auto", "auto"), ("ON", "on"), (" off ", "off"),
    ("sometimes", None), (1, None), (None, None),
])
def test_a_mode_is_read_from_words_or_an_older_files_boolean(value: object, mode: str | None) -> None:
    assert guided_mode(value) == mode


def test_a_gguf_files_size_comes_from_its_metadata_or_its_bytes(tmp_path: Path) -> None:
    counted = write_gguf(tmp_path / "a.gguf", {"general.parameter_count": 134_515_008,
                                               "general.size_label": "7B"})
    assert gguf_parameters(counted) == (134_515_008, "its GGUF file's general.parameter_count")
    labelled = write_gguf(tmp_path / "b.gguf", {"general.size_label": "360M"})
    assert gguf_parameters(labelled) == (360_000_000, "its GGUF file's general.size_label")
    bad_label = write_gguf(tmp_path / "c.gguf", {"general.size_label": "huge",
                                                 "general.parameter_count": "x"})
    count, how = gguf_parameters(bad_label) or (0, "")
    assert how == "estimated from its file's size" and 0 < count < 1000
    (tmp_path / "d.gguf").write_bytes(b"GGUF\x03\x00\x00\x00")  # cut short
    (tmp_path / "e.gguf").write_text("not a model")
    for broken in ("d.gguf", "e.gguf", "missing.gguf"):
        assert gguf_parameters(tmp_path / broken) is None
    assert gguf_parameters(tmp_path) is None  # a folder


def test_a_servers_details_give_the_size_or_nothing(tmp_path: Path) -> None:
    assert model_parameters(ModelInfo("m", details={"parameter_size": "135M"})) == (
        135_000_000, "the server's parameter_size")
    small = write_gguf(tmp_path / "small.gguf", {"general.size_label": "135M"})
    assert model_parameters(ModelInfo("m", details={"model_path": str(small)})) == (
        135_000_000, "its GGUF file's general.size_label")
    for details in ({}, {"parameter_size": "?"}, {"model_path": str(tmp_path / "gone.gguf")},
                    {"model_path": 42}, {"model_path": ""}):
        assert model_parameters(ModelInfo("m", details=details)) is None


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_skill(tmp_path / "skills", "hello", frontmatter("hello", "Greets the user."))
    return tmp_path


def agent_for(client: ChatClient, project: Path, model: str, guided: Any) -> tuple[Agent, list[Message]]:
    skills = scan_root(SkillRoot(project / "skills")).skills
    executor = ToolExecutor(SkillToolbox(skills, project), AutoApprover(), Grants(project / "g.yaml"),
                            AuditLog(project / "a.jsonl"), home=project / "home")
    prompt, _ = system_prompt(skills)
    return (Agent(client, executor, AgentConfig(model, guided=guided)),
            [Message("system", prompt), Message("user", "Hi")])


def guided_request(body: dict[str, Any]) -> bool:
    """Whether a chat request was a guided one: the compact prompt, no tools."""
    return "tools" not in body and body["messages"][0]["content"].startswith("You are an assistant "
                                                                            "that uses skills.")


async def run(agent: Agent, messages: list[Message]) -> list[Event]:
    return [event async for event in agent.run(messages)]


@pytest.mark.parametrize(("size", "mode", "guided"), [
    ("135M", "auto", True), ("8B", "auto", False), ("2B", "auto", False), (None, "auto", False),
    ("nonsense", "auto", False), ("135M", "off", False), ("8B", "on", True), ("135M", False, False),
])
async def test_auto_guides_a_model_ollama_says_is_small(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path,
    size: str | None, mode: Any, guided: bool,
) -> None:
    fake_ollama.parameter_size = size
    fake_ollama.script(reply('{"answer": "Hello."}' if guided else "Hello."),
                       reply('{"answer": "Again."}' if guided else "Again."))
    agent, messages = agent_for(OllamaClient(fake_ollama.url, http_client, idle_timeout=20.0),
                                project, TOOL_MODEL, mode)
    events = await run(agent, messages)
    assert guided_request(fake_ollama.chats[0]) is guided
    notices = [e.message for e in events if isinstance(e, ChatNotice)]
    if guided and mode == "auto":
        assert notices == [f"{TOOL_MODEL} has 135M parameters (the server's parameter_size): too few to "
                           "use skills on its own, so it is guided through them one step at a time. To "
                           "change that, pass --guided on|off."]
    else:
        assert notices == []
    # Said once: the next turn is guided as well, without saying it again.
    events = await run(agent, [*messages, Message("user", "Hi again")])
    assert guided_request(fake_ollama.chats[1]) is guided
    assert not [e for e in events if isinstance(e, ChatNotice)]


async def test_auto_guides_a_model_whose_gguf_file_llama_cpp_names_is_small(
    http_client: httpx.AsyncClient, project: Path, tmp_path: Path
) -> None:
    small = write_gguf(tmp_path / "tiny.gguf", {"general.size_label": "135M"})
    server = FakeOpenAI({OPENAI_MODEL: []}, props={
        "model_path": str(small), "chat_template_caps": {"supports_tools": False}})
    server.start()
    try:
        server.script(reply('{"answer": "Hello."}'))
        agent, messages = agent_for(OpenAIClient(server.url, http_client, idle_timeout=20.0),
                                    project, OPENAI_MODEL, "auto")
        events = await run(agent, messages)
        assert guided_request(server.chats[0])
        assert any(isinstance(e, ChatNotice) and "135M parameters (its GGUF file's general.size_label)"
                   in e.message for e in events)
    finally:
        server.stop()


def test_a_model_named_by_its_files_path_is_named_by_the_file() -> None:
    info = ModelInfo("m", details={"parameter_size": "135M"})
    notice = auto_guided("/models/SmolLM2-135M.Q4_1.gguf", info) or ""
    assert notice.startswith("SmolLM2-135M.Q4_1.gguf has 135M parameters")
    assert notice.endswith("To change that, pass --guided on|off.")
    in_window = auto_guided("m", info, WINDOW_HINT) or ""
    assert in_window.endswith('set "Guide through skills" in Settings ▸ Model backend.')
    assert "--guided" not in in_window
    assert auto_guided("big", ModelInfo("big", details={"parameter_size": "8B"})) is None
