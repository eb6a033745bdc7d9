"""Guided runs whose arguments a model fills under a schema built from the skill's own words, the
repair step after a failed run, and the answer held to the output's figures, against the
scripted llama.cpp server (issue 23)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import ChatNotice, Done, Event, TextDelta, ToolCallRequested, ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.guided.answer import sentence_schema
from studio.agent.guided.arguments import parse_usage
from studio.agent.guided.dates import iso_dates
from studio.agent.guided.fill import filled_spec
from studio.agent.guided.values import Described, describe
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.llm import Message
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OPENAI_MODEL
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill

LENGTH_MD = frontmatter("length", "Converts a length between units.").replace("Body.\n", """\
```bash
python3 scripts/length.py VALUE FROM TO
```

FROM and TO are unit codes from the table below; the script knows no unit names.

| Code | Unit |
|------|------|
| `km` | kilometre |
| `mi` | mile |
| `ft` | foot |

For example `python3 scripts/length.py 5 km mi`.
""")
LENGTH_PY = """\
import sys
feet = {"km": 3280.84, "mi": 5280.0, "ft": 1.0}
value, source, target = sys.argv[1:]
if source not in feet or target not in feet:
    print(f"unknown unit code {source!r}; see references/codes.md", file=sys.stderr)
    sys.exit(2)
print(f"{value} {source} = {float(value) * feet[source] / feet[target]:g} {target}")
"""
REVERSE_MD = frontmatter("reverse", "Reverses the words of a phrase.").replace(
    "Body.\n", 'Run `python3 scripts/reverse.py "PHRASE"`, the phrase in quotes.\n')
REVERSE_PY = "import sys\nprint(' '.join(reversed(sys.argv[1].split())), len(sys.argv) - 1)\n"
VAT_MD = frontmatter("vat", "Adds VAT to a net price.").replace("Body.\n", """\
Run `python3 scripts/vat.py AMOUNT COUNTRY`.

