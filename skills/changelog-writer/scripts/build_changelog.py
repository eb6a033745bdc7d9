#!/usr/bin/env python3
"""Turn one-line git log output into a Keep a Changelog release section.

Reads lines such as `4e7d901 feat(export): add CSV export` (from
`git log --pretty=format:'%h %s'`) and prints a Markdown section grouped into Added, Changed,
Deprecated, Removed, Fixed and Security. Internal commits (docs, tests, CI, chores) and merges are
left out and counted on stderr. Writes to stdout only.
"""

from __future__ import annotations

import argparse
import re
import string
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

SECTIONS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
INTERNAL = "internal"
DEFAULT_TEMPLATE = Path(__file__).resolve().parent.parent / "assets" / "section-template.md"

TYPE_SECTIONS = {
    "feat": "Added",
    "feature": "Added",
    "add": "Added",
    "fix": "Fixed",
    "bugfix": "Fixed",
    "perf": "Changed",
    "change": "Changed",
    "revert": "Changed",
    "deprecate": "Deprecated",
    "remove": "Removed",
    "security": "Security",
    "sec": "Security",
    "refactor": INTERNAL,
    "docs": INTERNAL,
    "doc": INTERNAL,
    "chore": INTERNAL,
    "test": INTERNAL,
    "tests": INTERNAL,
    "ci": INTERNAL,
    "build": INTERNAL,
    "style": INTERNAL,
}
FIRST_WORD_SECTIONS = {
    **{word: "Added" for word in ("add", "added", "adds", "introduce", "introduces", "support")},
    **{word: "Fixed" for word in ("fix", "fixed", "fixes", "resolve", "resolves", "correct")},
    **{word: "Removed" for word in ("remove", "removed", "removes", "delete", "drop", "drops")},
    **{word: "Deprecated" for word in ("deprecate", "deprecated", "deprecates")},
    **{word: "Security" for word in ("security", "cve")},
    **{word: INTERNAL for word in ("bump", "wip", "typo", "refactor", "reformat", "lint", "test",
                                   "tests")},
}
# A removal or deprecation announced in a feature or refactor commit belongs in its own section;
# in a fix ("fix: remove race") the word describes the fix, so the type wins there.
REWORDABLE_TYPES = {"feat", "feature", "refactor", "change", "perf"}

HASH_LINE = re.compile(r"(?P<hash>[0-9a-fA-F]{7,40})\s+(?P<subject>\S.*)")
CONVENTIONAL = re.compile(
    r"(?P<type>[A-Za-z]+)(?:\((?P<scope>[^)]*)\))?(?P<bang>!)?:\s*(?P<text>\S.*)"
)
DEFAULT_FORMAT = re.compile(r"commit [0-9a-f]{40}\b")
MERGE = re.compile(r"Merge (pull request|branch|remote-tracking branch|tag) ")


class InputError(Exception):
    """The input or the template cannot be used; the message says why and what to do."""


@dataclass
class Entry:
    section: str
    text: str
    commit: str
    breaking: bool


def first_word(text: str) -> str:
    match = re.match(r"[A-Za-z]+", text)
    return match.group(0).lower() if match else ""


def tidy(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:]


def classify(commit: str, subject: str) -> Entry | None:
    """Return the changelog entry for one commit, or None for a merge commit."""
    if MERGE.match(subject):
        return None
    breaking = "BREAKING CHANGE" in subject
    match = CONVENTIONAL.fullmatch(subject)
    if match:
        kind = match.group("type").lower()
        text = match.group("text")
        scope = (match.group("scope") or "").strip()
        breaking = breaking or bool(match.group("bang"))
        section = TYPE_SECTIONS.get(kind, "Changed")
        worded = FIRST_WORD_SECTIONS.get(first_word(text))
        if kind in REWORDABLE_TYPES and worded in ("Removed", "Deprecated"):
            section = worded
    else:
        text, scope = subject, ""
        section = FIRST_WORD_SECTIONS.get(first_word(subject), "Changed")
    if breaking and section == INTERNAL:
        section = "Changed"
    text = tidy(text)
    if scope:
        text = f"**{scope}:** {text}"
    if breaking:
        text = f"**Breaking:** {text}"
    return Entry(section, text, commit, breaking)


