"""`studio agents-md PROJECT [--check]`: keep the project's skills catalog in its AGENTS.md.

For agents that read only AGENTS.md: the `<available_skills>` block `studio prompt` prints, with
each SKILL.md's location relative to the project, between two marker lines that this rewrites
(every other byte of the file is kept). `--check` changes nothing and exits 1 when the block is
missing or stale, for CI. Exit 0 when the file is up to date or was written, 2 for a path that is
not a project folder, an AGENTS.md that is not a UTF-8 file, or markers that cannot be trusted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

AGENTS_FILE = "AGENTS.md"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "agents-md", help="write or refresh the skills catalog in a project's AGENTS.md",
        description="Write the <available_skills> catalog of the project's skills into PROJECT/"
        "AGENTS.md, between the lines <!-- studio:skills --> and <!-- /studio:skills --> "
        "(appended, with them, when the file has none; the file is made when absent). The rest of "
        "the file is kept byte for byte. The skills are those in the project's skill folders of "
        "every client (.agents/skills, .claude/skills, ...), or in the --skills folders.",
    )
    parser.add_argument("project", type=Path, metavar="PROJECT", help="the project's folder")
    parser.add_argument("--skills", type=Path, action="append", metavar="PATH",
                        help="a folder of skills to list instead of the project's skill folders "
                        "(repeat for more)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when the block is missing or out of date")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from studio.commands.textsafe import one_line, shown_path
    from studio.errors import StudioError
    from studio.fsutil import atomic_write_bytes
    from studio.skills.install import placement
    from studio.skills.scan import collect_headers
    from studio.skills.search import build_catalog, splice_skills_block

    if not args.project.is_dir():
        print(f"studio agents-md: {shown_path(str(args.project))} is not a folder", file=sys.stderr)
        return 2
    # Resolved, so each location is written relative to the project whatever the current folder.
    project: Path = args.project.resolve()
    target = project / AGENTS_FILE
    if target.is_symlink() or (target.exists() and not target.is_file()):
        print(f"studio agents-md: {shown_path(str(target))} is a link or not a file; it was left "
              "as it is (write the block into the file it stands for)", file=sys.stderr)
        return 2
    roots = [path.resolve() for path in args.skills or ()] or [
        folder for folder in [placement.canonical_folder(project),
                              *placement.client_folders(placement.CLIENTS, project, False)]
        if folder.is_dir()]
    collected = collect_headers(roots) if roots else None
    for problem in collected.problems if collected else []:
        print(f"studio agents-md: {one_line(problem)}", file=sys.stderr)
    catalog = build_catalog(collected.skills if collected else [], root=project)
    listed = {Path(skill.directory).resolve() for skill in catalog.included}
    for skipped in catalog.skipped:
        # A client folder's link to a listed skill (how installs place one) is that skill again.
        if Path(skipped.directory).resolve() in listed:
            continue
        first = skipped.first_problem
        why = f": {one_line(first.message)}" if first is not None else ""
        print(f"studio agents-md: left out {shown_path(str(skipped.directory))}{why}",
              file=sys.stderr)
    shown = shown_path(str(args.project / AGENTS_FILE))
    original = target.read_bytes() if target.exists() else None
    try:
        updated = splice_skills_block(original, catalog.xml)
    except StudioError as exc:  # markers that cannot be trusted; the message names the line
        print(f"studio agents-md: {shown}: {exc}; the file was left as it is", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"studio agents-md: {shown} is not UTF-8 text (byte {exc.start}); it was left as "
              "it is", file=sys.stderr)
        return 2
    count = f"{len(catalog.included)} skill{'' if len(catalog.included) == 1 else 's'}"
    if updated == original:
        print(f"{shown} is up to date ({count})")
        return 0
    if args.check:
        print(f"studio agents-md: the skills block of {shown} is missing or out of date; run "
              f"`studio agents-md {shown_path(str(args.project))}` and commit the result",
              file=sys.stderr)
        return 1
    atomic_write_bytes(target, updated)
    print(f"wrote {shown} ({count})")
    return 0
