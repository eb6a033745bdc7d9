"""Starting and stopping the embedded engine when things go wrong, without a real model."""

from __future__ import annotations

import importlib.util
import stat
from pathlib import Path

import pytest

from studio.llm.embedded import EmbeddedEngine
from studio.llm.errors import EngineError
from tests.fakes.ggufwriter import write_gguf


async def test_a_missing_model_file(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="does not exist"):
        await EmbeddedEngine(tmp_path / "absent.gguf").start()


async def test_a_file_that_is_not_gguf(tmp_path: Path) -> None:
    path = tmp_path / "model.bin"
    path.write_bytes(b"\x00" * 64)
    with pytest.raises(EngineError, match="not a GGUF model file"):
        await EmbeddedEngine(path).start()


async def test_an_engine_that_never_gets_ready_is_stopped(tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "m.gguf", {"general.name": "m"})
    slow = tmp_path / "slow-python"
    slow.write_text("#!/bin/sh\necho 'loading the model, slowly' >&2\nexec sleep 60\n")
    slow.chmod(slow.stat().st_mode | stat.S_IXUSR)
    # Long enough for the fake to say what it is doing on a loaded machine, which the message quotes.
    engine = EmbeddedEngine(model, startup_timeout=3.0, python=str(slow))
    with pytest.raises(EngineError) as info:
        await engine.start()
    assert "was not ready after 3 s" in info.value.user_message
    assert "loading the model, slowly" in info.value.user_message
    assert not engine.running


@pytest.mark.skipif(importlib.util.find_spec("xllamacpp") is None, reason="xllamacpp is not installed")
async def test_a_model_llama_cpp_cannot_load_reports_its_log(tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "empty.gguf", {"general.name": "no tensors at all"})
    engine = EmbeddedEngine(model, startup_timeout=60)
    with pytest.raises(EngineError) as info:
        await engine.start()
    message = info.value.user_message
    assert "empty.gguf stopped with exit code" in message
    assert "llama.cpp could not start" in message
    assert not engine.running
