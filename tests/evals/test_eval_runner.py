"""Trigger queries and outcome evals against the scripted Ollama server, whose choices are known
in advance: precision, recall and every verdict are exact; results are cached; a cancelled run
keeps what finished."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import httpx
import pytest

from studio.agent.approval import AutoApprover, DenyAllApprover
from studio.agent.session import SessionFactory, SessionSettings
from studio.evals.cache import ResultCache, skill_hash
from studio.evals.report import SkillReport
from studio.evals.runner import EvalError, EvalRunner
from studio.policy import AuditLog, Grants
from studio.skills.checks.evalfiles import TriggerQuery, parse_evals
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.summary import SkillSummary
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, error, hang, reply
from tests.skills.helpers import frontmatter, write_skill

QUERIES = (
    TriggerQuery("say hello to me", True),
    TriggerQuery("greet my friend", True),
    TriggerQuery("what is 2 + 2", False),
    TriggerQuery("tidy my notes", False),
)
EVALS = {"skill_name": "demo", "evals": [{
    "id": 1, "prompt": "Say hello", "expected_output": "a greeting from the script",
    "expectations": [
        {"activated": "demo"}, {"ran": "scripts/hello.py"}, {"exit_code": 0},
        {"contains": "hello from the skill"}, {"read": "references/guide.md"},
        "The answer greets the user",
    ],
}]}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    skills = tmp_path / "skills"
    write_skill(skills, "demo", frontmatter("demo", "Greets people. Use when asked for a greeting.")
                + "Run `python3 scripts/hello.py`.\n",
                {"scripts/hello.py": "print('hello from the skill')\n"})
    write_skill(skills, "other", frontmatter("other", "Tidies notes. Use when notes are messy."))
    return skills.resolve()


def catalog(root: Path) -> list[SkillSummary]:
    return sorted(scan_root(SkillRoot(root)).skills, key=lambda s: s.display_name)


def make_runner(fake: FakeOllama, http: httpx.AsyncClient, tmp_path: Path,
                cache: ResultCache | None = None, progress: object = None) -> EvalRunner:
    # Grading is under test, not the sandbox: where there is none, the scripts still run.
    factory = SessionFactory(AutoApprover(unsandboxed=True), http,
                             grants=Grants(tmp_path / "grants.yaml"),
                             audit=AuditLog(tmp_path / "audit.jsonl"), home=tmp_path / "home")
    settings = SessionSettings(url=fake.url, model=TOOL_MODEL)
    if progress is None:
        return EvalRunner(factory, settings, cache=cache)
    return EvalRunner(factory, settings, cache=cache, progress=progress)  # type: ignore[arg-type]


def report_for(skill: SkillSummary) -> SkillReport:
    return SkillReport(skill.display_name, skill_hash(skill.directory), "fake")


def script_triggers(fake: FakeOllama) -> None:
    fake.script(
        calls(Call("activate_skill", {"name": "demo"})),   # should, did
        reply("Hello, friend!"),                           # should, did not
        calls(Call("activate_skill", {"name": "demo"})),   # should not, did
        calls(Call("activate_skill", {"name": "other"})),  # should not, did not
    )


async def test_precision_recall_and_the_confusion_list_are_exact(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    script_triggers(fake_ollama)
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(skills[0], skills, QUERIES, 1, report)
    trigger = report.trigger
    assert trigger is not None
    assert (trigger.precision, trigger.recall) == (0.5, 0.5)
    assert [q.query for q in trigger.confusion] == ["greet my friend", "what is 2 + 2"]
    assert [q.called for q in trigger.queries] == ["activate_skill", "", "activate_skill", "activate_skill"]
    # One request per query: the turn stops at the first tool decision, nothing runs.
    assert len(fake_ollama.chats) == 4
    sent = fake_ollama.chats[0]["messages"][0]["content"]
    assert "demo" in sent and "other" in sent


async def test_an_outcome_eval_grades_each_expectation_from_the_trace_and_the_grader(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("activate_skill", {"name": "demo"})),
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("The skill says: hello from the skill"),
        reply("PASS\nIt greets the user."),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    cases = parse_evals(EVALS).evals
    await make_runner(fake_ollama, http_client, tmp_path).outcomes(
        skills[0], [skills[0]], cases, 1, report, report.evals, "with")
    [result] = report.evals
    assert [(v.passed, v.how) for v in result.expectations] == [
        (True, "trace"), (True, "trace"), (True, "trace"), (True, "trace"), (False, "trace"),
        (True, "model")]
    assert result.expectations[-1].reason == "It greets the user."
    assert (result.rounds, result.outcome, result.passed) == (3, "answered", False)
    grader_request = fake_ollama.chats[-1]
    assert "The answer greets the user" in grader_request["messages"][-1]["content"]
    assert not grader_request.get("tools")


async def test_an_eval_written_with_assertions_is_graded_on_them_and_fails_on_a_failed_one(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    # The agentskills.io guide (docs/skill-creation/evaluating-skills.mdx) names the list
    # `assertions`; an answer that fails one must fail the eval, not pass because it answered.
    fake_ollama.script(reply("Good morning."), reply("FAIL\nIt never says hello."))
    skills = catalog(root)
    report = report_for(skills[0])
    cases = parse_evals({"evals": [{"id": 1, "prompt": "Say hello", "assertions": [
        {"contains": "hello"}, "The answer says hello"]}]}).evals
    await make_runner(fake_ollama, http_client, tmp_path).outcomes(
        skills[0], [skills[0]], cases, 1, report, report.evals, "with")
    [result] = report.evals
    assert [(v.passed, v.how) for v in result.expectations] == [(False, "trace"), (False, "model")]
    assert (result.outcome, result.passed) == ("answered", False)


async def test_without_the_skill_the_catalog_is_empty(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(reply("Hi."), reply("FAIL\nNo script ran."))
    skills = catalog(root)
    report = report_for(skills[0])
    report.without_skill = []
    await make_runner(fake_ollama, http_client, tmp_path).outcomes(
        skills[0], [], parse_evals(EVALS).evals, 1, report, report.without_skill, "without")
    [result] = report.without_skill
    assert [v.passed for v in result.expectations] == [False] * 6
    assert "demo" not in fake_ollama.chats[0]["messages"][0]["content"]


async def test_an_unchanged_eval_is_not_run_again_and_a_changed_skill_is(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    cache = ResultCache(tmp_path / "cache")
    skills = catalog(root)
    script_triggers(fake_ollama)
    first = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path, cache).triggers(
        skills[0], skills, QUERIES, 1, first)
    second = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path, cache).triggers(
        skills[0], skills, QUERIES, 1, second)
    assert len(fake_ollama.chats) == 4 and second.cached == 4
    assert second.to_json()["trigger"] == first.to_json()["trigger"]
    (root / "demo" / "scripts" / "hello.py").write_text("print('changed')\n")
    script_triggers(fake_ollama)
    third = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path, cache).triggers(
        skills[0], skills, QUERIES, 1, third)
    assert len(fake_ollama.chats) == 8 and third.cached == 0


async def test_cancelling_keeps_the_finished_results_and_their_cache(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})), hang())
    cache = ResultCache(tmp_path / "cache")
    skills = catalog(root)
    report = report_for(skills[0])
    second_started = asyncio.Event()

    def progress(message: str) -> None:
        if " 2/4:" in message:
            second_started.set()

    runner = make_runner(fake_ollama, http_client, tmp_path, cache, progress)
    task = asyncio.ensure_future(runner.triggers(skills[0], skills, QUERIES, 1, report))
    await second_started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert report.trigger is not None
    assert [q.triggered for q in report.trigger.queries] == [True]
    assert len(list(cache.folder.glob("*.json"))) == 1
    assert json.loads(next(cache.folder.glob("*.json")).read_text())["query"] == "say hello to me"


async def test_a_failed_server_ends_the_run_and_its_eval_is_not_cached(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(error(500, {"error": "model crashed"}))
    cache = ResultCache(tmp_path / "cache")
    skills = catalog(root)
    report = report_for(skills[0])
    with pytest.raises(EvalError, match="model crashed"):
        await make_runner(fake_ollama, http_client, tmp_path, cache).outcomes(
            skills[0], [skills[0]], parse_evals(EVALS).evals, 1, report, report.evals, "with")
    assert report.evals == []
    assert not list(cache.folder.glob("*.json"))


async def test_denied_commands_do_not_count_as_run(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("It was not allowed."),
    )
    factory = SessionFactory(DenyAllApprover(), http_client, grants=Grants(tmp_path / "g.yaml"),
                             audit=AuditLog(tmp_path / "a.jsonl"), home=tmp_path / "home")
    runner = EvalRunner(factory, SessionSettings(url=fake_ollama.url, model=TOOL_MODEL))
    skills = catalog(root)
    report = report_for(skills[0])
    case = parse_evals({"evals": [{"prompt": "hello", "expectations": [
        {"ran": "scripts/hello.py"}, {"exit_code": 0}]}]}).evals
    await runner.outcomes(skills[0], [skills[0]], case, 1, report, report.evals, "with")
    assert [v.passed for v in report.evals[0].expectations] == [False, False]


async def test_an_eval_runs_in_a_copy_of_the_skill_with_its_files_beside_it(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    (root / "demo" / "evals" / "files").mkdir(parents=True)
    (root / "demo" / "evals" / "files" / "input.txt").write_text("the input\n")
    os.mkfifo(root / "demo" / "pipe")
    command = "python3 -c \"open('input.txt').read(); open('scripts/hello.py', 'w').write('')\""
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": command})),
                       reply("done"))
    skills = catalog(root)
    report = report_for(skills[0])
    case = parse_evals({"evals": [{"prompt": "p", "files": ["evals/files/input.txt"],
                                   "expectations": [{"exit_code": 0}]}]}).evals
    await make_runner(fake_ollama, http_client, tmp_path).outcomes(
        skills[0], [skills[0]], case, 1, report, report.evals, "with")
    assert report.evals[0].expectations[0].passed, report.evals[0].trace
    assert (root / "demo" / "scripts" / "hello.py").read_text() == "print('hello from the skill')\n"


async def test_evals_keep_a_skill_the_model_may_not_load_out_of_its_catalog(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tmp_path: Path
) -> None:
    skills_dir = tmp_path / "only-user"
    write_skill(skills_dir, "deploy", frontmatter(
        "deploy", "Deploys the app. Use when asked to deploy.",
        extra="disable-model-invocation: true\n"))
    write_skill(skills_dir, "other", frontmatter("other", "Tidies notes. Use when notes are messy."))
    skills = catalog(skills_dir.resolve())
    fake_ollama.script(reply("No skill needed."))
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(
        skills[0], skills, (TriggerQuery("deploy the app", True),), 1, report)
    sent = fake_ollama.chats[0]
    assert "other" in sent["messages"][0]["content"]
    assert "deploy" not in sent["messages"][0]["content"].split("<available_skills>")[-1]
    [tool] = [t for t in sent["tools"] if t["function"]["name"] == "activate_skill"]
    assert tool["function"]["parameters"]["properties"]["name"]["enum"] == ["other"]
