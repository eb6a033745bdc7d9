"""Guided replies against the scripted llama.cpp server: each round's schema is the one step that
makes sense next (pick a skill or answer; run one of its scripts; answer from the output), the
request is the short one, and the calls the model makes in that shape are carried out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.constrained import FORCED_MAX_TOKENS
from studio.agent.events import ChatNotice, Done, Event, TextDelta, ToolCallRequested, ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.guided.replies import (
    ANSWER_MAX_TOKENS,
    CALL_MAX_TOKENS,
    EXAMPLE,
    NO_SKILL,
    Guide,
    cut_answer,
    looped_answer,
)
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.llm import Message, ToolCall
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OPENAI_MODEL
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill

SHIPPED = Path(__file__).resolve().parents[2] / "skills"
HELLO_MD = frontmatter("hello", "Greets the user. Use when asked for a greeting.").replace(
    "Body.\n", "Run it:\n\n```bash\npython3 scripts/hello.py NAME\n```\n\nfor example "
    "`python3 scripts/hello.py Ada`.\n")
ACTIVATE = '{"tool": "activate_skill", "arguments": {"name": "hello"}}'
RUN = ('{"tool": "run_skill_script", "arguments": {"skill": "hello", '
       '"command": "python3 scripts/hello.py Bo"}}')


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "hello", HELLO_MD,
                {"scripts/hello.py": "import sys\nprint('Hello, ' + sys.argv[1] + '!')\n"})
    write_skill(root / "skills", "notes", frontmatter("notes", "Writing rules. Use when writing."))
    return root


def toolbox(skills_dir: Path) -> SkillToolbox:
    return SkillToolbox(scan_root(SkillRoot(skills_dir)).skills, skills_dir)


def agent_for(server: FakeOpenAI, http: httpx.AsyncClient, project: Path) -> tuple[Agent, list[Message]]:
    skills = scan_root(SkillRoot(project / "skills")).skills
    executor = ToolExecutor(SkillToolbox(skills, project), AutoApprover(),
                            Grants(project.parent / "grants.yaml"), AuditLog(project.parent / "a.jsonl"),
                            home=project.parent / "home")
    prompt, _ = system_prompt(skills)
    config = AgentConfig(OPENAI_MODEL, guided=True, options={"max_tokens": 400})
    return (Agent(OpenAIClient(server.url, http, idle_timeout=20.0), executor, config),
            [Message("system", prompt), Message("user", "Greet Bo.")])


def schema_of(body: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = body["response_format"]["json_schema"]["schema"]
    return schema


def branches(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The schema's choices by tool name ("answer" for the answer)."""
    found = schema.get("oneOf", [schema])
    return {b["properties"]["tool"]["enum"][0] if "tool" in b["properties"] else "answer": b
            for b in found}


async def test_a_guided_turn_picks_a_skill_runs_its_script_and_answers_from_the_output(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply(ACTIVATE), reply(RUN), reply('{"answer": "Hello, Bo!"}'))
    agent, messages = agent_for(fake_openai, http_client, project)
    events: list[Event] = [event async for event in agent.run(messages)]
    first, second, third = fake_openai.chats

    # Step 1: a skill of the catalog, or none; the short prompt and the worked example.
    step = branches(schema_of(first))
    assert set(step) == {"activate_skill"}
    assert step["activate_skill"]["properties"]["arguments"]["properties"]["name"]["enum"] == [
        "hello", "notes", NO_SKILL]
    assert first["max_tokens"] == CALL_MAX_TOKENS and first["temperature"] == 0
    assert "tools" not in first
    system = first["messages"][0]["content"]
    assert "- hello: Greets the user." in system and "<available_skills>" not in system
    shown = [(m["role"], m["content"]) for m in first["messages"][1:]]
    assert shown == [*((m.role, m.content) for m in EXAMPLE), ("user", "Greet Bo.")]

    # Step 2: a run of the loaded skill's own script is required; its usage lines were shown.
    step = branches(schema_of(second))
    assert set(step) == {"run_skill_script"}
    arguments = step["run_skill_script"]["properties"]["arguments"]["properties"]
    assert arguments["skill"]["enum"] == ["hello"]
    # Its usage line's NAME is one of the words of the user's message.
    assert arguments["command"]["enum"] == ["python3 scripts/hello.py Greet", "python3 scripts/hello.py Bo"]
    assert second["messages"][-2] == {"role": "assistant", "content": ACTIVATE}
    assert second["messages"][-1]["content"] == (
        "Skill hello is loaded. Its script runs like this:\n"
        "python3 scripts/hello.py NAME\npython3 scripts/hello.py Ada")

    # Step 3: only an answer, with room for it, after the script's output (without the timing).
    assert set(branches(schema_of(third))) == {"answer"}
    assert third["max_tokens"] == ANSWER_MAX_TOKENS < 400
    assert third["messages"][-1]["content"] == "Output of the command:\nHello, Bo!\n"

    calls = [e for e in events if isinstance(e, ToolCallRequested)]
    assert [(c.tool, c.constrained) for c in calls] == [("activate_skill", True), ("run_skill_script", True)]
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert [f.status for f in finished] == ["ok", "ok"]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hello, Bo!"
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered" and done.rounds == 3


