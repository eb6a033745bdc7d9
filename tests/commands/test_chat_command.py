"""`studio chat` against the scripted Ollama server: what it prints where, how tool runs that need
approval go with and without a terminal or a flag, and how bad input and a missing server end."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.llm.embedded import free_port
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

SOURCE_ROOT = Path(__file__).resolve().parents[2]
# Asks: the policy cannot tell what a script does. It leaves a file behind when it runs.
ASKS = "python3 scripts/mark.py"
MARK_SCRIPT = "from pathlib import Path\nPath('ran.txt').write_text('yes')\nprint('marked')\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_skill(
        root / "skills", "demo", frontmatter("demo") + f"Run `{ASKS}`.\n",
        {"scripts/mark.py": MARK_SCRIPT},
    )  # fmt: skip
    # No terminal: what a pipe, a CI job or an editor's task runner gives.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return root


def _marker(workspace: Path) -> Path:
    return workspace / "skills" / "demo" / "ran.txt"


def studio_chat(server: FakeOllama, workspace: Path, *args: str) -> int:
    return main([
        "chat", "--backend", "ollama", "--url", server.url, "--model", TOOL_MODEL,
        "--skills", str(workspace / "skills"), "--workspace", str(workspace), *args,
    ])  # fmt: skip


def _run_then_answer(server: FakeOllama, command: str, *answer: str) -> None:
    server.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": command})), reply(*answer)
    )


def _tool_result_sent(server: FakeOllama) -> str:
    """What the model was told about its call, in the request after it."""
    message = server.chats[1]["messages"][-1]
    assert message["role"] == "tool"
    content: str = message["content"]
    return content


def test_text_mode_prints_the_answer_on_stdout_and_tool_lines_on_stderr(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run_then_answer(fake_ollama, "echo hello", "It ", "said hello.")
    code = studio_chat(fake_ollama, workspace, "say hello")
    out, err = capsys.readouterr()
    assert code == 0
    assert out == "It said hello.\n"
    assert "-> run_skill_script: echo hello\n" in err
    assert re.search(r"^   exit 0 in \d+\.\d\d s$", err, re.MULTILINE), err
    assert "It said" not in err


def test_json_mode_prints_one_event_per_line(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run_then_answer(fake_ollama, "echo hello", "It ", "said hello.")
    code = studio_chat(fake_ollama, workspace, "--json", "say hello")
    out, err = capsys.readouterr()
    assert code == 0
    assert err == ""
    events = [json.loads(line) for line in out.splitlines()]
    kinds = [event["kind"] for event in events]
    assert kinds[:3] == ["tool_call", "approval", "tool_started"]
    assert kinds[-3:] == ["text", "text", "done"]
    assert "tool_finished" in kinds
    assert events[0]["arguments"] == {"skill": "demo", "command": "echo hello"}
    assert (events[1]["by"], events[1]["choice"]) == ("policy", "allow")
    (finished,) = [event for event in events if event["kind"] == "tool_finished"]
    assert (finished["status"], finished["exit_code"]) == ("ok", 0)
    assert events[-1]["reason"] == "answered"
    assert events[-1]["text"] == "It said hello."


def test_without_a_terminal_or_a_flag_a_command_that_asks_is_denied(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run_then_answer(fake_ollama, ASKS, "It was not allowed.")
    code = studio_chat(fake_ollama, workspace, "mark it")
    out, err = capsys.readouterr()
    assert code == 0
    assert "denied by nobody: no one was there to approve it" in err
    assert "--auto-approve" in err
    assert "no one was there to approve" in _tool_result_sent(fake_ollama)
    assert not _marker(workspace).exists()
    assert out == "It was not allowed.\n"


def test_auto_approve_runs_a_command_that_asks(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run_then_answer(fake_ollama, ASKS, "Marked.")
    code = studio_chat(fake_ollama, workspace, "--auto-approve", "mark it")
    out, err = capsys.readouterr()
    assert code == 0
    assert "approved once by auto-approve" in err
    assert re.search(r"^   exit 0 in ", err, re.MULTILINE), err
    assert _marker(workspace).read_text() == "yes"
    assert "marked" in _tool_result_sent(fake_ollama)
    assert out == "Marked.\n"


def test_deny_all_denies_a_command_that_asks(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run_then_answer(fake_ollama, ASKS, "Denied.")
    code = studio_chat(fake_ollama, workspace, "--deny-all", "mark it")
    _, err = capsys.readouterr()
    assert code == 0
    assert "denied by deny-all" in err
    assert "denied by deny-all" in _tool_result_sent(fake_ollama)
    assert not _marker(workspace).exists()


def test_blocked_stays_blocked_with_auto_approve(
    fake_ollama: FakeOllama, workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    (outside / "keep").mkdir(parents=True)
    # Since issue 25 a recursive delete of a scratch folder outside only asks; reaching it through
    # a link in the workspace is still blocked.
    (workspace / "escape").symlink_to(outside)
    _run_then_answer(fake_ollama, f"rm -rf {workspace}/escape/", "I cannot do that.")
    code = studio_chat(fake_ollama, workspace, "--auto-approve", "--json", "clean up")
    out, _ = capsys.readouterr()
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    kinds = [event["kind"] for event in events]
    assert "approval" not in kinds and "tool_started" not in kinds
    (finished,) = [event for event in events if event["kind"] == "tool_finished"]
    assert finished["status"] == "blocked"
    assert finished["exit_code"] is None
    assert _tool_result_sent(fake_ollama).startswith("blocked: ")
    assert (outside / "keep").is_dir()


def _chat_with_history(history: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    # A closed port: a history that loaded would end at the connection instead.
    url = f"http://127.0.0.1:{free_port()}"
    return subprocess.run(
        [sys.executable, "-m", "studio", "chat", "--url", url, "--history", str(history), "hi"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "No such file"),
        ("[{not json", "Expecting property name"),
        ('{"role": "user"}', "must hold a JSON list of messages"),
        ('[{"role": "user", "content": "hi"}, {"role": "robot"}]', "message 2 needs a role"),
    ],
)
def test_a_bad_history_file_stops_with_a_message_saying_what_is_wrong(
    tmp_path: Path, content: str | None, problem: str
) -> None:
    history = tmp_path / "history.json"
    if content is not None:
        history.write_text(content, encoding="utf-8")
    result = _chat_with_history(history)
    assert result.returncode != 0
    assert result.stdout == ""
    assert f"studio chat: cannot use the history {history}: " in result.stderr
    assert problem in result.stderr
    assert "Traceback" not in result.stderr
    assert "No model server" not in result.stderr


def test_a_bad_history_file_exits_with_the_usage_code(tmp_path: Path) -> None:
    history = tmp_path / "history.json"
    history.write_text("[{not json", encoding="utf-8")
    assert _chat_with_history(history).returncode == 2


@pytest.mark.parametrize("backend", ["ollama", "openai"])
def test_a_server_that_is_not_running_is_named_and_the_exit_code_is_1(
    workspace: Path, capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    code = main([
        "chat", "--backend", backend, "--url", url, "--skills", str(workspace / "skills"),
        "--workspace", str(workspace), "hi",
    ])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 1
    assert out == ""
    assert re.search(rf"studio: error: No model server is answering at {url}\b", err), err
    assert "Traceback" not in err


def test_a_pinned_skill_stays_in_a_small_models_catalog_and_an_unknown_pin_is_named(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(30):
        write_skill(workspace / "skills", f"filler-{number}", frontmatter(
            f"filler-{number}", f"Formats invoices number {number} as tables. Use for invoices."))
    fake_ollama.context_lengths = {TOOL_MODEL: 2048}
    fake_ollama.script(reply("one"), reply("two"))
    assert studio_chat(fake_ollama, workspace, "hello") == 0
    assert studio_chat(fake_ollama, workspace, "--pin", "filler-29", "--pin", "nosuch", "hello") == 0
    unpinned, pinned = (chat["messages"][0]["content"] for chat in fake_ollama.chats)
    assert "<name>filler-29</name>" not in unpinned and "<name>filler-29</name>" in pinned
    err = capsys.readouterr().err
    assert "--pin nosuch: there is no skill of that name" in err and "--pin filler-29" not in err
    assert "did not fit this model's context" in err


def test_an_agentfile_gives_the_model_system_text_parameters_and_only_its_skills(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(workspace / "mine", "mine", frontmatter("mine"))
    agentfile = workspace / "helper.agentfile"
    agentfile.write_text(
        f"FROM {TOOL_MODEL}\nSKILL ./mine\nSYSTEM You are the helper.\n"
        "PARAMETER temperature 0.3\nADAPTER x.gguf\n"
    )
    fake_ollama.script(reply("ok"))
    code = main(["chat", "--url", fake_ollama.url, "--workspace", str(workspace),
                 "--agentfile", str(agentfile), "hi"])
    assert code == 0
    [request] = fake_ollama.chats
    assert request["model"] == TOOL_MODEL and request["options"]["temperature"] == 0.3
    system = request["messages"][0]["content"]
    assert system.startswith("You are the helper.")
    assert "<name>mine</name>" in system and "<name>demo</name>" not in system
    assert "line 5: ADAPTER is not a directive the studio uses" in capsys.readouterr().err


def test_a_bad_agentfile_stops_the_chat_naming_the_line(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agentfile = workspace / "Agentfile"
    agentfile.write_text("FROM m\nPARAMETER temperature\n")
    with pytest.raises(SystemExit) as stopped:
        studio_chat(fake_ollama, workspace, "--agentfile", str(agentfile), "hi")
    assert stopped.value.code == 2
    assert "line 2: PARAMETER needs a name and a value" in capsys.readouterr().err
    assert fake_ollama.chats == []


def test_a_forks_events_are_indented_on_stderr_and_stdout_keeps_the_answer(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(workspace / "skills", "forker", frontmatter("forker", extra="context: fork\n"))
    fake_ollama.script(calls(Call("activate_skill", {"name": "forker", "task": "t"})),
                       reply("FORK-ANSWER"), reply("final"))
    assert studio_chat(fake_ollama, workspace, "hi") == 0
    out, err = capsys.readouterr()
    assert out == "final\n"
    assert "   | FORK-ANSWER" in err and "   | (fork answered)" in err
    assert f"   fork: skill forker runs in a fork (fork) on {TOOL_MODEL}\n" in err


def test_a_fork_of_a_fork_is_indented_twice(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(workspace / "skills", "forker", frontmatter("forker", extra="context: fork\n"))
    fake_ollama.script(calls(Call("activate_skill", {"name": "forker"}, id="a")),
                       calls(Call("activate_skill", {"name": "forker"}, id="b")),
                       reply("INNER"), reply("OUTER"), reply("final"))
    assert studio_chat(fake_ollama, workspace, "hi") == 0
    err = capsys.readouterr().err
    assert "   | fork: skill forker runs in a fork (fork) on" in err
    assert "   |    | INNER" in err and "   |    | (fork answered)" in err


def test_slash_name_invokes_a_skill_from_the_command_line(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(workspace / "skills", "greet",
                frontmatter("greet", extra="disable-model-invocation: true\n")
                + "Greet $0 warmly.\n")
    fake_ollama.script(reply("Hello, Ada!"))
    code = studio_chat(fake_ollama, workspace, "/greet", "Ada")
    out, err = capsys.readouterr()
    assert (code, out) == (0, "Hello, Ada!\n")
    assert "Loaded the skill greet as you asked (Ada)." in err
    sent = fake_ollama.chats[0]["messages"]
    assert "Greet Ada warmly." in sent[-1]["content"]
    assert "greet" not in sent[0]["content"].split("<available_skills>")[-1]
