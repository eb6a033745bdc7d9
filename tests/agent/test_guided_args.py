"""The arguments of a guided run: usage lines read, each placeholder filled with the words of the
user's message that fit it (made-up skills' usage lines, not only the shipped ones)."""

from __future__ import annotations

import pytest

from studio.agent.guided.arguments import Usage, affinity, fill, parse_usage, script_usage

START = "python3 scripts/tool.py"


@pytest.mark.parametrize(("line", "usage"), [
    (f"{START} VALUE FROM TO [TO ...]", Usage(("VALUE", "FROM", "TO"), repeated=("TO",))),
    (f"{START} SCHEMA DOCUMENT [DOCUMENT ...]", Usage(("SCHEMA", "DOCUMENT"), repeated=("DOCUMENT",))),
    # However a writer says a placeholder repeats, it takes one value or more.
    (f"{START} FILE...", Usage(("FILE",), repeated=("FILE",))),
    (f"{START} --top K FILE ...", Usage(("--top", "K", "FILE"), repeated=("FILE",))),
    (f"{START} [N]...", Usage((), (("N",),), repeated=("N",))),
    (f"{START} [WORD...]", Usage((), (("WORD",),), repeated=("WORD",))),
    (f"{START} LOG [--release VERSION] [--date DATE] [--with-hashes]",
     Usage(("LOG",), (("--release", "VERSION"), ("--date", "DATE"), ("--with-hashes",)))),
    (f"{START} --input FILE --out DEST", Usage(("--input", "FILE", "--out", "DEST"))),
    (f"{START} FILE --check", Usage(("FILE", "--check"))),
    (f"cat x | {START} IN_FILE > out.txt", Usage(("IN_FILE",))),
    (f"{START} N [[--deep] LEVEL]", Usage(("N",))),
    # An operand after the optional groups is still required.
    (f"{START} [--mode MODE] TEXT", Usage(("TEXT",), (("--mode", "MODE"),))),
    (f"{START} [--mode MODE] TEXT as the user wrote it", Usage(("TEXT",), (("--mode", "MODE"),))),
])
def test_a_usage_line_is_read_into_required_words_and_optional_groups(line: str, usage: Usage) -> None:
    assert parse_usage(line, START) == usage


@pytest.mark.parametrize("line", [
    f"{START} 1.5 GiB MB",  # an example, not a usage line
    f"{START} --list volume",
    f"{START} --check",
    "python3 scripts/other.py FILE",
    f"{START}",
])
def test_an_example_or_another_scripts_line_is_no_usage_line(line: str) -> None:
    assert parse_usage(line, START) is None


@pytest.mark.parametrize(("placeholder", "word", "score"), [
    ("SCHEMA", "assets/api.schema.json", 3),  # names it, and a path
    ("SCHEMA", "schema", 0),  # the word itself is not a file
    ("DOCUMENT", "assets/api.schema.json", 1),
    ("FILE", "Profile", 0),
    ("FILE", "notes.txt", 1),
    ("CSV", "orders.csv", 3),
    ("VALUE", "26.2", 1),
    ("VALUE", "3/4", 1),
    ("VALUE", "miles", 0),
    ("COUNT", "1.5e3", 1),
    ("FILE", "26.2", 0),
    ("DATE", "2024-03-10", 1),
    ("VERSION", "1.4.0", 1),
    ("VERSION", "2024-03-10", 0),
    ("URL", "https://example.org/x.json", 1),
    ("FILE", "https://example.org/x.json", 0),
    ("FROM", "miles", 0),
    # A placeholder written as a format takes what matches it.
    ("HH:MM", "12:00", 1),
    ("HH:MM", "9:30", 1),
    ("HH:MM", "UTC", 0),
    ("DD/MM", "2024-01-02", 0),
])
def test_a_words_affinity_to_a_placeholder(placeholder: str, word: str, score: int) -> None:
    assert affinity(placeholder, word) == score


def test_two_files_go_where_their_names_say_whatever_order_the_user_gave() -> None:
    usage = Usage(("SCHEMA", "DOCUMENT"))
    words = ["Check", "data/order.json", "against", "order.schema.json", "please"]
    assert fill(usage, words, 100) == ["order.schema.json data/order.json"]


def test_a_number_placeholder_takes_only_numbers_and_the_others_stay_open() -> None:
    filled = fill(Usage(("VALUE", "FROM", "TO")), ["many", "km", "26.2", "miles"], 100)
    assert filled is not None and len(filled) == 6
    assert all(arguments.startswith("26.2 ") for arguments in filled)
    assert "26.2 miles km" in filled


def test_an_optional_group_is_filled_only_when_a_word_fits_it() -> None:
    usage = parse_usage(f"{START} LOG [--release VERSION] [--date DATE] [--with-hashes]", START)
    assert usage is not None
    words = ["Draft", "release", "1.4.0", "from", "logs/git-log.txt"]
    assert fill(usage, words, 100) == ["logs/git-log.txt --release 1.4.0"]
    assert fill(usage, [*words, "2024-03-10"], 100) == [
        "logs/git-log.txt --release 1.4.0 --date 2024-03-10"]
    assert fill(usage, ["changelog", "logs/git-log.txt"], 100) == ["logs/git-log.txt"]


def test_without_a_word_that_fits_a_placeholder_every_word_may_fill_it() -> None:
    assert fill(Usage(("NAME",)), ["Greet", "Bo"], 100) == ["Greet", "Bo"]
    # Both placeholders fit only one word: distinct words are taken from all of them.
    filled = fill(Usage(("FILE", "OUTPUT")), ["a.txt", "b"], 100)
    assert filled == ["a.txt b", "b a.txt"]


def test_too_many_commands_or_too_few_words_fill_nothing() -> None:
    words = [f"w{i}" for i in range(10)]
    assert fill(Usage(("A", "B", "C")), words, 100) is None
    assert fill(Usage(("A", "B")), ["one"], 100) is None
    assert fill(Usage(("A",)), [], 100) is None


@pytest.mark.parametrize(("text", "line"), [
    ('"""Counts words.\n\nUsage: tool.py FILE [--top N]\n"""\n', f"{START} FILE [--top N]"),
    ("#!/usr/bin/env python3\n# usage: python3 scripts/tool.py VALUE UNIT\n", f"{START} VALUE UNIT"),
    ('"""usage: %(prog)s FILE"""', f"{START} FILE"),
    # The message's closing quote and bracket are not the usage line's (TEXT was cut off).
    ('import sys\nsys.exit("usage: tool.py {encode,decode} TEXT")\n', f"{START} {{encode,decode}} TEXT"),
    ('"""Counts words."""\nimport sys\n', None),
    ('"""Usage: other.py FILE"""', None),
    ("x = 1\n" * 2000 + "# usage: tool.py FILE\n", None),  # past the script's head
])
def test_a_scripts_own_usage_line_is_read_from_its_head(text: str, line: str | None) -> None:
    assert script_usage(text, "scripts/tool.py", START) == line
