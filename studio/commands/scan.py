"""`studio scan PATH... [--format text|json|sarif] [--fail-on LEVEL] [--judge MODEL]`: read every
file of each skill for threats and rank what is found (`studio.threatscan`); with `--judge`, a
local model reads each skill too, and its verdict is one more finding (`scanjudge`).

Exit 0 when no skill has a finding at or above `--fail-on` (default: never fail on findings),
1 when one has, 2 when a path holds no skill, 130 when the judge was stopped with Ctrl+C (the
report of what finished is printed first)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.commands.arguments import positive, seconds

LEVEL_CHOICES = ("critical", "high", "medium", "low", "info", "none")
# `studio.llm.BACKENDS`, written out: importing the model clients (httpx) would cost every scan,
# a pre-commit hook's included, a quarter of a second. tests/commands/test_scan_judge.py keeps
# the two the same.
BACKEND_CHOICES = ("ollama", "openai", "embedded")
# `studio.llm`'s CONNECT_TIMEOUT and IDLE_TIMEOUT, for the help alone (the same test keeps them).
CONNECT_SECONDS, IDLE_SECONDS = 10, 180
# The options that only mean something with --judge.
_JUDGE_ONLY = ("backend", "url", "per_server", "option", "connect_timeout", "idle_timeout")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="read every file of skills for threats, ranked by severity",
        description="Scan skills for threats: every file read (SKILL.md, references, scripts, "
        "manifests, dot files), code parsed, hidden and deceptive text found. Each finding has "
        "a code, a severity (critical, high, medium, low, info), a confidence, a place and its "
        "evidence (docs/security-content.md). Exit 1 when a finding is at or above --fail-on, "
        "2 when a path holds no skill, 130 when the judge is stopped with Ctrl+C (after the "
        "report of what finished).",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="a skill folder, its SKILL.md, or a folder searched for skills")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("--fail-on", choices=LEVEL_CHOICES, default="none", metavar="LEVEL",
                        help="exit 1 when any skill has a finding at this severity or above "
                        "(critical, high, medium, low, info; default none); the judge's "
                        "findings count like the rules'")
    parser.add_argument("--no-cache", action="store_true",
                        help="read and check every file again, neither using nor keeping the "
                        "findings a scan kept of skills whose files did not change")
    judge = parser.add_argument_group(
        "model judge", "a local model reads each skill's SKILL.md and references and gives a "
        "verdict, added as a finding (SK525, SK526); it never removes or lowers a rule's finding")
    judge.add_argument("--judge", metavar="MODEL",
                       help="the model's name on the server; for --backend embedded a .gguf file "
                       "or a model Ollama has pulled")
    judge.add_argument("--backend", choices=BACKEND_CHOICES, default=None,
                       help="the judge's model server (default: ollama)")
    judge.add_argument("--url", help="the server's URL (default: the backend's usual one)")
    judge.add_argument("--connect-timeout", type=seconds, default=None, metavar="SECONDS",
                       help="seconds to wait for the server to accept the connection "
                       f"(default: {CONNECT_SECONDS})")
    judge.add_argument("--idle-timeout", type=seconds, default=None, metavar="SECONDS",
                       help="seconds the server may send no piece of an answer before the judge "
                       "stops; a large skill on a slow computer takes long to read before the "
                       f"first (default: {IDLE_SECONDS})")
    judge.add_argument("--per-server", type=positive, default=None, metavar="N",
                       help="skills the server judges at once (default: 1)")
    # `options.option_flag`'s flag, declared here: that module loads the settings.
    judge.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="a sampling option for the server, e.g. temperature=0.2 (repeatable; "
                       "the judge asks for temperature=0 unless told)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from studio.commands.scanreport import scan_report

    if args.judge is None:
        given = [name for name in _JUDGE_ONLY if getattr(args, name)]
        if given:
            flags = ", ".join("--" + name.replace("_", "-") for name in given)
            sys.stderr.write(f"studio scan: {flags} need --judge MODEL; add it, or "
                             "leave them out\n")
            return 2
        return scan_report(args.paths, args.format, args.fail_on, "scan", cached=not args.no_cache)
    from studio.commands.scanjudge import JudgeSettings

    judge = JudgeSettings.from_args(args)
    return scan_report(args.paths, args.format, args.fail_on, "scan", judge,
                       cached=not args.no_cache)
