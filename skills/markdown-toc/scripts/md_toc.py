#!/usr/bin/env python3
"""Generate or refresh a table of contents for a Markdown file.

Headings become a nested list of links using GitHub's anchor rules. By default the table is printed
to stdout; with --write it replaces the text between the markers <!-- toc --> and
<!-- tocstop --> in the file itself (and nothing else); with --check it only reports whether that
table is up to date.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import unicodedata
from dataclasses import dataclass

START_MARKER = "<!-- toc -->"
END_MARKER = "<!-- tocstop -->"
ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]")
HTML_TAG = re.compile(r"<[^>]+>")
BLOCK_START = re.compile(r" {0,3}([-*+>]|\d{1,9}[.)])(\s|$)")
EMPHASIS = re.compile(r"(\*{1,3}|_{1,3}|~~)(\S(?:.*?\S)?)\1")


class TocError(Exception):
    """The file cannot be used; the message says why and what to do."""


@dataclass
class Heading:
    level: int
    text: str
    line: int


def plain(text: str) -> str:
    """Heading text as a reader sees it: links, code marks, emphasis and HTML removed."""
    text = LINK.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    text = HTML_TAG.sub("", text)
    text = re.sub(r"`+([^`]*)`+", r"\1", text)
    for _ in range(3):
        text = EMPHASIS.sub(r"\2", text)
    return text.strip()


def slug(text: str) -> str:
    """GitHub's anchor: lowercase, punctuation dropped, spaces to hyphens."""
    kept = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char in " -":
            kept.append("-" if char == " " else char)
        elif char == "_" or category[0] in ("L", "N") or category == "Mn":
            kept.append(char)
    return "".join(kept)


def front_matter_end(lines: list[str]) -> int:
    """Number of lines taken by YAML front matter at the top (0 when there is none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return index + 1
    return 0


def headings(lines: list[str]) -> list[Heading]:
    found: list[Heading] = []
    fence = ""
    in_toc = False
    previous = ""
    skip = front_matter_end(lines)
    for number, raw in enumerate(lines, start=1):
        if number <= skip:
            continue
        line = raw.rstrip("\n")
        stripped = line.strip()
        fence_match = FENCE.match(line)
        if fence:
            closing = fence_match.group(1) if fence_match else ""
            if closing[:1] == fence[0] and len(closing) >= len(fence) and \
                    not line[fence_match.end():].strip():
                fence = ""
            previous = ""
            continue
        if fence_match:
            fence = fence_match.group(1)
            previous = ""
            continue
        if stripped == START_MARKER:
            in_toc = True
        elif stripped == END_MARKER:
            in_toc = False
        if in_toc or line.startswith(("    ", "\t")):
            previous = ""
            continue
        atx = ATX.fullmatch(line)
        setext = SETEXT.fullmatch(line)
        if atx:
            found.append(Heading(len(atx.group(1)), plain(atx.group(2) or ""), number))
            previous = ""
        elif setext and previous.strip() and not BLOCK_START.match(previous):
            found.append(Heading(1 if setext.group(1)[0] == "=" else 2, plain(previous), number - 1))
            previous = ""
        else:
            previous = line
    return [heading for heading in found if heading.text]


def build_toc(found: list[Heading], min_level: int, max_level: int) -> list[str]:
    counts: dict[str, int] = {}
    entries: list[tuple[int, str, str]] = []
    for heading in found:
        # Anchors are numbered over all headings, including those left out of the table.
        base = slug(heading.text)
        count = counts.get(base, 0)
        counts[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
        if min_level <= heading.level <= max_level:
            entries.append((heading.level, heading.text, anchor))
    if not entries:
        return []
    top = min(level for level, _, _ in entries)
    label_escape = str.maketrans({"[": r"\[", "]": r"\]"})
    toc: list[str] = []
    depth = -1
    for heading_level, text, anchor in entries:
        # A skipped level (## then ####) nests one step only; deeper indentation would turn the
        # entry into a code block.
        depth = min(heading_level - top, depth + 1)
        toc.append(f"{'  ' * depth}- [{text.translate(label_escape)}](#{anchor})")
    return toc


def read_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read().splitlines(keepends=True)
    except FileNotFoundError:
        raise TocError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TocError(f"{path}: is a folder, not a Markdown file") from None
    except UnicodeDecodeError:
        raise TocError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise TocError(f"{path}: cannot read: {exc.strerror}") from None


def marker_block(lines: list[str], path: str) -> tuple[int, int]:
    """Line indexes of the start and end markers."""
    starts = [i for i, line in enumerate(lines) if line.strip() == START_MARKER]
    ends = [i for i, line in enumerate(lines) if line.strip() == END_MARKER]
    if not starts or not ends:
        raise TocError(
            f"{path}: no {START_MARKER} ... {END_MARKER} markers; add both on lines of their own "
            "where the table should go, then run again"
        )
    if len(starts) > 1 or len(ends) > 1:
        raise TocError(f"{path}: the markers appear more than once; keep one pair")
    if ends[0] < starts[0]:
        raise TocError(f"{path}: {END_MARKER} comes before {START_MARKER}; swap them")
    return starts[0], ends[0]


def replace_block(lines: list[str], toc: list[str], path: str) -> list[str]:
    start, end = marker_block(lines, path)
    newline = "\r\n" if lines[start].endswith("\r\n") else "\n"
    block = [newline] + [entry + newline for entry in toc] + [newline]
    return lines[: start + 1] + block + lines[end:]


def write_atomically(path: str, text: str) -> None:
    path = os.path.realpath(path)  # a symlinked file stays a symlink; its target is updated
    folder = os.path.dirname(path)
    mode = os.stat(path).st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".md_toc-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def level(text: str) -> int:
    if text not in {"1", "2", "3", "4", "5", "6"}:
        raise argparse.ArgumentTypeError(f"expected a heading level from 1 to 6, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Print, refresh or check a Markdown table of contents.",
        epilog=f"--write and --check use the lines between {START_MARKER} and {END_MARKER}. "
               "Exit status: 0 done or up to date, 1 the table is out of date (--check), "
               "2 the file or an option cannot be used.",
    )
    parser.add_argument("file", metavar="FILE", help="the Markdown file")
    parser.add_argument("--min-level", type=level, default=2,
                        help="shallowest heading level to include (default: 2, skips the title)")
    parser.add_argument("--max-level", type=level, default=3,
                        help="deepest heading level to include (default: 3)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true",
                      help="replace the table between the markers in FILE")
    mode.add_argument("--check", action="store_true",
                      help="exit 1 if the table between the markers is out of date")
    args = parser.parse_args(argv)
    if args.min_level > args.max_level:
        parser.error("--min-level is greater than --max-level")

    try:
        lines = read_lines(args.file)
        toc = build_toc(headings(lines), args.min_level, args.max_level)
        if not toc:
            raise TocError(
                f"{args.file}: no headings between levels {args.min_level} and {args.max_level}; "
                "try --min-level 1"
            )
        if not (args.write or args.check):
            print("\n".join(toc))
            return 0
        updated = replace_block(lines, toc, args.file)
        if args.check:
            if updated == lines:
                print(f"{args.file}: table of contents is up to date")
                return 0
            print(f"{args.file}: table of contents is out of date; run with --write")
            return 1
        if updated == lines:
            print(f"{args.file}: table of contents already up to date; nothing written")
            return 0
        write_atomically(args.file, "".join(updated))
    except TocError as exc:
        print(f"md_toc: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"md_toc: cannot write {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"{args.file}: table of contents updated ({len(toc)} entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
