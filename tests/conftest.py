"""Shared test set-up: Qt offscreen, and a scratch home so no test touches the real one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

# Health checks that time example generation or measure example size fail on a loaded machine, not on a
# bug; no deadline for the same reason. CI also derandomizes, so a red run means the code changed, not luck.
_SPEED_DEPENDENT = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
settings.register_profile("dev", deadline=None, suppress_health_check=_SPEED_DEPENDENT)
settings.register_profile(
    "ci", deadline=None, derandomize=True, database=None, print_blob=True,
    suppress_health_check=_SPEED_DEPENDENT,
)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")


@pytest.fixture(autouse=True)
def scratch_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point HOME, the XDG folders and the app's own folders at a fresh temp dir for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("STUDIO_CONFIG_DIR", "studio-config"),
        ("STUDIO_DATA_DIR", "studio-data"),
        ("STUDIO_CACHE_DIR", "studio-cache"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    # The user's own skill folders stay out of the tests, and so does their session's runtime
    # folder (sockets and tokens go to the scratch data folder instead).
    monkeypatch.delenv("STUDIO_SKILLS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("STUDIO_RUNTIME_DIR", raising=False)
    yield home
