"""`--guided auto|on|off` and `--no-guided`, as `studio chat` and `studio eval` take them."""

from __future__ import annotations

import argparse

from studio.settings import GUIDED_MODES


def guided_flag(parser: argparse.ArgumentParser) -> None:
    flags = parser.add_mutually_exclusive_group()
    flags.add_argument(
        "--guided", nargs="?", const="on", default="auto", choices=GUIDED_MODES,
        help="carry the model through each skill one constrained step at a time (pick a skill, "
        "run one of its scripts, answer from the output): auto (the default) when the server "
        "says the model is small, on (what --guided alone means) or off")
    flags.add_argument("--no-guided", dest="guided", action="store_const", const="off",
                       help="never guide the model (--guided off)")