async def test_a_guided_turn_may_answer_without_a_skill(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply('{"tool": "activate_skill", "arguments": {"name": "none"}}'),
                       reply('{"answer": "Paris."}'))
    agent, messages = agent_for(fake_openai, http_client, project)
    events = [event async for event in agent.run(messages)]
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered" and done.text == "Paris."
    assert not [e for e in events if isinstance(e, ToolCallRequested)]
    assert set(branches(schema_of(fake_openai.chats[1]))) == {"answer"}
    assert messages[-2:] == [Message("user", "Greet Bo."), Message("assistant", "Paris.")]


def test_a_run_the_output_calls_wrong_is_repaired_and_a_verdict_may_be_answered() -> None:
    guide = Guide(toolbox(SHIPPED))
    turn = [Message("user", "How many km is 26.2 miles?"),
            Message("assistant", "", [ToolCall("1", "activate_skill", {"name": "unit-convert"})]),
            Message("tool", "<skill_content ...>", tool_name="activate_skill", tool_call_id="1"),
            Message("assistant", "", [ToolCall("2", "run_skill_script",
                                               {"skill": "unit-convert", "command": "x"})]),
            Message("tool", "exit code 2 after 0.05 s\nunknown unit", tool_name="run_skill_script",
                    tool_call_id="2")]
    step = guide.step(turn, None, FORCED_MAX_TOKENS)
    # "unknown unit": the call was wrong; the repair is another run or a file the SKILL.md names
    # for the values it accepts, never a quote of the error.
    assert set(branches(step.schema)) == {"run_skill_script", "read_skill_file"}
    assert step.require_call
    # A checker's report with a non-zero exit is its verdict: it may be answered.
    verdict = "exit code 1 after 0.05 s\n" + "".join(f"$.a{i}: expected integer\n" for i in range(6))
    step = guide.step([*turn[:-1], Message("tool", verdict, tool_name="run_skill_script",
                                           tool_call_id="2")], None, FORCED_MAX_TOKENS)
    assert set(branches(step.schema)) == {"run_skill_script", "read_skill_file", "answer"}
    assert not step.require_call
    ran = [*turn[:-1], Message("tool", "exit code 0 after 0.05 s\n26.2 mi = 42.1648 km",
                               tool_name="run_skill_script", tool_call_id="2")]
    step = guide.step(ran, None, FORCED_MAX_TOKENS)
    assert set(branches(step.schema)) == {"answer"} and step.max_tokens == FORCED_MAX_TOKENS
    # A skill that failed to load leaves the choice of a skill open.
    failed = [*turn[:2], Message("tool", "error: no such skill", tool_name="activate_skill",
                                 tool_call_id="1")]
    assert set(branches(guide.step(failed, None, FORCED_MAX_TOKENS).schema)) == {"activate_skill"}
    # Only the offered skills are choices; with none offered, only an answer is.
    step = guide.step(turn[:1], ["unit-convert"], FORCED_MAX_TOKENS)
    names = branches(step.schema)["activate_skill"]["properties"]["arguments"]["properties"]["name"]
    assert names["enum"] == ["unit-convert", NO_SKILL]
    assert set(branches(guide.step(turn[:1], [], FORCED_MAX_TOKENS).schema)) == {"answer"}


