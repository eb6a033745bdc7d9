"""`studio pack SKILL...`: skills packed for where they go.

    studio pack SKILL... [-o DIR]                      NAME.skill for each (skill-creator's format)
    studio pack SKILL... --plugin DIR [--name N]       one Claude Code plugin holding them
    studio pack SKILL... --marketplace DIR --owner O   a marketplace: one plugin a skill
    studio pack SKILL... --index SITE                  SITE/.well-known/agent-skills/ and its index

Each skill is validated first; `evals/` stays out; each output is read back and checked before
it is put in place.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from studio.skills.pack import PackError, pack_index, pack_marketplace, pack_plugin, pack_skill

EXIT_FAILED = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pack", help="pack skills as .skill archives, a Claude Code plugin or a marketplace",
        description="Pack skills for where they go. Each skill is validated first (errors stop "
                    "the pack), its evals/ folder stays out, and each output is read back and "
                    "checked before it is put in place.")
    parser.add_argument("skills", nargs="+", type=Path, metavar="SKILL", help="skill folders")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("-o", "--out", type=Path, default=Path("."), metavar="DIR",
                       help="the folder for the .skill archives (default: here)")
    where.add_argument("--plugin", type=Path, metavar="DIR",
                       help="write one Claude Code plugin holding the skills in DIR")
    where.add_argument("--marketplace", type=Path, metavar="DIR",
                       help="write a plugin marketplace in DIR: one plugin a skill")
    where.add_argument("--index", type=Path, metavar="SITE",
                       help="write SITE/.well-known/agent-skills/ (index.json and the skills' "
                            "files) as the Agent Skills Discovery RFC 0.2.0 has a site publish them")
    parser.add_argument("--name", help="the plugin's or marketplace's name (default: DIR's name)")
    parser.add_argument("--description", default="", help="the plugin's description")
    parser.add_argument("--version", dest="pack_version", metavar="VERSION",
                        help="the version written in the manifests")
    parser.add_argument("--owner", help="the marketplace's owner (default: your user name)")
    parser.add_argument("--force", action="store_true", help="replace an output that exists")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.plugin is not None:
            packed = pack_plugin(args.skills, args.plugin, name=args.name,
                                 description=args.description, version=args.pack_version,
                                 force=args.force)
            print(f"wrote plugin {packed.path} with {len(packed.skills)} skill(s): "
                  f"{', '.join(packed.skills)}")
            return 0
        if args.marketplace is not None:
            packed = pack_marketplace(args.skills, args.marketplace, name=args.name,
                                      owner=args.owner or getpass.getuser(),
                                      version=args.pack_version, force=args.force)
            print(f"wrote marketplace {packed.path} with {len(packed.skills)} plugin(s): "
                  f"{', '.join(packed.skills)}")
            return 0
        if args.index is not None:
            packed = pack_index(args.skills, args.index, force=args.force)
            print(f"wrote {packed.path} with {len(packed.skills)} skill(s): "
                  f"{', '.join(packed.skills)}")
            return 0
        for directory in args.skills:
            packed = pack_skill(directory, args.out, force=args.force)
            print(f"wrote {packed.path}")
    except PackError as exc:
        print(f"studio pack: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as exc:
        print(f"studio pack: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0
