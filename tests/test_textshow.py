"""Text a model or a tool controls is shown, never obeyed: every control, format, bidi and
zero-width character becomes a visible marker, and ordinary text of every script stays as it is."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from studio.textshow import (
    ProseStream,
    has_marked,
    marker,
    shown,
    shown_in_html,
    shown_json,
    shown_line,
    shown_prose,
)

HOSTILE = [
    ("\x1b]52;c;cm0gLXJmIH4=\x07", "\\e]52;c;cm0gLXJmIH4=\\a"),  # OSC 52: writes the clipboard
    ("\x1b]0;owned\x07", "\\e]0;owned\\a"),  # OSC 0: the window's title
    ("\x1b[2J\x1b[H", "\\e[2J\\e[H"),  # clears the screen
    ("rm -rf ~\x1b[2K\rls -la", "rm -rf ~\\e[2K\\rls -la"),  # hides a command behind another
    ("\x9b2J", "\\x9b2J"),  # C1 CSI
    ("\x1bP1$r\x1b\\", "\\eP1$r\\e\\"),  # DCS
    ("abc\u202edcba", "abc<U+202E>dcba"),  # bidi override
    ("a\u2066b\u2069c\u200ed\u200ff\u061cg", "a<U+2066>b<U+2069>c<U+200E>d<U+200F>f<U+061C>g"),
    ("pass\u200bword\u2060\ufeff", "pass<U+200B>word<U+2060><U+FEFF>"),  # zero-width
    ("a\x00b", "a\\x00b"),
    ("ding\x07", "ding\\a"),
    ("a\bb", "a\\bb"),  # overstrike
    ("x\u2028y\u2029z", "x<U+2028>y<U+2029>z"),
    ("\x7f\x85", "\\x7f\\x85"),
    ("hidden\U000e0041\U000e0042", "hidden<U+E0041><U+E0042>"),  # tags: invisible ASCII
]

ORDINARY = [
    "ls -la | grep '*.md'\n\tsecond line",
    "naïve café, e\u0301 combining, Ελληνικά, Русский, 日本語, 한국어",
    "مرحبا بالعالم, שלום עולם, हिन्दी, ไทย",
    "emoji 👍🏽 ✔️ 🇫🇷 and a backslash \\e that is text",
]


@pytest.mark.parametrize(("text", "expected"), HOSTILE)
def test_hostile_text_is_shown_as_markers(text: str, expected: str) -> None:
    assert shown(text) == expected
    assert shown_prose(text) == expected
    assert has_marked(text)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_left_as_it_is(text: str) -> None:
    assert shown(text) is text
    assert shown_prose(text) is text
    assert not has_marked(text)


def test_every_control_and_format_character_is_marked_and_nothing_else() -> None:
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        category = unicodedata.category(char)
        if category == "Cs":
            continue
        must = char not in "\n\t" and category in ("Cc", "Cf", "Zl", "Zp")
        # Unassigned here, a format character in a newer Unicode (the hieroglyph controls).
        may = category == "Cn"
        assert has_marked(char) is must or may, f"U+{code:04X} ({category})"


def test_prose_keeps_what_belongs_to_the_writing_and_commands_show_it() -> None:
    family = "👩\u200d👩\u200d👧"
    persian = "می\u200cخواهم"
    scotland = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    for text in (family, persian, scotland, "one\r\ntwo"):
        assert shown_prose(text) == text
        assert shown(text) != text
    assert shown("one\r\ntwo") == "one\\r\ntwo"
    assert shown_prose(" \u200d ") == " <U+200D> "
    assert shown_prose("a\u200d\u200db") == "a<U+200D><U+200D>b"
    assert shown_prose("\U000e0067\U000e007f") == "<U+E0067><U+E007F>"


def test_markers_name_what_was_there() -> None:
    assert [marker(c) for c in "\x1b\r\x01\x9b\u202e"] == ["\\e", "\\r", "\\x01", "\\x9b", "<U+202E>"]


@pytest.mark.parametrize("text", [
    "\x1b[2K\rls -la\r\nok\r", "👩\u200d💻 and \u200d alone\u200d", "flag 🏴\U000e0067\U000e0062\U000e007f!",
    "\x1b]52;c;SGk=\x07" * 3, "a\r", "\r\n\r\n", "",
] + [text for text, _ in HOSTILE] + ORDINARY)
def test_a_stream_in_any_pieces_shows_what_the_whole_text_shows(text: str) -> None:
    for size in (1, 2, 3, 7):
        stream = ProseStream()
        pieces = [text[i:i + size] for i in range(0, len(text), size)]
        assert "".join(stream.feed(piece) for piece in pieces) + stream.end() == shown_prose(text)


def test_an_escape_at_the_end_of_a_piece_never_passes() -> None:
    stream = ProseStream()
    first = stream.feed("colour \x1b")
    assert "\x1b" not in first
    assert first + stream.feed("[31mred") + stream.end() == "colour \\e[31mred"


def test_in_html_the_markers_are_text_not_tags() -> None:
    assert shown_in_html("<p>a\u202eb \x1b[2J</p>") == "<p>a&lt;U+202E&gt;b \\e[2J</p>"
    assert shown_in_html("<p>👩\u200d💻</p>") == "<p>👩\u200d💻</p>"


def test_json_escapes_keep_the_text_for_a_reader() -> None:
    import json
    data = {"text": "".join(text for text, _ in HOSTILE)}
    line = shown_json(json.dumps(data, ensure_ascii=False))
    assert not has_marked(line)
    assert json.loads(line) == data


def test_shown_line_keeps_a_value_on_one_line() -> None:
    assert shown_line("a\nb\x1b[2K\rc\u202e\td") == "a\\nb\\e[2K\\rc<U+202E>\td"
    assert shown_line("plain text") == "plain text"
