"""Starting and stopping the embedded engine when things go wrong, without a real model."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from studio.llm.embedded import EmbeddedEngine
from studio.llm.embedded_server import engine_problem
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


async def test_a_model_llama_cpp_cannot_load_reports_its_log(tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "empty.gguf", {"general.name": "no tensors at all"})
    engine = EmbeddedEngine(model, startup_timeout=60)
    with pytest.raises(EngineError) as info:
        await engine.start()
    message = info.value.user_message
    assert "empty.gguf stopped with exit code" in message
    assert "llama.cpp could not start" in message
    assert not engine.running


def _python_without_xllamacpp(folder: Path) -> Path:
    """A stand-in for the Python the engine runs on, in which xllamacpp cannot be imported."""
    script = folder / "python-without-engine"
    script.write_text(
        "#!/bin/sh\nshift 2\n"  # drops `-m studio.llm.embedded_server`
        f'exec "{sys.executable}" -c "import runpy, sys; sys.modules[\'xllamacpp\'] = None; '
        "sys.argv[0] = 'embedded_server'; "
        "runpy.run_module('studio.llm.embedded_server', run_name='__main__')\" \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


async def test_a_missing_engine_package_is_named_and_the_model_is_not_blamed(tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "m.gguf", {"general.name": "m"})
    engine = EmbeddedEngine(model, startup_timeout=60, python=str(_python_without_xllamacpp(tmp_path)))
    with pytest.raises(EngineError) as info:
        await engine.start()
    message = info.value.user_message
    assert "package xllamacpp) is not installed" in message and "-m pip install xllamacpp" in message
    assert "GGUF" not in message and "memory" not in message and "exit code" not in message
    assert not engine.running


def test_the_engine_check_names_a_missing_package_and_passes_an_installed_one(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    assert engine_problem() is None, "xllamacpp is a dependency of the studio"
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    problem = engine_problem()
    assert problem is not None and "is not installed" in problem and sys.executable in problem
