"""A guided turn on a made-up skill, for the tests of the guided fill: the guide over a skill
written to a temp folder, the messages of a turn with its runs, and the runs a reply schema
offers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.agent.guided.replies import Guide
from studio.agent.tools import SkillToolbox
from studio.llm import Message, ToolCall
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.skills.helpers import write_skill


def guide_of(tmp_path: Path, name: str, text: str, files: dict[str, str]) -> Guide:
    write_skill(tmp_path / "skills", name, text, files)
    found = Guide(SkillToolbox(scan_root(SkillRoot(tmp_path / "skills")).skills, tmp_path))
    found.fills = True
    return found


def turn(skill: str, request: str, *runs: tuple[str, str]) -> list[Message]:
    messages = [Message("user", request),
                Message("assistant", "", [ToolCall("a", "activate_skill", {"name": skill})]),
                Message("tool", "<skill_content ...>", tool_call_id="a")]
    for index, (ran, result) in enumerate(runs):
        messages += [Message("assistant", "", [ToolCall(f"r{index}", "run_skill_script",
                                                        {"skill": skill, "command": ran})]),
                     Message("tool", result, tool_call_id=f"r{index}")]
    return messages


def runs_of(schema: dict[str, Any]) -> list[dict[str, Any]]:
    branches = schema.get("oneOf", [schema])
    return [b["properties"]["arguments"]["properties"] for b in branches
            if b["properties"].get("tool", {}).get("enum") == ["run_skill_script"]]
