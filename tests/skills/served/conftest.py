"""One HTTP server of the Skills extension for a module's tests (starting one costs seconds on a
loaded machine): it reads its folder again at every request, and each test starts from the same
three skills. `studio chat` runs against the scripted Ollama server in tests/fakes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.fixtures import fake_ollama
from tests.skills.served.servers import fill, http_server

__all__ = ["fake_ollama", "http_served"]


@pytest.fixture(scope="module")
def _http_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("served") / "skills"
    fill(folder)
    with http_server(folder, tmp_path_factory.mktemp("server-home"), "--reload") as spec:
        yield folder, spec


@pytest.fixture
def http_served(_http_served: tuple[Path, str]) -> tuple[Path, str]:
    """The served folder, back to its three skills, and the server's `mcp+http://` address."""
    folder, spec = _http_served
    fill(folder)
    return folder, spec
