"""The agent loop's own overhead per tool round, against the scripted Ollama server over loopback.

Each round the model asks for one tool call and the loop answers it; the overhead of a round is
the time from the end of the model's stream to the start of the next chat request, less the tool's
own run time: parsing the call, the policy's verdict, the approval, the audit log, building the
next request. Half the rounds read a file (no process), half run `true` through the policy.

    python benchmarks/agent_overhead.py [--rounds 200] [--no-check]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.agent.approval import AutoApprover  # noqa: E402
from studio.agent.events import ToolFinished  # noqa: E402
from studio.agent.execute import ToolExecutor  # noqa: E402
from studio.agent.loop import Agent, AgentConfig  # noqa: E402
from studio.agent.tools import SkillToolbox  # noqa: E402
from studio.llm import ChatClient, Message, ModelInfo, StreamEvent, ToolSpec, make_client  # noqa: E402  # noqa: E402
from studio.policy import AuditLog, Grants  # noqa: E402
from studio.skills.scan.roots import SkillRoot, scan_root  # noqa: E402
from tests.fakes.ollama import FakeOllama  # noqa: E402
from tests.fakes.script import Call, calls, reply  # noqa: E402

MODEL = "bench:1b"
TARGET_MS = 20.0


class TimedClient:
    """A ChatClient that notes when each chat request starts and when its stream ends."""

    def __init__(self, inner: ChatClient) -> None:
        self.inner = inner
        self.backend_name = inner.backend_name
        self.base_url = inner.base_url
        self.starts: list[float] = []
        self.ends: list[float] = []

    async def list_models(self) -> list[ModelInfo]:
        return await self.inner.list_models()

    async def model_info(self, name: str) -> ModelInfo:
        return await self.inner.model_info(name)

    async def context_length(self, model: str) -> int | None:
        return await self.inner.context_length(model)

    async def chat(
        self, model: str, messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None,
        think: bool = False, tool_choice: str | None = None, options: dict[str, Any] | None = None,
        schema: dict[str, Any] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        self.starts.append(time.perf_counter())
        async for event in self.inner.chat(model, messages, tools, think, tool_choice, options, schema):
            yield event
        self.ends.append(time.perf_counter())

    async def aclose(self) -> None:
        await self.inner.aclose()


def make_skill(root: Path) -> None:
    skill = root / "skills" / "bench"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: bench\ndescription: A skill for timing the loop. Use when benchmarking.\n---\n"
        "Read references/notes.md.\n"
    )
    (skill / "references" / "notes.md").write_text("notes\n" * 50)


async def measure(rounds: int, workdir: Path) -> tuple[list[float], float]:
    make_skill(workdir)
    server = FakeOllama({MODEL: ["completion", "tools"]})
    server.start()
    try:
        turns = []
        for number in range(rounds):
            if number % 2:
                call = Call("run_skill_script", {"skill": "bench", "command": f"true {number}"})
            else:
                call = Call("read_skill_file", {"skill": "bench", "path": "references/notes.md",
                                                "round": number})
            turns.append(calls(call))
        server.script(*turns, reply("done"))
        skills = scan_root(SkillRoot(workdir / "skills")).skills
        async with httpx.AsyncClient() as http:
            client = TimedClient(make_client("ollama", server.url, http))
            executor = ToolExecutor(
                SkillToolbox(skills, workdir), AutoApprover(), Grants.session_only(),
                AuditLog(workdir / "audit.jsonl"),
            )
            agent = Agent(client, executor, AgentConfig(MODEL, max_rounds=rounds + 1))
            tool_times: list[float] = []
            started = time.perf_counter()
            messages = [Message("system", "bench"), Message("user", "go")]
            async for event in agent.run(messages):
                if isinstance(event, ToolFinished):
                    tool_times.append(event.duration or 0.0)
            total = time.perf_counter() - started
    finally:
        server.stop()
    overheads = [
        (client.starts[i + 1] - client.ends[i] - tool_times[i]) * 1000 for i in range(rounds)
    ]
    return overheads, total


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--no-check", action="store_true", help="print the figures only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["STUDIO_CONFIG_DIR"] = os.path.join(folder, "config")
        overheads, total = asyncio.run(measure(args.rounds, Path(folder)))
    ordered = sorted(overheads)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    print(f"agent loop overhead per tool round ({args.rounds} rounds, scripted Ollama over loopback)")
    print(f"  median  {statistics.median(overheads):7.2f} ms")
    print(f"  p95     {p95:7.2f} ms")
    print(f"  max     {max(overheads):7.2f} ms")
    print(f"  whole run {total:.2f} s")
    print(f"  target: median under {TARGET_MS:.0f} ms beyond the model's and the tool's time")
    if not args.no_check and statistics.median(overheads) >= TARGET_MS:
        print("MISSED the target", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
