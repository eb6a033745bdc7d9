"""`studio validate` given paths starts without what only other commands need: the settings
(httpx and the model servers' code) and an event loop (asyncio), which made up half of a
one-skill run's CPU time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.skills.helpers import write_skill

_RUN = (
    "import sys\n"
    "from studio.cli import main\n"
    "code = main(['validate', '--no-cache', sys.argv[1]])\n"
    "print(code, *(name in sys.modules for name in ('asyncio', 'httpx', 'studio.settings')))\n"
)


def test_validating_paths_imports_no_event_loop_and_no_settings(tmp_path: Path) -> None:
    skill = write_skill(tmp_path, "demo", "---\nname: demo\ndescription: Shows a demo. Use "
                        "when asked for one.\n---\nBody\n")
    out = subprocess.run([sys.executable, "-c", _RUN, str(skill)], capture_output=True,
                         text=True, check=True)
    assert out.stdout.split()[-4:] == ["0", "False", "False", "False"]


def test_a_command_that_takes_the_guided_flag_still_offers_its_modes() -> None:
    from studio.cli import build_parser

    args = build_parser("chat").parse_args(["chat", "--guided", "off", "hello"])
    assert args.guided == "off"
