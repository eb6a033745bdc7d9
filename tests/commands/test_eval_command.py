"""`studio eval` as a user runs it, against the scripted Ollama server: the JSON report, the
cache, Ctrl+C with partial results, and eval files that are wrong."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from studio.commands.eval import render
from studio.evals import EvalResult, SkillReport, Verdict
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, hang, reply
from tests.skills.helpers import frontmatter, write_skill

SOURCE_ROOT = Path(__file__).resolve().parents[2]


def skill_with_evals(tmp_path: Path, evals: object, triggers: object) -> Path:
    skills = tmp_path / "skills"
    demo = write_skill(skills, "demo", frontmatter("demo", "Greets people. Use when asked to greet."))
    write_skill(skills, "other", frontmatter("other", "Tidies notes. Use when notes are messy."))
    (demo / "evals").mkdir()
    (demo / "evals" / "evals.json").write_text(json.dumps(evals))
    (demo / "evals" / "triggers.json").write_text(json.dumps(triggers))
    return demo


TRIGGERS = [{"query": "greet me", "should_trigger": True},
            {"query": "tidy my notes", "should_trigger": False}]
EVALS = {"skill_name": "demo", "evals": [{"id": 7, "prompt": "Greet me",
                                          "expectations": [{"contains": "Hello"}]}]}


def studio(*argv: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-m", "studio", "eval", *argv], env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=240)
    return process.returncode, out, err


def test_the_json_report_has_the_figures_and_a_second_run_asks_the_model_nothing(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    demo = skill_with_evals(tmp_path, EVALS, TRIGGERS)
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})),
                       calls(Call("activate_skill", {"name": "demo"})),
                       reply("Hello there!"))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL, "--json"))
    assert code == 0, err
    report: dict[str, Any] = json.loads(out)
    assert (report["trigger"]["precision"], report["trigger"]["recall"]) == (0.5, 1.0)
    assert report["trigger"]["runs"] == 1 and len(report["trigger"]["queries"]) == 2
    [result] = report["evals"]
    assert (result["id"], result["passed"], result["rounds"]) == ("7", True, 1)
    assert result["expectations"][0]["how"] == "trace"
    assert report["model"].startswith("ollama:" + TOOL_MODEL) and len(report["skill_hash"]) == 16
    assert "trigger 1/2" in err
    requests = len(fake_ollama.chats)
    code, out, _ = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL, "--json"))
    assert code == 0 and len(fake_ollama.chats) == requests
    assert json.loads(out)["cached"] == 3
    code, out, _ = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL))
    assert "precision 50%, recall 100%" in out and "7 run 1: pass" in out


def test_ctrl_c_prints_what_finished(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    demo = skill_with_evals(tmp_path, EVALS, TRIGGERS)
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})), hang())
    process = studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL, "--json")
    assert process.stderr is not None
    for line in process.stderr:
        if "trigger 2/2" in line:
            break
    process.send_signal(signal.SIGINT)
    code, out, err = finish(process)
    assert code == 130 and "Traceback" not in err
    report = json.loads(out)
    assert report["cancelled"] is True
    assert [q["triggered"] for q in report["trigger"]["queries"]] == [True]


def test_a_broken_eval_file_says_where_and_runs_nothing(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    demo = skill_with_evals(tmp_path, {"evals": [{"id": 1, "prompt": 3}]}, TRIGGERS)
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL))
    assert code == 1 and "Traceback" not in err
    assert "evals/evals.json at evals[0].prompt: must be a string, not a number" in out
    assert fake_ollama.chats == []


def test_the_report_shows_the_runs_with_and_without_the_skill_side_by_side() -> None:
    verdict = Verdict("contains: Hello", False, "trace", "the answer does not contain 'Hello'")
    report = SkillReport("demo", "abc", "ollama:m", evals=[EvalResult("7", 1, (), 2, 1.5, "answered")],
                         without_skill=[EvalResult("7", 1, (verdict,), 1, 0.5, "answered")])
    out = io.StringIO()
    render(report, out)
    text = out.getvalue()
    assert "evals: 100% passed (without the skill: 0%)" in text
    assert "7 run 1: pass, 2 rounds, 1.5 s | without: FAIL, 0.5 s" in text


def test_several_runs_give_aggregate_figures_in_text_and_json(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    demo = skill_with_evals(tmp_path, EVALS, TRIGGERS)
    activate = calls(Call("activate_skill", {"name": "demo"}))
    # Triggers query by query, run by run; then eval 7 run by run (passes, then fails).
    fake_ollama.script(activate, reply("no"), reply("no"), activate, reply("Hello!"), reply("Bye."))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                   "--runs", "2", "--json"))
    assert code == 0, err
    report = json.loads(out)
    assert report["trigger"]["per_run"] == [{"run": 1, "precision": 1.0, "recall": 1.0},
                                            {"run": 2, "precision": 0.0, "recall": 0.0}]
    assert report["trigger"]["recall_over_runs"]["mean"] == 0.5
    assert report["pass_counts"] == [{"id": "7", "passed": 1, "runs": 2}]
    code, out, _ = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                 "--runs", "2"))
    assert "over 2 runs: precision 50% ± 50% (from 0% to 100%); recall 50% ± 50%" in out
    assert "7: passed 1/2 runs" in out
