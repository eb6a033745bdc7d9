"""What small models write, repaired: a skill called as a tool, a script that does not exist."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import ApprovalNeeded, ToolFinished
from studio.agent.tools import SkillToolbox
from studio.llm import ToolCall
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.agent.test_loop import make_agent, run_all
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

BODY = """\
# Unit converter

Convert with the script:

```
python3 scripts/convert.py 5 mi km
```

For temperatures run `python3 scripts/temp.py 70 F C`.
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    directory = write_skill(
        root / "skills",
        "unit-converter",
        frontmatter("unit-converter") + BODY,
        {"scripts/convert.py": "print('8.05 km')\n", "scripts/temp.py": "print(21)\n", "README.txt": "x"},
    )
    os.chmod(directory / "scripts/convert.py", 0o755)
    return root


def _toolbox(workspace: Path) -> SkillToolbox:
    return SkillToolbox(scan_root(SkillRoot(workspace / "skills")).skills, workspace)


def test_a_call_naming_a_skill_means_activating_it(workspace: Path) -> None:
    toolbox = _toolbox(workspace)
    repaired = toolbox.repair_call(ToolCall("c1", "unit-converter", {"value": 5}))
    assert repaired == ToolCall("c1", "activate_skill", {"name": "unit-converter"})
    swapped = toolbox.repair_call(ToolCall("c2", "activate_skill", {"skill": "unit-converter"}))
    assert swapped.arguments == {"name": "unit-converter"}
    other = ToolCall("c3", "read_skill_file", {"skill": "unit-converter", "path": "README.txt"})
    assert toolbox.repair_call(other) is other
    unknown = ToolCall("c4", "weather", {})
    assert toolbox.repair_call(unknown) is unknown


def test_a_missing_script_answers_with_the_real_scripts_and_their_usage(workspace: Path) -> None:
    toolbox = _toolbox(workspace)
    message = toolbox.missing_script("unit-converter", "python3 scripts/unit_convert.py 5 miles km")
    assert message == (
        "there is no script scripts/unit_convert.py in skill 'unit-converter'.\n"
        "Its scripts: scripts/convert.py, scripts/temp.py.\n"
        "Its SKILL.md runs them like this:\n"
        "  python3 scripts/convert.py 5 mi km\n"
        "  For temperatures run `python3 scripts/temp.py 70 F C`."
    )
    assert toolbox.missing_script("unit-converter", "python3 scripts/convert.py 5 mi km") is None
    assert toolbox.missing_script("unit-converter", "python3 -c 'print(1)'") is None
    assert toolbox.missing_script("unit-converter", "cat README.txt") is None
    assert toolbox.missing_script("unit-converter", "python3 ../other/x.py") is None
    assert toolbox.missing_script("unit-converter", "echo 'unclosed") is None


async def test_the_loop_activates_a_skill_named_as_the_tool_in_text(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, workspace: Path
) -> None:
    fake_ollama.script(
        reply('{"name": "unit-converter", "arguments": {"value": 5, "from": "mi"},}'),
        reply("5 miles are 8.05 km."),
    )
    agent, messages, _, _ = make_agent(fake_ollama, http_client, workspace, AutoApprover(), TOOL_MODEL)
    events = await run_all(agent, messages)
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "ok"
    assert "Convert with the script" in finished.result
    assert "Convert with the script" in fake_ollama.chats[1]["messages"][-1]["content"]


async def test_the_loop_answers_a_made_up_script_with_the_real_ones_and_asks_nobody(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, workspace: Path
) -> None:
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "unit-converter", "command": "python3 convert_units.py 5"})),
        reply("Let me use the right one."),
    )
    agent, messages, _, _ = make_agent(fake_ollama, http_client, workspace, AutoApprover())
    events = await run_all(agent, messages)
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "error"
    assert "no script convert_units.py" in finished.result
    assert "python3 scripts/convert.py 5 mi km" in finished.result
    assert not [e for e in events if isinstance(e, ApprovalNeeded)]