COUNTRY is one of the codes listed in references/rates.md.
""")
RATES_MD = ("# Rates\n\n| Code | Country | Rate |\n|---|---|---|\n| `de` | Germany | 19% |\n"
            "| `fr` | France | 20% |\n")
VAT_PY = "import sys\nprint('gross', round(float(sys.argv[1]) * {'de': 1.19, 'fr': 1.2}[sys.argv[2]], 2))\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "length", LENGTH_MD, {"scripts/length.py": LENGTH_PY,
                                                       "references/codes.md": "- `km`\n- `mi`\n- `ft`\n"})
    write_skill(root / "skills", "reverse", REVERSE_MD, {"scripts/reverse.py": REVERSE_PY})
    write_skill(root / "skills", "vat", VAT_MD, {"scripts/vat.py": VAT_PY, "references/rates.md": RATES_MD})
    return root


def agent_for(server: FakeOpenAI, http: httpx.AsyncClient, project: Path,
              prompt: str) -> tuple[Agent, list[Message]]:
    skills = scan_root(SkillRoot(project / "skills")).skills
    executor = ToolExecutor(SkillToolbox(skills, project), AutoApprover(),
                            Grants(project.parent / "grants.yaml"), AuditLog(project.parent / "a.jsonl"),
                            home=project.parent / "home")
    system, _ = system_prompt(skills)
    config = AgentConfig(OPENAI_MODEL, guided=True, guided_fill=True, options={"max_tokens": 400})
    return (Agent(OpenAIClient(server.url, http, idle_timeout=20.0), executor, config),
            [Message("system", system), Message("user", prompt)])


def activate(name: str) -> str:
    return json.dumps({"tool": "activate_skill", "arguments": {"name": name}})


def filled(skill: str, script: str, **values: str) -> str:
    return json.dumps({"tool": "run_skill_script", "arguments": {"skill": skill, "script": script, **values}})


def branches(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    schema = body["response_format"]["json_schema"]["schema"]
    return {b["properties"]["tool"]["enum"][0] if "tool" in b["properties"] else "answer": b
            for b in schema.get("oneOf", [schema])}


def arguments_of(branch: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = branch["properties"]["arguments"]["properties"]
    return properties


async def test_the_model_fills_each_placeholder_with_the_codes_the_skill_lists(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply(activate("length")),
                       reply(filled("length", "python3 scripts/length.py", VALUE="3", FROM="mile: mi",
                                    TO="foot: ft")),
                       reply('{"answer": "There are 15840 ft in 3 miles."}'))
    agent, messages = agent_for(fake_openai, http_client, project, "How many feet are in 3 miles?")
    events: list[Event] = [event async for event in agent.run(messages)]
    second, third = fake_openai.chats[1:]

    # The user wrote "miles" and "feet"; the schema holds FROM and TO to the table's codes.
    run = arguments_of(branches(second)["run_skill_script"])
    # Each code offered as what its row says of it, then the code (the user wrote "miles"): the
    # one given a figure is FROM, and TO is any other.
    assert run["FROM"]["enum"] == ["mile: mi"] and run["TO"]["enum"] == ["kilometre: km", "foot: ft"]
    # VALUE is a number of the message, not the SKILL.md example's 5.
    assert run["VALUE"]["enum"] == ["3"] and run["script"]["enum"] == ["python3 scripts/length.py"]
    shown = second["messages"][-1]["content"]
    # Each code with what its row says of it, not the examples.
    assert "- FROM: one of kilometre: km; mile: mi; foot: ft; FROM and TO are unit codes" in shown
    assert "5 km mi" not in shown

    calls = [e for e in events if isinstance(e, ToolCallRequested)]
    assert calls[1].arguments == {"skill": "length", "command": "python3 scripts/length.py 3 mi ft"}
    assert [f.status for f in events if isinstance(f, ToolFinished)] == ["ok", "ok"]
    # The answer must hold the output's own figure and unit (not the 3 the command gave it).
    pattern = branches(third)["answer"]["properties"]["answer"]["pattern"]
    assert re.fullmatch(pattern, "There are 15840 ft in 3 miles.")
    assert not re.fullmatch(pattern, "There are about 15800 ft in 3 miles.")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "There are 15840 ft in 3 miles."


async def test_a_quoted_phrase_is_one_argument(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply(activate("reverse")),
                       reply(filled("reverse", "python3 scripts/reverse.py", PHRASE="the quick brown fox")),
                       reply('{"answer": "fox brown quick the 1"}'))
    agent, messages = agent_for(fake_openai, http_client, project,
                                'Reverse the words of "the quick brown fox".')
    events = [event async for event in agent.run(messages)]
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert "fox brown quick the 1" in finished[-1].result  # one argument, not four


async def test_values_listed_only_in_a_referenced_file_are_the_enum(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply(activate("vat")),
                       reply(filled("vat", "python3 scripts/vat.py", AMOUNT="200",
                                    COUNTRY="Germany, 19%: de")),
                       reply('{"answer": "gross 238.0"}'))
    # The message names no country: every one the file lists is offered.
    agent, messages = agent_for(fake_openai, http_client, project, "200 with VAT?")
    events = [event async for event in agent.run(messages)]
    run = arguments_of(branches(fake_openai.chats[1])["run_skill_script"])
    assert run["COUNTRY"]["enum"] == ["Germany, 19%: de", "France, 20%: fr"]
    assert "gross 238.0" in [e for e in events if isinstance(e, ToolFinished)][-1].result


async def test_a_failed_run_is_repaired_with_the_values_its_error_lists(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply(activate("length")),
                       reply(filled("length", "python3 scripts/length.py", VALUE="3", FROM="km", TO="ft")),
                       reply(filled("length", "python3 scripts/length.py", VALUE="3", FROM="mile", TO="ft")),
                       reply('{"answer": "15840 feet"}'))
    # The first run is made to fail: the script knows other codes than the SKILL.md lists.
    (project / "skills" / "length" / "scripts" / "length.py").write_text(
        LENGTH_PY.replace('feet = {"km": 3280.84, "mi"', 'feet = {"kilometre": 3280.84, "mile"').replace(
            "see references/codes.md", "known: kilometre, mile, ft"))
    agent, messages = agent_for(fake_openai, http_client, project, "How many feet are in 3 miles?")
    events = [event async for event in agent.run(messages)]
    repair = fake_openai.chats[2]
    shown = repair["messages"][-1]["content"]
    # The model sees the error and the usage line; the repair is a run, not an answer.
    assert "exit code 2" in shown and "unknown unit code 'km'" in shown
    assert "python3 scripts/length.py VALUE FROM TO" in shown
    assert set(branches(repair)) == {"run_skill_script"}
    # The values the error lists are the enum of the placeholder it rejected.
    schema = repair["response_format"]["json_schema"]["schema"]
    [run] = [arguments_of(b) for b in schema["oneOf"] if "script" in arguments_of(b)]
    assert run["FROM"]["enum"] == ["kilometre", "mile", "ft"]
    assert run["TO"]["enum"] == ["kilometre: km", "mile: mi", "foot: ft"]
    ran = [e.arguments.get("command") for e in events if isinstance(e, ToolCallRequested)]
    assert ran == [None, "python3 scripts/length.py 3 km ft", "python3 scripts/length.py 3 mile ft"]
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered"


async def test_a_repair_that_fails_too_ends_in_a_sentence_saying_what_failed(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply(activate("length")),
                       reply(filled("length", "python3 scripts/length.py", VALUE="3", FROM="km", TO="ft")),
                       reply(filled("length", "python3 scripts/length.py", VALUE="3", FROM="km", TO="mi")))
    (project / "skills" / "length" / "scripts" / "length.py").write_text(
        LENGTH_PY.replace('feet = {"km"', 'feet = {"kilometre"'))
    agent, messages = agent_for(fake_openai, http_client, project, "How many feet are in 3 miles?")
    sentence = ("The script failed twice; the last run, `python3 scripts/length.py 3 km mi`, stopped "
                "with exit code 2: unknown unit code 'km'; see references/codes.md.")
    fake_openai.script(reply(json.dumps({"answer": sentence})))
    events = [event async for event in agent.run(messages)]
    last = fake_openai.chats[3]
    assert branches(last)["answer"]["properties"]["answer"]["enum"] == [sentence]
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered" and done.text == sentence


def test_the_values_a_skill_documents_are_found_where_a_writer_puts_them() -> None:
    body = """\
