"""One HTTP server of the Skills extension for a module's tests (starting one costs seconds on a
loaded machine): it reads its folder again at every request, and each test starts from the same
three skills."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.skills.served.servers import fill, http_server


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
