"""A run the model writes whole, few-shot, from the skill's own documentation (`guided.write`), and
the rules that check it before it runs. Made-up skills of the shapes authors write."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx

from studio.agent.approval import AutoApprover
from studio.agent.events import ChatNotice, ToolCallRequested
from studio.agent.execute import ToolExecutor
from studio.agent.guided.arguments import parse_usage
from studio.agent.guided.replies import Checked, Guide
from studio.agent.guided.values import Described
from studio.agent.guided.write import documentation, placed, problems, script_help, without_extra, write_spec
from studio.agent.loop import Agent, AgentConfig
from studio.agent.tools import SkillToolbox
from studio.llm import Message, ToolCall
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.agent.guided_turns import guide_of, runs_of, turn
from tests.fakes.fixtures import OPENAI_MODEL
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill

START = "python3 scripts/tide.py"
TIDE_MD = frontmatter("tide", "Tells the next high tide of a harbour.").replace("# Demo\n\nBody.\n", """\
# Tides

## The next tide, `scripts/tide.py`

```bash
python3 scripts/tide.py PORT [--days N]
```

PORT is the code in the first column of `references/ports.md`. Example:

    python3 scripts/tide.py BRS --days 2
""")
PORTS_MD = "| Code | Harbour |\n|---|---|\n| BRS | Bristol |\n| PLY | Plymouth |\n"
TIDE_PY = '''#!/usr/bin/env python3
"""Prints the next high tides of a harbour."""
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("port", help="a harbour code")
parser.add_argument("--days", type=int, default=1)
'''
FILES = {"scripts/tide.py": TIDE_PY, "references/ports.md": PORTS_MD}
ASKED = "When is high water in Plymouth over the next 3 days?"


def tide_guide(tmp_path: Path) -> Guide:
    guide = guide_of(tmp_path, "tide", TIDE_MD, FILES)
    guide.writes = True
    return guide


def run(command: str) -> ToolCall:
    return ToolCall("w", "run_skill_script", {"skill": "tide", "command": command})


def test_the_model_is_shown_the_skill_its_files_and_its_scripts_usage() -> None:
    files = {"references/ports.md": PORTS_MD, "scripts/tide.py": TIDE_PY}
    body = TIDE_MD.split("---\n", 2)[2]
    shown = documentation(body, ["scripts/tide.py"], files.get)
    assert "python3 scripts/tide.py PORT [--days N]" in shown
    assert "| PLY | Plymouth |" in shown
    assert 'parser.add_argument("--days", type=int, default=1)' in shown
    # The shebang is not the script's own account of itself.
    assert script_help(TIDE_PY).startswith("Prints the next high tides")


def test_a_file_named_by_its_bare_name_is_shown_from_the_folder_that_holds_it(tmp_path: Path) -> None:
    body = TIDE_MD.replace("the first column of `references/ports.md`", "the Ports.md file under references")
    guide = guide_of(tmp_path, "tide", body, {"scripts/tide.py": TIDE_PY, "references/Ports.md": PORTS_MD})
    assert "| PLY | Plymouth |" in guide.documentation("tide")
    # Two files of that name: which one the skill means is not known, so neither is shown.
    files = {"scripts/tide.py": TIDE_PY, "references/Ports.md": PORTS_MD, "assets/Ports.md": "| X | Y |\n"}
    two = guide_of(tmp_path / "two", "tide", body, files)
    assert "Plymouth" not in two.documentation("tide")


def test_the_written_command_starts_as_a_script_of_the_skill_does() -> None:
    pattern = write_spec("tide", [START]).parameters["properties"]["command"]["pattern"]
    assert re.fullmatch(pattern.strip("^$"), f"{START} PLY --days 3")
    assert re.fullmatch(pattern.strip("^$"), f"echo 'a b' | {START}")
    assert not re.fullmatch(pattern.strip("^$"), "python3 scripts/other.py PLY")
    # A double quote would need an escape inside the JSON string.
    assert not re.fullmatch(pattern.strip("^$"), f'{START} "PLY"')


def test_the_rules_find_what_the_skill_does_not_say() -> None:
    usage = parse_usage(f"{START} PORT [--days N]", START)
    assert usage is not None
    listed = [Described("PORT", "", ("BRS", "PLY"))]
    doc = f"{START} PORT [--days N]\n| BRS | Bristol |\n| PLY | Plymouth |\nuse `HW` for the harbour wall"
    assert problems(f"{START} PLY --days 3", START, usage, listed, doc) == []
    assert problems(f"{START} PLY --weeks 3", START, usage, listed, doc) == [
        "the skill names no option --weeks"]
    assert problems(f"{START} PORT", START, usage, listed, doc) == [
        "PORT is the usage line's placeholder, not a value"]
    [wrong] = problems(f"{START} Plymouth", START, usage, listed, doc)
    assert wrong.startswith("'Plymouth' is not one of the values the skill lists for PORT")
    # A value the skill writes as one (a code span) stands, whatever list the rules read.
    assert problems(f"{START} HW", START, usage, listed, doc) == []
    [extra] = problems(f"{START} St Ives", START, usage, [], doc)
    assert "no place for Ives" in extra
    # Words after an operand, none a figure, are the phrase it was; a figure more is left out.
    phrase = parse_usage("python3 v.py PHRASE", "python3 v.py")
    assert phrase is not None
    assert without_extra("python3 v.py programming language", "python3 v.py", phrase) == \
        "python3 v.py 'programming language'"
    sizes = parse_usage("python3 bf.py THICK WIDTH LENGTH [--pieces N]", "python3 bf.py")
    assert sizes is not None
    assert without_extra("python3 bf.py 1.25 7 9 3 --pieces 3", "python3 bf.py", sizes) == \
        "python3 bf.py 1.25 7 9 --pieces 3"
    # Cut where a JSON object needed a double quote: the shell would refuse it.
    assert "a quote in it is not closed" in problems(f"{START} '{{", START, usage, listed, doc)
    # A figure is held to no list (the rules read figures off examples: 1.5 and 2 for AMOUNT).
    amount = parse_usage("python3 c.py AMOUNT UNIT", "python3 c.py")
    assert amount is not None
    figures = [Described("AMOUNT", "", ("1.5", "2")), Described("UNIT", "", ("cup", "tsp"))]
    assert problems("python3 c.py 1.25 cup", "python3 c.py", amount, figures, "") == []
    assert problems("python3 c.py 5/4 cup", "python3 c.py", amount, figures, "") == []
    [unit] = problems("python3 c.py 2 1.5", "python3 c.py", amount, figures, "")
    assert unit.startswith("'1.5' is not one of the values the skill lists for UNIT")


def test_option_values_and_operands_are_placed_by_the_usage_line() -> None:
    usage = parse_usage("python3 t.py --from UNIT --to UNIT VALUE", "python3 t.py")
    assert usage is not None
    assert placed(["2", "--to", "F", "--from=C"], usage) == ({"VALUE": "2", "UNIT_B": "F", "UNIT": "C"}, [])
    # Capitals with figures after an option name its value (`L100`: litres per 100 km).
    trip = parse_usage("python3 trip.py --distance KM --consumption L100 --price PRICE", "python3 trip.py")
    assert trip is not None
    assert placed(["--distance", "420", "--consumption", "6.5", "--price", "1.85"], trip) == (
        {"KM": "420", "L100_VALUE": "6.5", "PRICE": "1.85"}, [])


TANK_MD = frontmatter("tank", "Aquarium sums.").replace("# Demo\n\nBody.\n", """\
# Tank

