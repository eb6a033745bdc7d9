"""`studio scan PATH... [--format text|json|sarif] [--fail-on LEVEL]`: read every file of each
skill for threats and rank what is found (`studio.threatscan`).

Exit 0 when no skill has a finding at or above `--fail-on` (default: never fail on findings),
1 when one has, 2 when a path holds no skill."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

LEVEL_CHOICES = ("critical", "high", "medium", "low", "info", "none")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="read every file of skills for threats, ranked by severity",
        description="Scan skills for threats: every file read (SKILL.md, references, scripts, "
        "manifests, dot files), code parsed, hidden and deceptive text found. Each finding has "
        "a code, a severity (critical, high, medium, low, info), a confidence, a place and its "
        "evidence (docs/security-content.md). Exit 1 when a finding is at or above --fail-on, "
        "2 when a path holds no skill.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="a skill folder, its SKILL.md, or a folder searched for skills")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("--fail-on", choices=LEVEL_CHOICES, default="none", metavar="LEVEL",
                        help="exit 1 when any skill has a finding at this severity or above "
                        "(critical, high, medium, low, info; default none)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from studio.commands.scanreport import scan_report

    return scan_report(args.paths, args.format, args.fail_on, "scan")
