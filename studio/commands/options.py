"""The options more than one command takes, each declared once: a command adds one to its parser
with the function named for it and reads the parsed value back with the function beside it. A new
shared option is one function here and a call in each command that takes it.

- `--option KEY=VALUE` (sampling options for the model server): `option_flag`, `parse_options`.
- `--guided auto|on|off`, `--no-guided` and `--guided-write` / `--no-guided-write`: `guided_flag`.
- `--skills PATH|mcp+URL` values: `skill_source` (an MCP server stays text, a path is a Path);
  `--yes` to agree to a server's skills without being asked: `served_consent_flag`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from studio.errors import StudioError
from studio.skills.served import is_served


class OptionError(StudioError):
    """An `--option` that is not KEY=VALUE."""


def option_flag(parser: argparse.ArgumentParser, help: str) -> None:
    """`--option KEY=VALUE`, repeatable; `parse_options` reads what it collected."""
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=help)


def parse_options(items: list[str]) -> dict[str, Any]:
    """The sampling options of `--option KEY=VALUE` items, each VALUE read as JSON when it can
    be (`temperature=0` gives a number) and as text otherwise; the last of a key wins."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--option wants KEY=VALUE, such as temperature=0, not {item!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def guided_flag(parser: argparse.ArgumentParser) -> None:
    """`--guided [auto|on|off]` and `--no-guided`, read back as `args.guided`."""
    # Here: the settings bring httpx and the model servers' code, which a command without this
    # flag (`studio validate`) never needs, into its start-up.
    from studio.settings import GUIDED_MODES

    flags = parser.add_mutually_exclusive_group()
    flags.add_argument(
        "--guided", nargs="?", const="on", default="auto", choices=GUIDED_MODES,
        help="carry the model through each skill one constrained step at a time (pick a skill, "
        "run one of its scripts, answer from the output): auto (the default) when the server "
        "says the model is small, on (what --guided alone means) or off")
    flags.add_argument("--no-guided", dest="guided", action="store_const", const="off",
                       help="never guide the model (--guided off)")
    parser.add_argument(
        "--guided-write", action=argparse.BooleanOptionalAction, default=True,
        help="guided, a model that fills arguments writes each run whole from the skill's own "
        "documentation, the rules checking it before it runs (the default); --no-guided-write: "
        "the rules fill each run's arguments alone (measured: benchmarks/HISTORY.md)")


def skill_source(text: str) -> Path | str:
    """A `--skills` value: a skill's path, or an MCP server's `mcp+...` address kept as written
    (a Path would fold its `//`)."""
    return text if is_served(text) else Path(text)


SKILL_SOURCE_HELP = ("a skill, a folder of skills, a zip, or an MCP server that serves skills: "
                     "mcp+http://HOST:PORT/PATH or 'mcp+stdio:COMMAND ARGS'")


def served_consent_flag(parser: argparse.ArgumentParser) -> None:
    """`--yes`: agree to use the skills an MCP server serves without being asked (read back as
    `args.yes`); without it a terminal asks, and a run with no terminal leaves them out."""
    parser.add_argument("--yes", action="store_true",
                        help="agree to use the skills of the MCP servers given with --skills "
                        "mcp+... (and to their changed manifests) without being asked")
