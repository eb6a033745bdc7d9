"""`studio models list` and `studio models pull`, run as the user runs them (a subprocess), against
a scripted Hub on loopback. The subprocess timeout only guards against a hang."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.ggufwriter import write_gguf
from tests.fakes.hub import COMMIT, FakeHub, HubFile

REPO = "tester/Tiny-GGUF"
FILE = "tiny-q4_k_m.gguf"
DATA = b"GGUF" + bytes(range(256)) * 8000


@pytest.fixture
def hub() -> Iterator[FakeHub]:
    server = FakeHub({REPO: {FILE: HubFile(DATA)}})
    server.start()
    yield server
    server.stop()


def _env(home: Path, hub: FakeHub | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "OLLAMA_"))}
    env["HF_HUB_CACHE"] = str(home / "hub")
    if hub is not None:
        env["HF_ENDPOINT"] = hub.url
    return env


def _studio(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio", *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_pull_prints_progress_and_the_path(hub: FakeHub, scratch_home: Path) -> None:
    result = _studio("models", "pull", f"{REPO}:{FILE}", env=_env(scratch_home, hub))
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.strip())
    assert path == scratch_home / "hub" / f"models--tester--Tiny-GGUF/snapshots/{COMMIT}/{FILE}"
    assert path.read_bytes() == DATA
    assert f"Downloading {FILE} (2.0 MB) from {REPO}" in result.stderr
    assert "2.0 MB of 2.0 MB (100%) at" in result.stderr


def test_pull_of_a_missing_repo_and_offline(hub: FakeHub, scratch_home: Path) -> None:
    result = _studio("models", "pull", "tester/Nope", env=_env(scratch_home, hub))
    assert result.returncode == 1
    assert "tester/Nope is not a model on" in result.stderr and "Traceback" not in result.stderr
    env = _env(scratch_home, hub) | {"HF_HUB_OFFLINE": "1"}
    result = _studio("models", "pull", REPO, env=env)
    assert result.returncode == 1
    assert "HF_HUB_OFFLINE" in result.stderr and "Traceback" not in result.stderr


def test_pull_without_a_repo_lists_the_recommended_models(scratch_home: Path) -> None:
    result = _studio("models", "pull", env=_env(scratch_home))
    assert result.returncode == 0
    assert "Qwen/Qwen2.5-0.5B-Instruct-GGUF:qwen2.5-0.5b-instruct-q4_k_m.gguf" in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_keeps_a_partial_that_the_next_pull_resumes(hub: FakeHub, scratch_home: Path) -> None:
    hub.gate_after = 700_000
    env = _env(scratch_home, hub)
    process = subprocess.Popen(
        [sys.executable, "-m", "studio", "models", "pull", REPO],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert hub.at_gate.wait(60)
        partial = next((scratch_home / "hub").rglob("*.incomplete"))
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=60)
    finally:
        hub.gate.set()
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "kept" in err and "Traceback" not in err
    # How much of what the server sent had reached the file when the signal came is up to timing.
    kept = partial.stat().st_size
    assert kept <= 700_000
    hub.gate_after = None
    result = _studio("models", "pull", REPO, env=env)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()).read_bytes() == DATA
    assert hub.range_requests() == ([f"bytes={kept}-"] if kept else [])


def test_list_shows_the_facts_of_each_model(scratch_home: Path, tmp_path: Path) -> None:
    write_gguf(
        scratch_home / ".lmstudio/models/a/b/small.gguf",
        {
            "general.architecture": "qwen2",
            "general.file_type": 15,
            "qwen2.context_length": 32768,
            "tokenizer.chat_template": "{% if tools %}{% endif %}",
        },
    )
    write_gguf(tmp_path / "extra/other.gguf", {"general.architecture": "llama", "general.file_type": 7})
    settings = scratch_home / "studio-config" / "settings.yaml"
    settings.parent.mkdir(parents=True)
    settings.write_text(f"model_folders: [{tmp_path / 'extra'}]\n")
    env = _env(scratch_home) | {"PYTHONNOUSERSITE": "1"}
    result = _studio("models", "list", "--json", env=env)
    assert result.returncode == 0, result.stderr
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["a/b/small.gguf"] | {"path": "", "size": 0} == {
        "name": "a/b/small.gguf",
        "source": "lm-studio",
        "path": "",
        "size": 0,
        "quantization": "Q4_K_M",
        "context_length": 32768,
        "supports_tools": True,
        "problem": None,
    }
    assert rows["other.gguf"]["source"] == "folder"
    assert rows["other.gguf"]["quantization"] == "Q8_0"
    text = _studio("models", "list", env=env).stdout
    assert "a/b/small.gguf  [lm-studio]" in text and "Q4_K_M  32,768 tokens  tools" in text
