"""`studio chat` stopped by a signal while a tool runs: the command, and whatever it started in a
session of its own, ends with the chat; the chat says so and exits with 128 + the signal."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.agent.sandbox import detect
from tests.agent.processes import sleep_token, sleepers
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

SOURCE_ROOT = Path(__file__).resolve().parents[2]
SANDBOXED = detect().available
WAIT = 120.0  # seconds: a generous bound on a loaded machine, never a synchronisation


def wait_for(condition: object, what: str, chat: subprocess.Popen[str] | None = None) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():  # type: ignore[operator]
        if chat is not None and chat.poll() is not None:
            pytest.fail(f"studio chat ended before {what}: {chat.communicate()}")
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead: only its parent has not collected it yet.
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_a_signal_to_the_chat_ends_the_running_command(
    fake_ollama: FakeOllama, tmp_path: Path, signum: int, code: int
) -> None:
    workspace = tmp_path / "project"
    skill = write_skill(workspace / "skills", "demo", frontmatter("demo") + "Wait.\n", {})
    token = sleep_token()
    escape = (
        f"setsid sh -c 'echo > escaped; exec sleep 302.{token}' & "
        "while [ ! -e escaped ]; do sleep 0.01; done; "
    ) if SANDBOXED else ""
    command = f"{escape}echo > started; exec sleep 300.{token}"
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": command})), reply("done")
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    chat = subprocess.Popen(
        [sys.executable, "-m", "studio", "chat", "--url", fake_ollama.url, "--model", TOOL_MODEL,
         "--skills", str(workspace / "skills"), "--workspace", str(workspace), "--auto-approve",
         "--timeout", "600", "wait"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env,
    )  # fmt: skip
    try:
        wait_for(lambda: (skill / "started").exists(), "the command to start", chat)
        expected = 2 if SANDBOXED else 1
        wait_for(lambda: len(sleepers(token)) == expected, "its processes to show", chat)
        pids = sleepers(token)
        chat.send_signal(signum)
        _out, err = chat.communicate(timeout=WAIT)
    finally:
        if chat.poll() is None:
            chat.kill()
            chat.communicate()
    assert chat.returncode == code, err
    assert "Traceback" not in err
    assert "studio chat: stopped" in err
    wait_for(lambda: not any(alive(pid) for pid in pids), "the command's processes to end")


def test_a_signal_at_the_approval_prompt_ends_the_chat_at_once(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    workspace = tmp_path / "project"
    write_skill(workspace / "skills", "demo", frontmatter("demo") + "Run.\n",
                {"scripts/x.py": "print('x')\n"})
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/x.py"})),
        reply("done"),
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    # A terminal that never answers: the prompt waits on it in a thread of its own.
    leader, follower = pty.openpty()
    chat = subprocess.Popen(
        [sys.executable, "-m", "studio", "chat", "--url", fake_ollama.url, "--model", TOOL_MODEL,
         "--skills", str(workspace / "skills"), "--workspace", str(workspace), "run it"],
        stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    os.close(follower)
    try:
        assert chat.stderr is not None
        shown = ""
        while "Choose " not in shown:
            # The prompt ends without a newline, so read what comes, a character at a time.
            character = chat.stderr.read(1)
            if not character:
                pytest.fail(f"studio chat ended before asking: {shown}")
            shown += character
        chat.send_signal(signal.SIGTERM)
        _out, err = chat.communicate(timeout=WAIT)
    finally:
        os.close(leader)
        if chat.poll() is None:
            chat.kill()
            chat.communicate()
    assert chat.returncode == 143, err
    assert "Traceback" not in err