## Stocking, `scripts/stocking.py`

    python3 scripts/stocking.py LITRES [--planted]

## Water volume, `scripts/volume.py`

    python3 scripts/volume.py LENGTH WIDTH HEIGHT [--gap CM]
""")


def test_operands_another_scripts_usage_takes_move_the_run_to_that_script(tmp_path: Path) -> None:
    files = {"scripts/stocking.py": "print(1)\n", "scripts/volume.py": "print(2)\n"}
    guide = guide_of(tmp_path, "tank", TANK_MD, files)
    guide.writes = True
    messages = turn("tank", "How many litres does a 100 x 40 x 50 cm tank hold?")
    written = "python3 scripts/stocking.py 100 40 50 --planted"
    call = ToolCall("w", "run_skill_script", {"skill": "tank", "command": written})
    checked = guide.check(messages, call)
    # The option the volume script's usage lacks goes with the move.
    assert checked.call.arguments["command"] == "python3 scripts/volume.py 100 40 50"
    assert "has words its script has no place for" in checked.note
    # Operands that fit their own script stay where they are.
    fits = ToolCall("w", "run_skill_script", {"skill": "tank", "command": "python3 scripts/stocking.py 80"})
    assert guide.check(messages, fits) == Checked(fits)


def test_the_first_run_is_written_from_the_documentation(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    messages = turn("tide", ASKED)
    [written] = runs_of(guide.step(messages, None, 256).schema)
    assert "pattern" in written["command"]
    request = guide.request(messages, None)
    assert request[-1].content.endswith(f"Request: {ASKED}")
    assert "| PLY | Plymouth |" in request[-1].content
    # Two worked examples come first: a small model copies a shape.
    assert [m.role for m in request[1:5]] == ["user", "assistant", "user", "assistant"]


def test_a_command_the_rules_reject_is_filled_in_its_place(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    messages = turn("tide", ASKED)
    assert guide.check(messages, run(f"{START} PLY --days 3")).problem == ""
    first = guide.check(messages, run(f"{START} PLY --weeks 3"))
    assert "no option --weeks" in first.problem and first.again
    # Rejected once, the model writes it again shown the command and what was wrong.
    [again] = runs_of(guide.step(messages, None, 256).schema)
    assert "pattern" in again["command"]
    request = guide.request(messages, None)
    assert f"{START} PLY --weeks 3" in request[-2].content
    assert "That command was not run: the skill names no option --weeks" in request[-1].content
    second = guide.check(messages, run(f"{START} PLY --weeks 2"))
    assert second.problem and not second.again
    # Rejected twice, the turn's first run is the fill's.
    [filled] = runs_of(guide.step(messages, None, 256).schema)
    assert "script" in filled
    assert guide.check(messages, run(f"{START} PLY --weeks 3")).problem == ""


def test_a_run_the_output_calls_wrong_is_rewritten_with_the_error_in_view(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    error = "exit code 2 after 0.1 s\nerror: unknown port 'Plymouth'; see the port list\n"
    failed = (f"{START} Plymouth", error)
    messages = turn("tide", ASKED, failed)
    [written] = runs_of(guide.step(messages, None, 256).schema)
    assert "pattern" in written["command"]
    request = guide.request(messages, None)
    assert f"{START} Plymouth" in request[-2].content
    assert "unknown port 'Plymouth'" in request[-1].content
    assert guide.check(messages, run(f"{START} Plymouth")).problem == "it is the command that failed"


def test_a_value_the_error_rejects_is_replaced_by_one_it_lists(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    error = "exit code 2 after 0.1 s\nerror: unknown port 'Plymouth'; known: BRS, PLY\n"
    messages = turn("tide", ASKED, (f"{START} Plymouth", error))
    # Written freely, a small model drifts from both the error and the run; the listed values
    # in the rejected word's place are the runs to choose from, as the rules wrote them.
    [fixed] = runs_of(guide.step(messages, None, 256).schema)
    assert fixed["command"]["enum"] == [f"{START} BRS", f"{START} PLY"]
    assert guide.check(messages, run(f"{START} PLY")).problem == ""
    # A value's remark in brackets is no value of its own.
    error = "exit code 1 after 0.1 s\nerror: 'Plymouth' is no port such as BRS (Bristol) or PLY\n"
    [fixed] = runs_of(guide.step(turn("tide", ASKED, (f"{START} Plymouth", error)), None, 256).schema)
    assert fixed["command"]["enum"] == [f"{START} BRS", f"{START} PLY"]


def test_after_the_scripts_help_a_run_follows_even_when_the_rewrite_is_refused(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    helped = (f"{START} --help", "exit code 0 after 0.1 s\nusage: tide.py [-h] [--days N] port\n")
    messages = turn("tide", ASKED, helped)
    # The model asks for the help again: refused, and the fill writes the run, not an answer
    # (the help's text came back as the answer before).
    assert guide.check(messages, run(f"{START} --help")).problem
    step = guide.step(messages, None, 256)
    assert step.require_call and runs_of(step.schema)


def test_a_checkers_verdict_is_no_call_to_rewrite(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    report = "\n".join(f"line {n}: tide table gap" for n in range(12))
    messages = turn("tide", ASKED, (f"{START} PLY", f"exit code 1 after 0.1 s\n{report}\n"))
    # Its findings may be the answer: the step keeps one, and the request is the guided one.
    assert not guide.step(messages, None, 256).require_call
    assert "The command failed" not in guide.request(messages, None)[-1].content


def test_off_the_first_run_is_the_fill(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "tide", TIDE_MD, FILES)
    [filled] = runs_of(guide.step(turn("tide", ASKED), None, 256).schema)
    assert "script" in filled


def test_the_start_under_a_heading_that_names_the_script_keeps_its_interpreter(tmp_path: Path) -> None:
    assert tide_guide(tmp_path).invocations("tide") == [START]


def test_words_the_usage_has_no_place_for_are_left_out(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    checked = guide.check(turn("tide", ASKED), run(f"{START} PLY 3 --days 3"))
    assert (checked.problem, checked.call.arguments["command"]) == ("", f"{START} PLY --days 3")
    assert "no place" in checked.note


def test_asking_for_the_help_is_no_run_to_answer_with(tmp_path: Path) -> None:
    assert "help" in tide_guide(tmp_path).check(turn("tide", ASKED), run(f"{START} --help")).problem


async def test_a_rejected_command_is_not_run_and_the_fill_is_asked_for_in_the_same_round(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    write_skill(project / "skills", "tide", TIDE_MD,
                {**FILES, "scripts/tide.py": "import sys\nprint('high water', sys.argv[1:])\n"})
    executor = ToolExecutor(SkillToolbox(scan_root(SkillRoot(project / "skills")).skills, project),
                            AutoApprover(), Grants(tmp_path / "grants.yaml"), AuditLog(tmp_path / "a.jsonl"),
                            home=tmp_path / "home")
    config = AgentConfig(OPENAI_MODEL, guided=True, guided_fill=True, guided_write=True,
                         options={"max_tokens": 400})
    agent = Agent(OpenAIClient(fake_openai.url, http_client, idle_timeout=20.0), executor, config)
    written = {"skill": "tide", "command": f"{START} PLY --weeks 3"}
    fake_openai.script(reply(json.dumps({"tool": "activate_skill", "arguments": {"name": "tide"}})),
                       reply(json.dumps({"tool": "run_skill_script", "arguments": written})),
                       reply(json.dumps({"tool": "run_skill_script", "arguments": written})),
                       reply(json.dumps({"tool": "run_skill_script", "arguments": {
                           "skill": "tide", "script": START, "PORT": "PLY", "N": "3"}})),
                       reply('{"answer": "high water"}'))
    events = [event async for event in agent.run([Message("user", ASKED)])]
    calls = [e.arguments["command"] for e in events
             if isinstance(e, ToolCallRequested) and "command" in e.arguments]
    assert calls == [f"{START} PLY --days 3"]
    notices = [e.message for e in events if isinstance(e, ChatNotice)]
    assert "was not run (the skill names no option --weeks); the model is asked again" in notices[0]
    assert "was not run (the skill names no option --weeks); it is filled" in notices[1]
    # The written request is the few-shot one, then again with what was wrong; the fill's is the
    # guided conversation.
    assert fake_openai.chats[1]["messages"][-1]["content"].endswith(f"Request: {ASKED}")
    assert fake_openai.chats[2]["messages"][-1]["content"].startswith("That command was not run")
    assert "pattern" not in json.dumps(fake_openai.chats[3]["response_format"])


def test_a_name_the_scripts_printed_usage_gives_is_no_value(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    error = ("exit code 2 after 0.1 s\nusage: tide.py [-h] [--days N]\n               harbour_code\n"
             "tide.py: error: unknown harbour 'Plymouth'\n")
    messages = turn("tide", ASKED, (f"{START} Plymouth", error))
    assert "harbour_code is the usage line's placeholder" in \
        guide.check(messages, run(f"{START} harbour_code --days 3")).problem


def test_after_the_help_the_run_itself_is_written_with_the_help_in_view(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    helped = (f"{START} --help", "exit code 0 after 0.1 s\nusage: tide.py [-h] [--days N] port\n")
    messages = turn("tide", ASKED, helped)
    [written] = runs_of(guide.step(messages, None, 256).schema)
    assert "pattern" in written["command"]
    assert guide.request(messages, None)[-1].content.startswith("It printed the script's help:")


def test_a_command_cut_at_the_token_cap_is_filled_instead(tmp_path: Path) -> None:
    guide = tide_guide(tmp_path)
    messages = turn("tide", ASKED)
    assert guide.abandon(messages)
    [filled] = runs_of(guide.step(messages, None, 256).schema)
    assert "script" in filled and not guide.abandon(messages)