Run `python3 scripts/x.py FORMAT LEVEL FILE`.

FORMAT is one of `json`, `csv` or `tsv`.
LEVEL is a level from references/levels.md.
FILE is the path of the input.

## Modes
- `fast`: quick
- `full`: thorough
"""
    files = {"references/levels.md": "# Levels\n\n- low: a little\n- high: a lot\n"}
    found = {d.name: d for d in describe(["FORMAT", "LEVEL", "FILE", "MODE"], body, files.get,
                                        ["python3 scripts/x.py FORMAT LEVEL FILE"])}
    assert found["FORMAT"].values == ("json", "csv", "tsv")
    assert found["LEVEL"].values == ("low", "high")
    assert found["FILE"].values == () and found["FILE"].said == "FILE is the path of the input."
    assert found["MODE"].values == ("fast", "full")  # under a heading that names it


def enums(usage: str, described: list[Described], request: str) -> dict[str, list[str]]:
    parsed = parse_usage(usage, "python3 x.py")
    assert parsed is not None
    words = [w.strip(".,?\"") for w in request.split()]
    spec = filled_spec("s", "python3 x.py", parsed, described, [*iso_dates(request), *words], request)
    return {name: p["enum"] for name, p in spec.parameters["properties"].items()
            if name not in ("skill", "script") and "enum" in p}


def test_the_message_decides_among_the_values_when_it_names_them() -> None:
    algorithms = Described("ALGORITHM", "", ("md5", "sha256"))
    # "SHA-256" names sha256, give or take case and the hyphen: the only choice left.
    assert enums("python3 x.py ALGORITHM FILE", [algorithms], "The SHA-256 of a.txt?")[
        "ALGORITHM"] == ["sha256"]
    # The figure beside the word naming the placeholder, not the other one.
    assert enums("python3 x.py --weight KG --height CM", [], "I weigh 70 kg and am 175 cm tall")[
        "KG"] == ["70"]
    # A date written in words, offered as the script takes it.
    assert enums("python3 x.py DATE", [], "Which day was 29 February 2024?")["DATE"] == ["2024-02-29"]


async def test_a_repair_that_repeats_the_failed_command_is_not_run_and_says_what_failed(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    same = filled("length", "python3 scripts/length.py", VALUE="3", FROM="km", TO="ft")
    fake_openai.script(reply(activate("length")), reply(same), reply(same))
    (project / "skills" / "length" / "scripts" / "length.py").write_text(
        LENGTH_PY.replace('feet = {"km"', 'feet = {"kilometre"'))
    agent, messages = agent_for(fake_openai, http_client, project, "How many feet are in 3 miles?")
    events = [event async for event in agent.run(messages)]
    # The same command gives the same output: it runs once, and the answer says what failed.
    assert len([e for e in events if isinstance(e, ToolFinished)]) == 2
    assert any(isinstance(e, ChatNotice) and "not run" in e.message for e in events)
    done = events[-1]
    assert isinstance(done, Done) and done.text == (
        "The script failed; the run, `python3 scripts/length.py 3 km ft`, stopped with exit code 2: "
        "unknown unit code 'km'; see references/codes.md.")


def test_an_answer_states_a_short_line_of_several_figures_as_written() -> None:
    # Several figures: which label goes with which matters; the answer is the line as written.
    several = sentence_schema("mean 5.67, median 4 of 3 readings", "python3 x.py 2 4 11")
    assert several is not None
    assert several["properties"]["answer"]["enum"] == ["mean 5.67, median 4 of 3 readings"]
    # One figure: the answer may say it in its own words, but with that figure and its unit,
    # and no figure before it (held where it starts the figure, a model writes the unit).
    one = sentence_schema("3 mi = 15840 ft", "python3 x.py 3 mi ft")
    assert one is not None
    assert re.fullmatch(one["properties"]["answer"]["pattern"], "That is 15840 ft in 3 miles.")
    assert not re.fullmatch(one["properties"]["answer"]["pattern"], "That is 15840 metres.")
    # A line that is only a label and its figure is the answer as written.
    labelled = sentence_schema("apple: 4", "python3 x.py fruit.txt")
    assert labelled is not None and labelled["properties"]["answer"]["enum"] == ["apple: 4"]


@pytest.mark.parametrize(("line", "holds", "refuses"), [
    # The unit after the figure is the output's, as written; no other figure comes first.
    ("a to b: 42 km", "It is 42 km away.", "It is 42 kilometers away."),
    ("7 items", "The list has 7 items.", "The list has 7 entries."),
    ("7 items", "Of 7 items, 2 are new.", "Of 2 new ones, 7 items."),
    # A stop word after the figure is no unit: the figure alone, anywhere.
    ("19.50 with tax", "At 2 units it costs 19.50.", "It costs 19.5."),
])
def test_an_answer_keeps_the_figure_with_its_unit(line: str, holds: str, refuses: str) -> None:
    schema = sentence_schema(line, "python3 x.py a b")
    assert schema is not None
    pattern = schema["properties"]["answer"]["pattern"]
    assert re.fullmatch(pattern, holds) and not re.fullmatch(pattern, refuses)
