"""`studio pack SKILL... [-o DIR]`: package skills for where they go.

- no option: one `NAME.skill` archive per skill (skill-creator's format; claude.ai uploads it);
- `--plugin DIR`: a Claude Code plugin holding the skills;
- `--marketplace DIR`: a plugin marketplace, one plugin per skill;
- `--index DIR`: the `/.well-known/agent-skills/` folder a site serves, under DIR;
- `--codex-plugin DIR`: a Codex plugin at DIR/plugins/NAME and the marketplace listing it,
  DIR/.agents/plugins/marketplace.json (DIR is the marketplace's root, a repository say);
- `--open-plugin DIR`, `--gemini-extension DIR`, `--goose-plugin DIR`: an Open Plugin, a Gemini CLI
  extension or a goose plugin in DIR.

Each skill is validated first and each output read back before it is written; nothing is left
half-written. Exit 0 when everything was written, 1 when a skill has errors, 2 on a bad path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pack",
        help="package skills: .skill archives, a Claude Code plugin or marketplace, a site index",
        description="Package skills for their clients. Without an option, write NAME.skill (a "
        "zip of the skill without its evals/) for each SKILL. Each skill is validated first.",
    )
    parser.add_argument("skills", nargs="+", type=Path, metavar="SKILL", help="a skill folder")
    parser.add_argument("-o", "--output", type=Path, default=Path("."), metavar="DIR",
                        help="where the .skill archives go (default: the current folder)")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--plugin", type=Path, metavar="DIR",
                      help="write a Claude Code plugin in DIR (.claude-plugin/plugin.json, skills/)")
    kind.add_argument("--marketplace", type=Path, metavar="DIR",
                      help="write a plugin marketplace in DIR (.claude-plugin/marketplace.json, "
                      "plugins/NAME/ for each skill)")
    kind.add_argument("--index", type=Path, metavar="DIR",
                      help="write DIR/.well-known/agent-skills/ (index.json and each skill's "
                      "files) for a site to serve")
    kind.add_argument("--codex-plugin", type=Path, metavar="DIR",
                      help="write a Codex plugin in DIR/plugins/NAME (.codex-plugin/plugin.json, "
                      "skills/) and list it in DIR/.agents/plugins/marketplace.json")
    kind.add_argument("--open-plugin", type=Path, metavar="DIR",
                      help="write an Open Plugin in DIR (.plugin/plugin.json, skills/)")
    kind.add_argument("--gemini-extension", type=Path, metavar="DIR",
                      help="write a Gemini CLI extension in DIR (gemini-extension.json, skills/)")
    kind.add_argument("--goose-plugin", type=Path, metavar="DIR",
                      help="write a goose plugin in DIR (plugin.json, skills/)")
    parser.add_argument("--name", help="the plugin's, extension's or marketplace's name "
                        "(kebab-case; default: the skill's name, or DIR's)")
    parser.add_argument("--version", dest="package_version", default="1.0.0",
                        help="the plugin version (default: 1.0.0)")
    parser.add_argument("--description", help="the plugin's description")
    parser.add_argument("--author", help="the plugin's author, or the marketplace's owner")
    parser.set_defaults(handler=run)


# The options that each write one package folder, by the kind `pack_package` takes.
FOLDER_OPTIONS = {"plugin": "plugin", "marketplace": "marketplace", "index": "index",
                  "codex_plugin": "codex-plugin", "open_plugin": "open-plugin",
                  "gemini_extension": "gemini-extension", "goose_plugin": "goose-plugin"}


def run(args: argparse.Namespace) -> int:
    from studio.skills.install import pack, pack_package

    for skill in args.skills:
        if not skill.is_dir():
            print(f"studio pack: {skill} is not a folder", file=sys.stderr)
            return 2
    option = next((option for option in FOLDER_OPTIONS if getattr(args, option) is not None), None)
    try:
        if option is not None:
            written = pack_package(FOLDER_OPTIONS[option], args.skills, getattr(args, option),
                                   name=args.name, version=args.package_version,
                                   description=args.description, author=args.author)
        else:
            written = [pack.pack_skill(skill, args.output) for skill in args.skills]
    except pack.PackError as exc:
        print(f"studio pack: {exc}", file=sys.stderr)
        return 1 if exc.findings else 2
    except OSError as exc:
        print(f"studio pack: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0
