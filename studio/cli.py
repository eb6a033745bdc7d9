"""The `studio` command: an argparse front over the core's commands.

Each subcommand lives in `studio.commands.<name>` and exposes `register(subparsers)`, which adds
its parser and sets `handler` to a function taking the parsed namespace and returning an exit
code. `gui` is the one command that needs Qt, so it is imported only when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Sequence

from studio import __version__
from studio.commands.textsafe import ShownWriter, utf8_text
from studio.errors import StudioError

COMMANDS = {
    "validate": "studio.commands.validate",
    "scan": "studio.commands.scan",
    "fix": "studio.commands.fix",
    "new": "studio.commands.new",
    "prompt": "studio.commands.prompt",
    "policy": "studio.commands.policy",
    "chat": "studio.commands.chat",
    "models": "studio.commands.models",
    "search": "studio.commands.search",
    "install": "studio.commands.install",
    "list": "studio.commands.list",
    "update": "studio.commands.update",
    "remove": "studio.commands.remove",
    "sync": "studio.commands.sync",
    "eval": "studio.commands.eval",
    "mcp": "studio.commands.mcp",
    "pack": "studio.commands.pack",
    "agents-md": "studio.commands.agents_md",
    "desktop": "studio.commands.desktop",
    "catalog": "studio.commands.catalog",
}

EXIT_USAGE = 2
# Commands whose every line may quote what a source, an index or a lock file said (names, git's
# error lines): both their streams show control and escape characters instead of obeying them.
# The others mark what they quote where they print it; `mcp` speaks its protocol on stdout.
SHOWN_COMMANDS = frozenset({"install", "update", "remove", "list", "sync"})
# A StudioError no command caught: the command could not do its work, and the message says why
# (the code the commands give for the errors they catch themselves: a path, a file, a server).
EXIT_STUDIO_ERROR = 2


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser for every command, or, with `only`, for that one command alone: importing the
    others (httpx, the agent, the policy) would cost a script that validates skills its start-up."""
    parser = argparse.ArgumentParser(
        prog="studio",
        description="Skill Studio: browse, author, validate and try Agent Skills.",
    )
    parser.add_argument("--version", action="version", version=f"studio {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    gui = subparsers.add_parser("gui", help="open the studio window (the default)")
    gui.add_argument("paths", nargs="*", metavar="PATH", help="skill roots to open")
    # For an install's check (tests/test_wheel.py): open the window, report, close.
    gui.add_argument("--smoke-test", action="store_true", help=argparse.SUPPRESS)
    gui.set_defaults(handler=_run_gui)
    for name, module_name in COMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.register(subparsers)
    return parser


def _run_gui(args: argparse.Namespace) -> int:
    try:
        from studio.ui.app import run_app
    except ImportError as exc:
        print(f"studio: the window cannot start: {exc}. Qt needs a few system libraries; on "
              "Debian or Ubuntu: apt install libegl1 libgl1 libxkbcommon0 libfontconfig1 "
              "libdbus-1-3. The other commands (studio validate, fix, new, ...) work without them.",
              file=sys.stderr)
        return 1
    result: int = run_app(list(args.paths), smoke=args.smoke_test)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or (
        arguments[0] not in COMMANDS and arguments[0] != "gui" and not arguments[0].startswith("-")
    ):
        arguments.insert(0, "gui")
    first = arguments[0]
    parser = build_parser(first if first in COMMANDS or first == "gui" else None)
    args = parser.parse_args(arguments)
    if first in SHOWN_COMMANDS:
        # JSON on stdout escapes controls itself, and its strings must stay the data they are.
        out = sys.stdout if getattr(args, "format", "text") == "json" else ShownWriter(sys.stdout)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(ShownWriter(sys.stderr)):
            return _run(args, first)
    return _run(args, first)


def _run(args: argparse.Namespace, command: str) -> int:
    """Run the parsed command (named `command`: a command's own `command` argument, as
    `studio policy check -- CMD` has, hides the subparser's)."""
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        print("studio: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except StudioError as exc:
        print(f"studio {command}: {utf8_text(exc.user_message)}", file=sys.stderr)
        return EXIT_STUDIO_ERROR
    return code
