"""`studio validate PATH... [--format text|json] [--target CLIENT]`: check skills against the spec
(or the fields a client reads) and our advice.

A run keeps its report with the stamp (size, mtime, mode) of every file and folder the report
depends on. When the same command runs again and every stamp still holds, it prints that report
without walking the folders or loading the parser: the slow half of the command is imported only
when there is something to check.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import marshal
import os
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from studio.commands.options import SKILL_SOURCE_HELP, served_consent_flag, skill_source
from studio.commands.served import skill_paths
from studio.fsutil import atomic_write_bytes
from studio.paths import cache_dir
from studio.skills import SPEC, TARGETS, client_key
from studio.skills.scan import ScanCache, Stamp, unchanged

if TYPE_CHECKING:
    from studio.skills import SkillSummary

CACHE_FILE = "validate-cache.marshal"
MEMO_FOLDER = "validate-output"

Rendered = tuple[str, str, int]



def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check skills against the Agent Skills spec",
        description="Check skills: a skill folder, a SKILL.md, a folder of skills (searched "
        "recursively) or a .zip. Exit 0 when all are valid, 1 when any has an error, 2 when a "
        "path, a folder below it (SK018) or a SKILL.md (SK006) cannot be read.",
    )
    parser.add_argument("paths", nargs="+", type=skill_source, metavar="PATH",
                        help=SKILL_SOURCE_HELP)
    served_consent_flag(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--target", type=client_key, choices=TARGETS, default=SPEC,
        help="judge the skills as this client does: a field it reads is checked, one it does not "
        "is a warning (an error for the bare spec, the default); `copilot` names github-copilot",
    )
    parser.add_argument("--no-cache", action="store_true", help="ignore and keep no scan cache")
    parser.add_argument(
        "--threats", action="store_true",
        help="check for threats instead: every file of each skill read and each finding ranked, "
        "as `studio scan --fail-on high` does (exit 1 when one is high or critical)",
    )
    parser.add_argument(
        "--with-fixes", action="store_true",
        help="with --format json: give each fix's text edits (offsets into the file's text, in "
        "characters) beside its title; reads each skill with findings again",
    )
    parser.set_defaults(handler=run)


def summary_counts(skills: list[SkillSummary]) -> dict[str, int]:
    from studio.skills import Severity

    def count(severity: Severity) -> int:
        return sum(1 for s in skills for d in s.diagnostics if d.severity is severity)

    return {
        "skills": len(skills),
        "valid": sum(1 for s in skills if s.valid),
        "invalid": sum(1 for s in skills if not s.valid),
        "loadable": sum(1 for s in skills if s.loadable),
        "errors": count(Severity.ERROR),
        "warnings": count(Severity.WARNING),
        "infos": count(Severity.INFO),
    }


def _report(
    args: argparse.Namespace, paths: list[Path], out: TextIO, keep: bool
) -> tuple[Rendered, list[Stamp]]:
    """Validate the paths and write the report to `out` as `Report` streams it; the rendered
    report holds the output too when `keep` (for the memo), else "" in its place."""
    # Imported here: a rescan that finds nothing changed never needs the parser and the rules.
    from studio.commands.textsafe import one_line, shown_path
    from studio.commands.validate_report import Report
    from studio.skills import codes
    from studio.skills.scan import scan

    target = args.target
    cache = None if args.no_cache else ScanCache(_cache_file(target), target)
    with Report(args.format, target if args.with_fixes else None) as report:
        collected = scan(paths, cache, target, each=report.add)
        errors = "".join(f"studio validate: {one_line(problem)}\n" for problem in collected.problems)
        errors += "".join(
            f"studio validate: {shown_path(notice.path)}: notice {notice.code}: "
            f"{one_line(notice.message)}\n"
            for notice in collected.notices
        )
        tail: dict[str, Any] = {}
        if collected.problems:
            tail["problems"] = collected.problems
        if collected.notices:
            tail["notices"] = [notice.to_json() for notice in collected.notices]
        sys.stderr.write(errors)
        kept = io.StringIO() if keep else None
        report.write(out.write if kept is None else lambda text: (kept.write(text), out.write(text)),
                     tail)
    unreadable = report.unreadable or any(n.code == codes.FOLDER_UNREADABLE for n in collected.notices)
    code = 2 if collected.problems or unreadable else (0 if report.counts["invalid"] == 0 else 1)
    return (kept.getvalue() if kept is not None else "", errors, code), collected.stamps


def _cache_file(target: str) -> Path:
    """Each target keeps a cache of its own, so switching targets keeps both warm."""
    return cache_dir() / (CACHE_FILE if target == SPEC else f"validate-cache-{target}.marshal")


def run(args: argparse.Namespace) -> int:
    # A report on thousands of skills is a few hundred thousand objects that live to the end and
    # hold no cycles; the cyclic collector would only walk them again and again. Worker
    # processes forked for the scan inherit this.
    gc.disable()
    try:
        return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    if args.threats:
        from studio.commands.scanreport import scan_report

        return scan_report(list(args.paths), args.format, "high", "validate")
    if args.with_fixes and args.format != "json":
        sys.stderr.write("studio validate: --with-fixes needs --format json; add it\n")
        return 2
    roots = skill_paths("validate", args, args.paths)
    if roots.problems and not roots.paths:
        return 2
    paths = roots.paths
    kind = "json+fixes" if args.with_fixes else args.format
    memo = None if args.no_cache else OutputMemo.for_command(
        cache_dir() / MEMO_FOLDER, kind, paths, args.target
    )
    rendered = memo.get() if memo is not None else None
    if rendered is not None:
        out, errors, code = rendered
        sys.stderr.write(errors)
        sys.stdout.write(out)
        return code
    rendered, stamps = _report(args, paths, sys.stdout, keep=memo is not None)
    if memo is not None:
        memo.put(stamps, rendered)
    return rendered[2]


class OutputMemo:
    """The report of one `studio validate` command line (its format, working folder and paths),
    kept in a file of its own with the stamps it depends on; the last few command lines keep
    theirs."""

    KEEP = 8

    def __init__(self, folder: Path, key: str) -> None:
        self.folder = folder
        self.key = key
        # Named by a CRC of the key, which the file holds too: two command lines with one CRC
        # only take turns, and hashlib would cost this start-up the loading of OpenSSL.
        self.path = folder / f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}.marshal"

    @classmethod
    def for_command(
        cls, folder: Path, output_format: str, paths: list[Path], target: str = SPEC
    ) -> OutputMemo | None:
        try:
            where = os.getcwd()
        except OSError:
            return None
        return cls(folder, "\x00".join([output_format, target, where, *map(str, paths)]))

    def get(self) -> Rendered | None:
        """The kept report, if every file and folder it depends on is as it was."""
        try:
            with open(self.path, "rb") as handle:
                stamp, key, stamps, rendered = marshal.loads(handle.read())
            out, errors, code = rendered
            if stamp != ScanCache.STAMP or key != self.key or not unchanged(stamps):
                return None
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if not (isinstance(out, str) and isinstance(errors, str) and isinstance(code, int)):
            return None
        with contextlib.suppress(OSError):
            os.utime(self.path)  # the most recently used memos are the ones kept
        return out, errors, code

    def put(self, stamps: list[Stamp], rendered: Rendered) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(
                self.path, marshal.dumps((ScanCache.STAMP, self.key, stamps, rendered)), durable=False
            )
            kept = sorted(self.folder.glob("*.marshal"), key=_mtime, reverse=True)
            for old in kept[self.KEEP :]:
                old.unlink(missing_ok=True)
        except OSError:
            return


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
