"""Retake the window's screenshots in the manual and the README (docs/screenshot-NAME.png).

    python docs/shots/take.py              # every shot
    python docs/shots/take.py --only chat  # one (repeatable)
    python docs/shots/take.py --list       # the names

Every shot gets a fresh process on a fresh X server (Xvfb, started with `-displayfd` on a free
display and ended by its PID) at the shot's size, Qt's xcb platform, a scratch HOME and a fresh
settings file (the default layout), and a copy of the example skills in skills/. Its state is set
up through the window's own objects (scenes.py), never through pixel positions, so a change to
the layout moves nothing here; the models that answer are the tests' scripted fake Ollama
(tests/fakes), so every run shows the same conversation. Needs Xvfb and a checkout with tests/.

Why a real X server, not the offscreen platform's `QWidget.grab()`: a dialog (the approval) is a
window of its own, drawn over the main window only by a display server; grabbing the screen
shows what a user sees, dialogs, popups and all. The fonts are the same on both (fontconfig's:
DejaVu Sans 9 pt and Noto Sans Mono at 96 dpi where this was written).

Not shipped: docs/ is the wheel's studio.manual, which takes docs/*.md and docs/*.png only and
excludes shots/ (pyproject.toml).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from shotlist import SHOTS  # noqa: E402

CHECKOUT = HERE.parents[1]
DOCS = CHECKOUT / "docs"
CHILD_TIMEOUT = 300


def _x_server(size: tuple[int, int]) -> tuple[subprocess.Popen[bytes], str]:
    """A fresh Xvfb whose one screen is `size`; (its process, its display)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise SystemExit("Xvfb is not installed (apt install xvfb): the shots need an X server")
    read, write = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0",
                               f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number.isdigit():
        server.terminate()
        server.wait(timeout=30)
        raise SystemExit("Xvfb did not say which display it took")
    return server, f":{number}"


def _scratch_env(home: Path, display: str) -> dict[str, str]:
    """The child's environment: this display, xcb, and every folder the studio reads or writes
    under a scratch home, so the user's own settings, skills and models stay out of the shot."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("STUDIO_SKILLS", "XDG_RUNTIME_DIR", "STUDIO_RUNTIME_DIR",
                           "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "QT_SCALE_FACTOR")}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", HOME=str(home), LANG="C.UTF-8",
               TZ="UTC", QT_LOGGING_RULES="qt.qpa.*=false",
               PYTHONPATH=os.pathsep.join([str(CHECKOUT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    for variable, folder in (("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                             ("XDG_CACHE_HOME", ".cache"), ("STUDIO_CONFIG_DIR", "studio-config"),
                             ("STUDIO_DATA_DIR", "studio-data"),
                             ("STUDIO_CACHE_DIR", "studio-cache")):
        env[variable] = str(home / folder)
    return env


def take(name: str) -> Path:
    """Take one shot in a process of its own; the PNG written."""
    size = SHOTS[name].size
    target = DOCS / f"screenshot-{name}.png"
    # A fixed folder, not a random one: its paths show in the shots (the status bar, the cards).
    scratch = Path(tempfile.gettempdir()) / "studio-shots" / name
    shutil.rmtree(scratch, ignore_errors=True)
    home = scratch / "home"
    home.mkdir(parents=True)
    server, display = _x_server(size)
    try:
        result = subprocess.run(
            [sys.executable, str(HERE / "scene_run.py"), name, str(target), str(scratch)],
            env=_scratch_env(home, display), cwd=scratch, timeout=CHILD_TIMEOUT, check=False)
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(scratch, ignore_errors=True)
    if result.returncode != 0:
        raise SystemExit(f"the {name} shot failed (exit {result.returncode}); see above")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(SHOTS), metavar="NAME",
                        help="take only this shot (repeatable); one of: " + ", ".join(SHOTS))
    parser.add_argument("--list", action="store_true", help="print the shots' names and sizes")
    args = parser.parse_args()
    if args.list:
        for name, shot in SHOTS.items():
            print(f"{name}\t{shot.size[0]}x{shot.size[1]}\t{shot.what}")
        return 0
    for name in args.only or list(SHOTS):
        print(f"{name}: {take(name).relative_to(CHECKOUT)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
