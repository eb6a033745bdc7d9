"""`studio validate PATH... [--format text|json] [--target CLIENT]`: check skills against the spec
(or the fields a client reads) and our advice.

A run keeps its report with the stamp (size, mtime, mode) of every file and folder the report
depends on. When the same command runs again and every stamp still holds, it prints that report
without walking the folders or loading the parser: the slow half of the command is imported only
when there is something to check. Neither side holds the whole report or all the stamps at once:
on 100,000 skills they are 100 MB of JSON and 400,000 stamps (409 MB in one process when the
memo was one marshalled value).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import marshal
import os
import sys
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from studio.commands.options import SKILL_SOURCE_HELP, served_consent_flag, skill_source
from studio.commands.served import skill_paths
from studio.paths import cache_dir
from studio.skills import SPEC, TARGETS, client_key
from studio.skills.scan import ScanCache, Stamp, unchanged

if TYPE_CHECKING:
    from studio.skills import SkillSummary

CACHE_FILE = "validate-cache.marshal"
MEMO_FOLDER = "validate-output"

# The stderr lines and the exit code of a kept report; its output is in a file of its own.
Outcome = tuple[str, int]
# Stamps per record of a memo: checking them reads one record at a time.
STAMPS_PER_RECORD = 8192
# Characters per read when a kept report is copied to the output.
COPY_CHARS = 1 << 20



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
    args: argparse.Namespace, paths: list[Path], out: TextIO, kept: TextIO | None,
    stamps: StampRecords | None = None,
) -> Outcome:
    """Validate the paths and write the report to `out` as `Report` streams it, and to `kept`
    too (the memo's output file) when given."""
    # Imported here: a rescan that finds nothing changed never needs the parser and the rules.
    from studio.commands.textsafe import one_line, shown_path
    from studio.commands.validate_report import Report, render
    from studio.skills import codes
    from studio.skills.scan import scan, scan_pieces

    target = args.target
    cache = None if args.no_cache else ScanCache(_cache_file(target), target)
    with Report(args.format, target if args.with_fixes else None) as report:
        if cache is None and not args.with_fixes:
            # Each worker walks whole folders and renders their skills' part of the report.
            collected = scan_pieces(paths, functools.partial(render, args.format == "json"),
                                    report, target)
        else:
            collected = scan(paths, cache, target, each=report.add,
                             stamps=stamps.extend if stamps is not None else None)
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
        report.write(out.write if kept is None else lambda text: (kept.write(text), out.write(text)),
                     tail)
    unreadable = report.unreadable or any(n.code == codes.FOLDER_UNREADABLE for n in collected.notices)
    code = 2 if collected.problems or unreadable else (0 if report.counts["invalid"] == 0 else 1)
    return errors, code


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

        return scan_report(list(args.paths), args.format, "high", "validate",
                           cached=not args.no_cache)
    if args.with_fixes and args.format != "json":
        sys.stderr.write("studio validate: --with-fixes needs --format json; add it\n")
        return 2
    roots = skill_paths("validate", args, args.paths)
    if roots.problems and not roots.paths:
        return 2
    paths = roots.paths
    kind = "json+fixes" if args.with_fixes else args.format
    if args.no_cache:
        return _report(args, paths, sys.stdout, None)[1]
    memo = OutputMemo.for_command(cache_dir() / MEMO_FOLDER, kind, paths, args.target)
    if memo is None:
        return _report(args, paths, sys.stdout, None)[1]
    code = memo.replay(sys.stdout, sys.stderr)
    if code is not None:
        return code
    with StampRecords() as stamps:
        with memo.recording() as kept:
            outcome = _report(args, paths, sys.stdout, kept, stamps)
        memo.put(stamps, outcome)
    return outcome[1]


class StampRecords:
    """The stamps a report depends on, as the scan reads them, in a temporary file as the
    memo's records (STAMPS_PER_RECORD a record): a run holds one record's worth, not them all.

    Attributes:
        records: how many records are in the file."""

    def __init__(self) -> None:
        self.records = 0
        self._pending: list[Stamp] = []
        # Closed with the records, which are a context manager.
        self._file = tempfile.TemporaryFile()  # noqa: SIM115

    def __enter__(self) -> StampRecords:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def extend(self, stamps: list[Stamp]) -> None:
        pending = self._pending
        pending.extend(stamps)
        if len(pending) >= STAMPS_PER_RECORD:
            for at in range(0, len(pending) - STAMPS_PER_RECORD + 1, STAMPS_PER_RECORD):
                self._write(pending[at:at + STAMPS_PER_RECORD])
            del pending[:len(pending) - len(pending) % STAMPS_PER_RECORD]

    def _write(self, record: list[Stamp]) -> None:
        self._file.write(_dump(record))
        self.records += 1

    def finish(self) -> None:
        """Write the last record, not full."""
        if self._pending:
            self._write(self._pending)
            self._pending = []

    def copy_to(self, handle: BinaryIO) -> None:
        """Every record, as the memo file holds them, a megabyte at a time."""
        self._file.seek(0)
        while chunk := self._file.read(COPY_CHARS):
            handle.write(chunk)


class OutputMemo:
    """The report of one `studio validate` command line (its format, working folder and paths),
    kept with the stamps it depends on; the last few command lines keep theirs.

    Two files a command line: `CRC.marshal`, records written with `marshal` one after the other
    (a header with the stderr lines, the exit code and the name of the output's file, then the
    stamps, STAMPS_PER_RECORD a record), and the output itself in `CRC.TOKEN.out`, named anew
    by each run, so a header never names an output another run is writing."""

    KEEP = 8

    def __init__(self, folder: Path, key: str) -> None:
        self.folder = folder
        self.key = key
        # Named by a CRC of the key, which the file holds too: two command lines with one CRC
        # only take turns, and hashlib would cost this start-up the loading of OpenSSL.
        self.crc = f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}"
        self.path = folder / f"{self.crc}.marshal"
        self._output: Path | None = None

    @classmethod
    def for_command(
        cls, folder: Path, output_format: str, paths: list[Path], target: str = SPEC
    ) -> OutputMemo | None:
        try:
            where = os.getcwd()
        except OSError:
            return None
        return cls(folder, "\x00".join([output_format, target, where, *map(str, paths)]))

    def replay(self, out: TextIO, err: TextIO) -> int | None:
        """Write the kept report to `out` and `err` and give its exit code, if every file and
        folder it depends on is as it was; else write nothing and give None."""
        try:
            with open(self.path, "rb") as handle:
                header = _load(handle)
                if not isinstance(header, dict) or header.get("stamp") != ScanCache.STAMP \
                        or header.get("key") != self.key:
                    return None
                errors, code, output = header["errors"], header["code"], header["output"]
                size, records = header["size"], header["records"]
                if not (isinstance(errors, str) and isinstance(code, int)
                        and isinstance(output, str) and os.sep not in output):
                    return None
                for _ in range(records):
                    if not unchanged(_load(handle)):
                        return None
            kept = self.folder / output
            if kept.stat().st_size != size:
                return None
            with open(kept, encoding="utf-8", errors="surrogatepass", newline="") as text:
                err.write(errors)
                while chunk := text.read(COPY_CHARS):
                    out.write(chunk)
        except (OSError, EOFError, ValueError, TypeError, KeyError):
            return None
        with contextlib.suppress(OSError):
            os.utime(self.path)  # the most recently used memos are the ones kept
        return code

    @contextlib.contextmanager
    def recording(self) -> Iterator[TextIO | None]:
        """A file for the report's output as it is written (None when the cache folder cannot
        take one: the report is then only printed)."""
        name = f"{self.crc}.{os.urandom(6).hex()}.out"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle = open(  # noqa: SIM115  # closed below, after the report
                self.folder / name, "w", encoding="utf-8", errors="surrogatepass", newline="")
        except OSError:
            yield None
            return
        try:
            yield handle
            handle.close()
            self._output = self.folder / name
        finally:
            handle.close()
            if self._output is None:  # an interrupted report leaves nothing behind
                with contextlib.suppress(OSError):
                    (self.folder / name).unlink()
                    self.folder.rmdir()  # only when no other memo is in it

    def put(self, stamps: StampRecords, outcome: Outcome) -> None:
        output = self._output
        if output is None:
            return
        try:
            stamps.finish()
            errors, code = outcome
            header = {"stamp": ScanCache.STAMP, "key": self.key, "errors": errors, "code": code,
                      "output": output.name, "size": output.stat().st_size,
                      "records": stamps.records}
            # Written beside, then renamed over the memo: a reader never sees half of one.
            temp = self.folder / f".{self.crc}.{os.urandom(6).hex()}.tmp"
            try:
                with open(temp, "wb") as handle:
                    handle.write(_dump(header))
                    stamps.copy_to(handle)
                os.replace(temp, self.path)
            finally:
                temp.unlink(missing_ok=True)
            self._forget(f"{self.crc}.*.out", keep=output)
            kept = sorted(self.folder.glob("*.marshal"), key=_mtime, reverse=True)
            for old in kept[self.KEEP :]:
                old.unlink(missing_ok=True)
                self._forget(f"{old.stem}.*.out")
        except OSError:
            output.unlink(missing_ok=True)

    def _forget(self, pattern: str, keep: Path | None = None) -> None:
        """Remove the outputs `pattern` matches but `keep`: those no header names any more."""
        for old in self.folder.glob(pattern):
            if old != keep:
                old.unlink(missing_ok=True)


def _dump(record: Any) -> bytes:
    """A record of a memo: its marshalled bytes, marshalled as one bytes value (see `_load`)."""
    return marshal.dumps(marshal.dumps(record))


def _load(handle: BinaryIO) -> Any:
    """The next record of a memo. `marshal.load` reads a file a value at a time, a call to
    `readinto` for each string and number (13 s for 400,000 stamps); reading a record's bytes
    as one value and then parsing them in memory takes a fraction of that."""
    return marshal.loads(marshal.load(handle))


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