def parse_lines(lines: list[str], source: str) -> tuple[list[Entry], int, list[str]]:
    """Return entries, the number of merge commits and the subjects of internal commits."""
    entries: list[Entry] = []
    merges = 0
    internal: list[str] = []
    seen: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if DEFAULT_FORMAT.match(line):
            raise InputError(
                f"{source}, line {number}: this is git's multi-line log format; produce one line "
                "per commit with: git log --pretty=format:'%h %s' FROM..TO"
            )
        hashed = HASH_LINE.fullmatch(line)
        commit, subject = (hashed.group("hash"), hashed.group("subject")) if hashed else ("", line)
        if subject in seen:
            continue
        seen.add(subject)
        entry = classify(commit, subject)
        if entry is None:
            merges += 1
        elif entry.section == INTERNAL:
            internal.append(subject)
        else:
            entries.append(entry)
    return entries, merges, internal


def render_sections(entries: list[Entry], with_hashes: bool) -> str:
    blocks = []
    for section in SECTIONS:
        chosen = [entry for entry in entries if entry.section == section]
        # Breaking changes go first so that readers skimming a section see them.
        chosen.sort(key=lambda entry: not entry.breaking)
        if not chosen:
            continue
        lines = [f"### {section}", ""]
        for entry in chosen:
            suffix = f" ({entry.commit})" if with_hashes and entry.commit else ""
            lines.append(f"- {entry.text}{suffix}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def read_input(path: str) -> list[str]:
    try:
        if path == "-":
            return sys.stdin.read().splitlines()
        return Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; check the path or pipe git log into -") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder; give a file of git log lines") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text; is it really git log output?") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None


def load_template(path: Path) -> string.Template:
    try:
        template = string.Template(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"template {path} cannot be read: {exc}") from None
    placeholders = set(re.findall(r"\$\{?(\w+)", template.template))
    if not {"heading", "sections"} <= placeholders:
        raise InputError(f"template {path} must contain $heading and $sections")
    return template


def iso_date(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2024-03-10, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Build a Keep a Changelog section from one-line git log output "
                    "(git log --pretty=format:'%%h %%s').",
        epilog="Exit status: 0 section printed, 1 no user-facing commits found, "
               "2 the input, the template or an option could not be used.",
    )
    parser.add_argument("log", metavar="LOG", help="file of git log lines, or - for stdin")
    parser.add_argument("--release", metavar="VERSION",
                        help="version being released, e.g. 1.4.0 (default: Unreleased)")
    parser.add_argument("--date", type=iso_date,
                        help="release date, YYYY-MM-DD (default: today, when --release is given)")
    parser.add_argument("--with-hashes", action="store_true",
                        help="append the short commit hash to every entry")
    parser.add_argument("--template", type=Path, default=DEFAULT_TEMPLATE,
                        help="section template with $heading and $sections "
                             "(default: assets/section-template.md)")
    args = parser.parse_args(argv)

    if args.date and not args.release:
        parser.error("--date needs --release; an Unreleased section has no date")
    try:
        template = load_template(args.template)
        entries, merges, internal = parse_lines(read_input(args.log), args.log)
    except InputError as exc:
        print(f"build_changelog: {exc}", file=sys.stderr)
        return 2

    if internal or merges:
        print(f"build_changelog: left out {len(internal)} internal and {merges} merge commits",
              file=sys.stderr)
        for subject in internal:
            print(f"  internal: {subject}", file=sys.stderr)
    if not entries:
        print("build_changelog: no user-facing changes found; nothing to add to the changelog",
              file=sys.stderr)
        return 1
    heading = "[Unreleased]"
    if args.release:
        heading = f"[{args.release}] - {args.date or date.today().isoformat()}"
    text = template.safe_substitute(
        heading=heading, sections=render_sections(entries, args.with_hashes)
    )
    sys.stdout.write(text.rstrip("\n") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