@pytest.mark.parametrize(("skill", "invocations"), [
    ("unit-convert", ["python3 scripts/convert.py"]),
    ("changelog-writer", ["python3 scripts/build_changelog.py"]),
    ("csv-profiler", ["python3 scripts/profile_csv.py"]),
    ("commit-message-lint", []),
])
def test_a_skills_scripts_are_started_as_its_skill_md_starts_them(skill: str, invocations: list[str]) -> None:
    assert Guide(toolbox(SHIPPED)).invocations(skill) == invocations


def test_a_script_no_usage_line_shows_is_started_by_its_suffix(tmp_path: Path) -> None:
    write_skill(tmp_path, "tool", frontmatter("tool"), {"scripts/run.sh": "echo hi\n",
                                                         "scripts/x.py": "print(1)\n"})
    assert Guide(toolbox(tmp_path)).invocations("tool") == ["bash scripts/run.sh", "python3 scripts/x.py"]


def test_a_terminal_sessions_prompt_is_no_part_of_the_command(tmp_path: Path) -> None:
    body = "```\n$ python3 scripts/sq.py 4\n16\n```\n"
    write_skill(tmp_path, "square", frontmatter("square").replace("Body.\n", body),
                {"scripts/sq.py": "import sys\nprint(int(sys.argv[1]) ** 2)\n"})
    guide = Guide(toolbox(tmp_path))
    assert guide.invocations("square") == ["python3 scripts/sq.py"]
    assert guide._commands("square")[0] == "python3 scripts/sq.py 4"


@pytest.mark.parametrize("line", ["Usage: `python3 scripts/add.py A B`",
                                  "`python3 scripts/add.py A B` adds two numbers",
                                  "Run `python3 scripts/add.py A B` to add them."])
def test_a_usage_line_in_a_code_span_at_either_edge_of_a_line_is_read(tmp_path: Path, line: str) -> None:
    write_skill(tmp_path, "add", frontmatter("add").replace("Body.\n", line + "\n"),
                {"scripts/add.py": "import sys\nprint(sum(map(int, sys.argv[1:])))\n"})
    assert Guide(toolbox(tmp_path))._commands("add") == ["python3 scripts/add.py A B"]


def run_command(skill: str, prompt: str, skills_dir: Path = SHIPPED) -> dict[str, Any]:
    """The `command` schema of a guided run of a skill (a shipped one by default), after `prompt`."""
    step = Guide(toolbox(skills_dir)).step([Message("user", prompt), Message("assistant", "", [
        ToolCall("1", "activate_skill", {"name": skill})]),
        Message("tool", "<skill_content>", tool_name="activate_skill", tool_call_id="1")],
        None, FORCED_MAX_TOKENS)
    command: dict[str, Any] = branches(step.schema)["run_skill_script"]["properties"]["arguments"][
        "properties"]["command"]
    return command


def test_a_usage_lines_placeholders_are_filled_with_distinct_words_of_the_users_message() -> None:
    commands = run_command("unit-convert", 'How many "km" is 26.2 miles in the unit-convert skill?')
    assert "python3 scripts/convert.py 26.2 miles km" in commands["enum"]
    assert all(c.startswith("python3 scripts/convert.py ") and len(c.split()) == 5
               for c in commands["enum"])
    # Not the SKILL.md's example values; no word twice; not the skill's name nor stop words.
    assert "python3 scripts/convert.py 98.6 F C" not in commands["enum"]
    assert "python3 scripts/convert.py 26.2 26.2 km" not in commands["enum"]
    used = {word for c in commands["enum"] for word in c.split()[2:]}
    assert used == {"many", "km", "26.2", "miles"}


def test_the_words_of_the_skills_name_are_not_arguments() -> None:
    """Seen with SmolLM2-135M in the window: it ran `convert.py 5 kilograms Convert`."""
    commands = run_command("unit-convert", "Convert 5 kilograms to pounds")
    assert "python3 scripts/convert.py 5 kilograms pounds" in commands["enum"]
    assert not any("Convert" in command.split()[2:] for command in commands["enum"])


