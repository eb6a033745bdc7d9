"""The embedded engine's command line: a model file whose name looks like an option stays the
model file (`--model=PATH`, absolute), as the engine's own parser reads it back."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.llm.embedded import EmbeddedEngine
from studio.llm.embedded_server import _parser


@pytest.mark.parametrize("name", ["--help.gguf", "-oProxyCommand=touch MARKER.gguf", "--port=1"])
def test_a_model_named_like_an_option_reaches_the_engine_as_its_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    engine = EmbeddedEngine(Path(name), ctx_size=512, threads=2, host="127.0.0.1")
    command = engine._command(8080)
    assert command[1:3] == ["-m", "studio.llm.embedded_server"]
    args = _parser().parse_args(command[3:])
    assert args.model == tmp_path / name
    assert (args.port, args.ctx_size, args.threads, args.host) == (8080, 512, 2, "127.0.0.1")
