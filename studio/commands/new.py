"""`studio new NAME [--in DIR]`: create a valid skill from the template in resources/templates/."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from studio.skills.install import scaffold


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("new", help="create a new skill from the template")
    parser.add_argument("name", metavar="NAME", help="the skill's name, e.g. pdf-tools")
    parser.add_argument("--in", dest="parent", type=Path, default=Path("."), metavar="DIR",
                        help="the folder to create it in (default: here)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """A name or folder `create_skill` refuses raises ScaffoldError, which the CLI prints."""
    skill_file = scaffold.create_skill(args.parent, args.name)
    print(f"created {skill_file}")
    return 0