def test_without_a_usage_line_a_run_takes_the_users_words_and_the_options(tmp_path: Path) -> None:
    write_skill(tmp_path, "notes-log", frontmatter("notes-log").replace(
        "Body.\n", "Run `python3 scripts/log.py --release 1.0 notes.txt` or "
        "`cat x | python3 scripts/log.py -`.\n"), {"scripts/log.py": "print(1)\n"})
    pattern = run_command("notes-log", "Draft release 1.4.0 dated 2024-03-10 from "
                          "assets/sample-git-log.txt.", tmp_path)["pattern"]
    assert json.loads(json.dumps(pattern)) == pattern
    assert re.fullmatch(pattern, "python3 scripts/log.py assets/sample-git-log.txt --release 1.4.0")
    assert re.fullmatch(pattern, "python3 scripts/log.py")
    assert not re.fullmatch(pattern, "python3 scripts/log.py 1.4.0; rm -rf /")
    assert not re.fullmatch(pattern, "python3 scripts/log.py 1.3.2")
    assert not re.fullmatch(pattern, "python3 scripts/log.pyx 1.4.0")
    assert not re.fullmatch(pattern, "python3 scripts/log.py" + " 1.4.0" * 13)


def test_a_script_without_a_usage_line_runs_as_its_own_docstring_says(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    script = (f'"""Counts the words of a file.\n\nUsage: count.py FILE [--top N]\n"""\n'
              f"open({str(ran)!r}, 'w').close()\n")
    write_skill(tmp_path, "counter", frontmatter("counter"), {"scripts/count.py": script})
    command = run_command("counter", "Count the words of notes.txt, top 5.", tmp_path)
    assert command["enum"] == ["python3 scripts/count.py notes.txt --top 5"]
    shown = Guide(toolbox(tmp_path))._result("activate_skill", {"name": "counter"}, "<skill_content>")
    assert shown.endswith("python3 scripts/count.py FILE [--top N]")
    assert not ran.exists()  # read, never run


def test_the_shipped_skills_runs_fill_their_usage_lines_from_the_eval_prompts() -> None:
    assert run_command("json-schema-check", "Check assets/config-invalid.json against "
                       "assets/service-config.schema.json.")["enum"] == [
        "python3 scripts/check_json.py assets/service-config.schema.json assets/config-invalid.json"]
    assert run_command("changelog-writer", "Draft release 1.4.0 dated 2024-03-10 from "
                       "assets/sample-git-log.txt.")["enum"] == [
        "python3 scripts/build_changelog.py assets/sample-git-log.txt --release 1.4.0 --date 2024-03-10"]
    # The file goes where FILE is, not an option the SKILL.md shows.
    assert run_command("markdown-toc", "Make a table of contents for assets/example-guide.md.")[
        "enum"] == ["python3 scripts/md_toc.py assets/example-guide.md"]


def skill_choices(guide: Guide, prompt: str) -> list[str]:
    step = guide.step([Message("user", prompt)], None, FORCED_MAX_TOKENS)
    names: list[str] = branches(step.schema)["activate_skill"]["properties"]["arguments"][
        "properties"]["name"]["enum"]
    return names


@pytest.fixture
def shelf(tmp_path: Path) -> Path:
    for name, description in [
        ("pdf-merge", "Merges PDF files into one. Use when asked to join PDFs."),
        ("weather", "Tells the weather forecast. Use when asked about rain or sun."),
        ("csv-stats", "Profiles a CSV file, its column types and counts. Use for spreadsheets."),
        ("csv-clean", "Cleans a CSV file, trims cells and drops empty rows."),
    ]:
        write_skill(tmp_path, name, frontmatter(name, description))
    return tmp_path


def test_step_one_offers_the_few_skills_the_message_points_at_best_first(shelf: Path) -> None:
    guide = Guide(toolbox(shelf))
    assert skill_choices(guide, "Profile the columns of orders.csv") == ["csv-stats", "csv-clean", NO_SKILL]
    weather = [Message("user", "Will it rain tomorrow? Check the weather.")]
    assert skill_choices(guide, weather[0].content) == ["weather", NO_SKILL]
    # The compact system prompt lists them first too, and the message is followed by a note of
    # the skills that fit.
    request = guide.request(weather, None)
    system = request[0].content
    assert system.index("- weather:") < system.index("- csv-clean:") < system.index("- pdf-merge:")
    assert request[-1] == Message("user", "Will it rain tomorrow? Check the weather.\n"
                                          "(Skills that fit: weather)")
    # Once a skill is loaded the note has done its work.
    loaded = [*weather, Message("assistant", "", [ToolCall("1", "activate_skill", {"name": "weather"})]),
              Message("tool", "<skill_content>", tool_name="activate_skill", tool_call_id="1")]
    assert [m.content for m in guide.request(loaded, None) if m.role == "user"][-2] == weather[0].content


def test_a_message_no_skill_fits_offers_every_skill_and_none(shelf: Path) -> None:
    guide = Guide(toolbox(shelf))
    # A question no skill shares a word with is answered: no skill to pick first (issue 29).
    step = guide.step([Message("user", "What is the capital of France?")], None, FORCED_MAX_TOKENS)
    assert set(branches(step.schema)) == {"answer"} and not step.require_call
    # One word of a description is not a clear pointer: every skill, ranked.
    assert skill_choices(guide, "Will it rain?") == [
        "weather", "csv-clean", "csv-stats", "pdf-merge", NO_SKILL]
    for prompt in ("What is the capital of France?", "Will it rain?"):
        assert guide.request([Message("user", prompt)], None)[-1] == Message("user", prompt)


def test_an_answer_cut_at_the_cap_keeps_what_was_written() -> None:
    assert cut_answer('{"answer": "26.2 mi = 42.16') == "26.2 mi = 42.16"
    assert cut_answer('{"answer": "a\\nb \\u00') == "a\nb "
    assert cut_answer('{"answer": "ends in \\') == "ends in "
    assert cut_answer('{"tool": "run_skill_script", "arguments": {"sk') is None


async def test_a_guided_answer_cut_at_the_cap_is_the_answer(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(reply('{"answer": "Paris, the capital of Fra'))
    agent, messages = agent_for(fake_openai, http_client, project)
    events = [event async for event in agent.run(messages)]
    assert any(isinstance(e, ChatNotice) and "cut at" in e.message for e in events)
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered"
    assert done.text == "Paris, the capital of Fra"


@pytest.mark.parametrize(("text", "kept"), [
    ('{"answer": "Flesch 46.5 (difficult). 1. 1. 1. 1. 1. 1. 1. 1. 1. 1.', "Flesch 46.5 (difficult). 1"),
    ('{"answer": "1234567890123456789012345678901234567890123', "1234567890"),
    ('{"answer": "42.1648 km 42.1648 km 42.1648 km 42.1648 km 42.16', "42.1648 km"),
    ('{"answer": "- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n- a\\n', "- a"),
])
def test_an_answer_that_starts_to_loop_keeps_what_it_wrote_before(text: str, kept: str) -> None:
    assert looped_answer(text) == kept


@pytest.mark.parametrize("text", [
    '{"answer": "Flesch 46.5 (difficult). 1. 1. 1.',  # too short to tell
    '{"answer": "| --- | --- | --- | --- | --- | --- | --- |',  # a table's rule, no words
    '{"answer": "1000000000000000000000000000000000000',  # a long number
    '{"tool": "run_skill_script", "arguments": {"skill": "a a a a a a a a a a a a a a a a',
])
def test_an_answer_that_does_not_loop_is_left_alone(text: str) -> None:
    assert looped_answer(text) is None


async def test_a_guided_answer_that_loops_is_stopped_and_keeps_what_came_before(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    # Streamed a few characters at a time, as a server sends tokens; far more than the cap.
    looping = '{"answer": "Hello, Bo! 1. ' + "1. " * 400
    fake_openai.script(reply(*(looping[i:i + 4] for i in range(0, len(looping), 4))))
    agent, messages = agent_for(fake_openai, http_client, project)
    events = [event async for event in agent.run(messages)]
    assert any(isinstance(e, ChatNotice) and "repeating itself" in e.message for e in events)
    done = events[-1]
    assert isinstance(done, Done) and done.reason == "answered" and done.text == "Hello, Bo! 1."


def test_a_command_that_ran_is_not_offered_again() -> None:
    guide = Guide(toolbox(SHIPPED))
    command = "python3 scripts/check_json.py assets/service-config.schema.json assets/config-invalid.json"
    turn = [Message("user", "Check assets/config-invalid.json against assets/service-config.schema.json."),
            Message("assistant", "", [ToolCall("1", "activate_skill", {"name": "json-schema-check"})]),
            Message("tool", "<skill_content ...>", tool_name="activate_skill", tool_call_id="1"),
            Message("assistant", "", [ToolCall("2", "run_skill_script",
                                               {"skill": "json-schema-check", "command": command})]),
            Message("tool", "exit code 1 after 0.05 s\nassets/config-invalid.json: 10 errors",
                    tool_name="run_skill_script", tool_call_id="2")]
    # Exit code 1 is the checker's verdict, and the only command that fits gave it: answer.
    step = guide.step(turn, None, FORCED_MAX_TOKENS)
    assert set(branches(step.schema)) == {"answer"} and not step.require_call


def test_a_lone_skill_the_message_names_gets_the_note_too(shelf: Path, tmp_path: Path) -> None:
    # As in `studio eval`, where the catalog holds the skill under test only.
    lone = tmp_path / "lone"
    write_skill(lone, "csv-stats", frontmatter("csv-stats", "Profiles a CSV file."))
    guide = Guide(toolbox(lone))
    prompt = [Message("user", "Profile orders.csv")]
    assert guide.request(prompt, None)[-1].content == "Profile orders.csv\n(Skills that fit: csv-stats)"
    assert guide.request([Message("user", "Hi")], None)[-1].content == "Hi"


def test_a_runs_output_is_shown_as_output_whatever_its_exit_code() -> None:
    guide = Guide(toolbox(SHIPPED))
    arguments = {"skill": "json-schema-check", "command": "python3 scripts/check_json.py a b"}
    shown = guide._result("run_skill_script", arguments, "exit code 1 after 0.1 s\nb: 10 errors\n")
    assert shown.startswith("Output of the command (exit code 1):\nb: 10 errors\n")
    # What the repair step may do: run it as its usage line says, read a file, or answer.
    assert "python3 scripts/check_json.py SCHEMA DOCUMENT [DOCUMENT ...]" in shown
    assert guide._result("run_skill_script", arguments, "exit code 2 after 0.1 s\n").startswith(
        "Result of run_skill_script:")


def ran(prompt: str, output: str, exit_code: int = 0, command: str = "x") -> list[Message]:
    """A turn of unit-convert that ran `command` and printed `output`."""
    return [Message("user", prompt),
            Message("assistant", "", [ToolCall("1", "activate_skill", {"name": "unit-convert"})]),
            Message("tool", "<skill_content ...>", tool_name="activate_skill", tool_call_id="1"),
            Message("assistant", "", [ToolCall("2", "run_skill_script",
                                               {"skill": "unit-convert", "command": command})]),
            Message("tool", f"exit code {exit_code} after 0.05 s\n{output}", tool_name="run_skill_script",
                    tool_call_id="2")]


def test_an_answer_after_a_scripts_output_quotes_the_lines_the_question_points_at_or_all_of_it() -> None:
    guide = Guide(toolbox(SHIPPED))
    output = "File: a.csv\nRows: 20\nColumns: 9\n\n## id (integer)\n  count 20\n"
    step = guide.step(ran("How many rows are there?", output), None, ANSWER_MAX_TOKENS)
    answer = branches(step.schema)["answer"]["properties"]["answer"]
    assert answer["enum"] == ["Rows: 20", output.strip()] and not step.require_call
    # A line echoing the command's argument says what was asked, not the answer.
    step = guide.step(ran("Profile the file a.csv: how many rows?", output, command="python3 p.py a.csv"),
                      None, ANSWER_MAX_TOKENS)
    assert branches(step.schema)["answer"]["properties"]["answer"]["enum"] == ["Rows: 20", output.strip()]
    # No line shares a word with the question: the whole output.
    step = guide.step(ran("Go on", output), None, ANSWER_MAX_TOKENS)
    assert branches(step.schema)["answer"]["properties"]["answer"]["enum"] == [output.strip()]
    # A long output is quoted up to a line, and the cap leaves room for it.
    long = "\n".join(f"line {i}: {'x' * 60}" for i in range(100))
    step = guide.step(ran("Go on", long), None, ANSWER_MAX_TOKENS)
    (quoted,) = branches(step.schema)["answer"]["properties"]["answer"]["enum"]
    assert long.startswith(quoted + "\n") and len(quoted) <= 1500
    assert step.max_tokens > ANSWER_MAX_TOKENS
    # Without output the answer is free.
    step = guide.step(ran("Go on", ""), None, ANSWER_MAX_TOKENS)
    assert branches(step.schema)["answer"]["properties"]["answer"] == {"type": "string"}
