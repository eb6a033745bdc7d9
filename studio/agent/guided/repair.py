"""The repair step of a guided turn: after a run that failed, one bounded chance to put it right.

The model sees the command, its output (the end of it, where an error is), the usage lines and
examples of the SKILL.md, and the files it names; it may run the script again with other values,
read one of those files (where a skill lists the values it accepts), or answer saying what
failed. A turn runs a skill's scripts at most `MAX_RUNS` times: each run is a card and an
approval like any other, and a model that failed twice is not helped by a third.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from studio.agent.toolbook import READ, RUN
from studio.llm import Message, ToolSpec

MAX_RUNS = 2
_OUTPUT_CHARS = 800
_FILE_CHARS = 2000


def run_results(turn: Sequence[Message], skill: str) -> list[tuple[str, str]]:
    """The runs of `skill`'s scripts in `turn`: (command, result) each, in order."""
    commands = {call.id: str(call.arguments.get("command", "")) for message in turn
                for call in message.tool_calls
                if call.name == RUN and call.arguments.get("skill") == skill}
    return [(commands[m.tool_call_id or ""], m.content) for m in turn
            if m.role == "tool" and m.tool_call_id in commands]


def trimmed(text: str, *, head: bool = False) -> str:
    """A run's output cut to its end (where the error is), or a file cut to its `head`."""
    if head:
        return text if len(text) <= _FILE_CHARS else text[:_FILE_CHARS] + "\n[cut]"
    return text if len(text) <= _OUTPUT_CHARS else "[cut]\n" + text[-_OUTPUT_CHARS:]


def repair_hint(commands: Sequence[str], files: Sequence[str]) -> str:
    """What follows a failed run's output: how the script runs, and what the model may do."""
    lines = ["If that failed because of a wrong value, the script runs like this:", *commands]
    if files:
        lines.append(f"The skill's files that may list the values it accepts: {', '.join(files)}")
    lines.append("Run it again with corrected values, read one of those files, or answer with "
                 "what the output says.")
    return "\n" + "\n".join(lines)


def read_spec(skill: str, paths: Sequence[str]) -> ToolSpec:
    """`read_skill_file` of one of `paths` of `skill`."""
    properties: dict[str, Any] = {"skill": {"type": "string", "enum": [skill]},
                                  "path": {"type": "string", "enum": list(paths)}}
    return ToolSpec(READ, "", {"type": "object", "properties": properties,
                               "required": ["skill", "path"]})
