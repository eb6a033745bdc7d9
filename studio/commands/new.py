"""`studio new NAME [--in DIR]`: create a valid skill from the template in resources/templates/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.skills.install import ScaffoldError, create_skill


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("new", help="create a new skill from the template")
    parser.add_argument("name", metavar="NAME", help="the skill's name, e.g. pdf-tools")
    parser.add_argument("--in", dest="parent", type=Path, default=Path("."), metavar="DIR",
                        help="the folder to create it in (default: here)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        skill_file = create_skill(args.parent, args.name)
    except ScaffoldError as exc:
        print(f"studio new: {exc}", file=sys.stderr)
        return 2
    print(f"created {skill_file}")
    return 0
