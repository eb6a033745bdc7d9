#!/usr/bin/env python3
"""Readability statistics for English prose: counts, sentence lengths, Flesch scores.

Reports words, sentences, paragraphs, average sentence and word length, Flesch Reading Ease,
Flesch-Kincaid grade, estimated reading time and the longest sentences with their line numbers.
With --markdown, code blocks, inline code, link targets, HTML and heading/list markers are
ignored. Writes to stdout only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from typing import Any

WORDS_PER_MINUTE = 238  # average silent reading speed for adult non-fiction (Brysbaert, 2019)
WORD = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:['\u2019][A-Za-z]+)*|\d+(?:[.,]\d+)*")
# A sentence ends at . ! ? (optionally followed by closing quotes or brackets) before whitespace
# and a capital letter, digit or opening quote, or at a blank line.
SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")
ABBREVIATIONS = {
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "cf", "fig",
    "no", "approx", "inc", "ltd", "co", "dept", "est", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "oct", "nov", "dec",
}
VOWEL_GROUPS = re.compile(r"[aeiouy]+")
BOUNDARY = "\x1e"


class InputError(Exception):
    """The text cannot be read or measured; the message says why."""


@dataclass
class Sentence:
    text: str
    line: int
    words: int


def syllables(word: str) -> int:
    """Estimate English syllables by counting vowel groups, with the usual silent-e corrections."""
    word = word.lower().strip("'\u2019")
    if not word.isalpha():
        return max(1, len(word) // 3) if word.isdigit() else 1
    if len(word) <= 3:
        return 1
    count = len(VOWEL_GROUPS.findall(word))
    if word.endswith("e") and not word.endswith(("le", "ee", "ye")):
        count -= 1
    if word.endswith(("ed", "es")) and not word.endswith(("ted", "ded", "ses", "zes", "ces",
                                                        "ges", "xes", "ches", "shes")):
        count -= 1
    return max(1, count)


def strip_markdown(text: str) -> str:
    """Blank out Markdown syntax but keep line breaks, so line numbers stay right.

    Headings and list items end a sentence even without a full stop: they are marked with
    BOUNDARY, which split_sentences treats like a paragraph break.
    """
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        closing = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), 0)
        lines[: closing + 1] = [""] * (closing + 1)
    keep_lines = []
    in_fence = False
    for line in lines:
        if re.match(r" {0,3}(```|~~~)", line):
            in_fence = not in_fence
            keep_lines.append("")
            continue
        if in_fence or line.startswith(("    ", "\t")):
            keep_lines.append("")
            continue
        heading = re.match(r" {0,3}#{1,6}\s+", line)
        item = re.match(r" *([-*+]|\d+[.)])\s+", line)
        line = re.sub(r"^ *(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)", "", line)
        if heading or item:
            line = BOUNDARY + line + (BOUNDARY if heading else "")
        line = re.sub(r"`[^`]*`", " ", line)
        line = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"<[^>]+>", " ", line)
        line = re.sub(r"[*_]{1,3}", "", line)
        if re.fullmatch(r"\s*([-*_=]\s*){3,}|\s*\|?[-:| ]+\|?\s*", line):
            line = ""
        keep_lines.append(line)
    return "\n".join(keep_lines)


def split_sentences(text: str) -> list[Sentence]:
    sentences: list[Sentence] = []
    offset_line = 1
    for block in re.split(r"(\n[ \t]*\n|" + BOUNDARY + ")", text):
        if not block.strip() or re.fullmatch(r"\n[ \t]*\n|" + BOUNDARY, block):
            offset_line += block.count("\n")
            continue
        pieces: list[tuple[str, int]] = []
        start = 0
        for match in SENTENCE_END.finditer(block):
            candidate = block[start:match.start()]
            last_word = re.findall(r"[\w.]+$", candidate.rstrip(".!?\"')]\u201d\u2019"))
            if candidate.endswith(".") and last_word and (
                    last_word[0].lower().rstrip(".") in ABBREVIATIONS or len(last_word[0]) == 1):
                continue
            pieces.append((candidate, start))
            start = match.end()
        pieces.append((block[start:], start))
        for piece, position in pieces:
            words = len(WORD.findall(piece))
            if words:
                lead = len(piece) - len(piece.lstrip())
                line = offset_line + block.count("\n", 0, position + lead)
                sentences.append(Sentence(" ".join(piece.split()), line, words))
        offset_line += block.count("\n")
    return sentences


def measure(text: str, top: int) -> dict[str, Any]:
    words = WORD.findall(text)
    if not words:
        raise InputError("the text has no words to measure")
    sentences = split_sentences(text)
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", text) if WORD.search(p)]
    syllable_counts = [syllables(word) for word in words]
    total_syllables = sum(syllable_counts)
    words_per_sentence = len(words) / len(sentences)
    syllables_per_word = total_syllables / len(words)
    ease = 206.835 - 1.015 * words_per_sentence - 84.6 * syllables_per_word
    grade = 0.39 * words_per_sentence + 11.8 * syllables_per_word - 15.59
    longest = sorted(sentences, key=lambda s: s.words, reverse=True)[:top]
    return {
        "words": len(words),
        "sentences": len(sentences),
        "paragraphs": len(paragraphs),
        "characters": sum(len(word) for word in words),
        "syllables": total_syllables,
        "words_per_sentence": round(words_per_sentence, 1),
        "syllables_per_word": round(syllables_per_word, 2),
        "complex_word_percent": round(
            100 * sum(1 for c in syllable_counts if c >= 3) / len(words), 1),
        "flesch_reading_ease": round(ease, 1),
        "flesch_kincaid_grade": round(grade, 1),
        "reading_minutes": round(len(words) / WORDS_PER_MINUTE, 1),
        "longest_sentences": [
            {"line": s.line, "words": s.words, "text": s.text} for s in longest
        ],
    }


def band(ease: float) -> str:
    bands = [(90, "very easy"), (80, "easy"), (70, "fairly easy"), (60, "plain English"),
             (50, "fairly difficult"), (30, "difficult")]
    return next((label for floor, label in bands if ease >= floor), "very difficult")


def render_text(report: dict[str, Any], source: str, long_limit: int) -> str:
    lines = [
        f"File: {source}",
        f"Words: {report['words']}   Sentences: {report['sentences']}   "
        f"Paragraphs: {report['paragraphs']}",
        f"Average sentence: {report['words_per_sentence']} words   "
        f"Average word: {report['syllables_per_word']} syllables   "
        f"Complex words (3+ syllables): {report['complex_word_percent']}%",
        f"Flesch Reading Ease: {report['flesch_reading_ease']} "
        f"({band(report['flesch_reading_ease'])})",
        f"Flesch-Kincaid Grade: {report['flesch_kincaid_grade']}",
        f"Reading time: about {max(1, round(report['reading_minutes']))} min",
        "",
        "Longest sentences:",
    ]
    for sentence in report["longest_sentences"]:
        flag = "  LONG" if sentence["words"] > long_limit else ""
        text = sentence["text"] if len(sentence["text"]) <= 90 else sentence["text"][:87] + "..."
        lines.append(f"  line {sentence['line']}: {sentence['words']} words{flag}: {text}")
    return "\n".join(lines) + "\n"


def read_text(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a text file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text; convert it or pass the text on stdin") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None


def count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Readability statistics for English text: counts, sentence lengths, "
                    "Flesch Reading Ease and Flesch-Kincaid grade.",
        epilog="Exit status: 0 report printed, 2 the text cannot be read or has no words.",
    )
    parser.add_argument("file", metavar="FILE", help="a UTF-8 text or Markdown file, or - for stdin")
    parser.add_argument("--markdown", action="store_true",
                        help="ignore Markdown syntax and code (default for .md files)")
    parser.add_argument("--top", type=count, default=3,
                        help="how many of the longest sentences to list (default: 3)")
    parser.add_argument("--long", type=count, default=25, metavar="WORDS",
                        help="mark sentences longer than this many words (default: 25)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default: text)")
    args = parser.parse_args(argv)

    try:
        text = read_text(args.file).replace("\r\n", "\n").replace("\r", "\n")
        if args.markdown or args.file.lower().endswith((".md", ".markdown")):
            text = strip_markdown(text)
        report = measure(text, args.top)
    except InputError as exc:
        print(f"text_stats: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        report["band"] = band(report["flesch_reading_ease"])
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(render_text(report, args.file, args.long))
    return 0


if __name__ == "__main__":
    sys.exit(main())
