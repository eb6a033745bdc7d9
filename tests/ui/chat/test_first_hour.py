"""The first hour of a new user (tests/ui/chat/first_hour_scenario.py) on a real X server: Xvfb
at 1280x720 and Qt's xcb platform, in a pytest of its own (the suite's own Qt runs offscreen and
a process has one platform). CI installs Xvfb (`.ci/run`) and must run it; elsewhere, without
Xvfb, it is skipped and says why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SCENARIO = Path(__file__).with_name("first_hour_scenario.py")
ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.engine


@pytest.fixture
def x_display() -> Iterator[str]:
    """A fresh Xvfb at 1280x720 on a display number the server picks itself (`-displayfd`)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("Xvfb is missing: .ci/run installs it (the xvfb package)")
        pytest.skip("Xvfb is not installed (apt install xvfb): the first-hour path needs a screen")
    read, write = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1280x720x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        assert number.isdigit(), "Xvfb did not say which display it took"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_new_users_first_hour_on_a_real_screen(x_display: str, tmp_path: Path) -> None:
    times = tmp_path / "times.json"
    env = dict(os.environ, DISPLAY=x_display, QT_QPA_PLATFORM="xcb", FIRST_HOUR_TIMES=str(times))
    env.pop("WAYLAND_DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "--basetemp", str(tmp_path / "run"), str(SCENARIO)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1500, check=False)
    report = result.stdout[-6000:] + result.stderr[-3000:]
    assert result.returncode == 0, report
    assert "1 passed" in result.stdout, report
    steps = json.loads(times.read_text(encoding="utf-8"))
    print("first hour, seconds from the window's start:", steps)  # shown with -s or -rP
    assert list(steps) == ["window open, first-run choices shown", "model file opened",
                           "skill open and tried", "approval asked", "answered"]
