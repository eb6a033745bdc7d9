"""The plain frontmatter reader against libyaml: whatever it accepts must read to the same values
(types and key order included) and the same spans; everything else it must leave to libyaml."""

from __future__ import annotations

import datetime
import importlib.util
import math
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from studio.skills import parse
from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill
from studio.skills.model import Skill
from studio.skills.parse import parse_skill
from studio.skills.yaml.plainyaml import read_plain
from studio.skills.yaml.yamlload import load_yaml

REPO = Path(__file__).resolve().parents[2]
BASE = 4  # where the frontmatter starts in its file: after "---\n"


def typed(value: Any) -> Any:
    """`value` with every scalar's type kept, so that True and 1, or 1 and 1.0, differ; NaN
    equal to itself."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def libyaml_fields(raw: str) -> tuple[Any, list[tuple[str, Any, Any]]]:
    data, node = load_yaml(raw)
    assert isinstance(node, yaml.MappingNode) and not node.flow_style
    fields = [
        (key.value, parse._span(key.start_mark, key.end_mark, BASE),
         parse._span(value.start_mark, value.end_mark, BASE))
        for key, value in node.value
    ]
    return data, fields


def assert_same_reading(raw: str) -> bool:
    """Compare both readers on `raw` when the plain reader accepts it; say whether it did."""
    plain = read_plain(raw, BASE)
    if plain is None:
        return False
    data, fields = libyaml_fields(raw)
    assert typed(plain[0]) == typed(data)
    assert plain[1] == fields
    return True


GOOD_KEYS = st.sampled_from(["name", "description", "version", "tags", "metadata", "a", "x.y",
                             "a-b", "_k", "on_x", "Yes1", "n", "null_", "T"])
GOOD_VALUES = st.sampled_from([
    "x", "two words", "yes", "No", "~", "null", "0", "012", "0x1F", "1_000", "-3", "1.5", "1.0.0",
    "1e3", ".inf", ".NaN", "190:20:30", "2024-01-02", "2024-01-02 03:04:05", "2024-13-45",
    "2023-02-29 01:02:03", "a#b", "a: b", "a:",
    "https://x.y/z", "'s'", "'it''s'", "''", '"d"', '""', "[a, b]", "[]", "[1, yes, ~]",
    "[ q ]", "é ü", "😀 x", "x ", "<<", "=",
])
BAD_KEYS = st.sampled_from([
    "yes", "No",
    "on", "OFF", "null", "Null", "true", "y", "n", "1", "0x1F", "1_0", "~", "<<", "=", "a b", "-a",
    "?a", "k" * 120, "é", "a:b", "#a", "'q'", "[a]", "!t", "&a", "*a", ".inf", "2024-01-02",
])
# Mostly keys and values the reader takes, so that most examples test what it reads; the rest
# test that it leaves them alone.
KEYS = st.one_of(GOOD_KEYS, GOOD_KEYS, GOOD_KEYS, BAD_KEYS)
SCALARS = st.sampled_from([
    "x", "two words", "yes", "No", "on", "Off", "true", "FALSE", "y", "n", "~", "null", "NULL",
    "0", "012", "0o17", "0x1F", "0b101", "1_000", "+12", "-3", "1.5", "1.0.0", "1e3", "1.5e+3",
    ".inf", "-.Inf", ".NaN", "190:20:30", "2024-01-02", "2024-01-02 03:04:05",
    "2001-12-14t21:59:43.10-05:00", "<<", "=", "a: b", "a:", "a #b", "a#b", "a  #b", "https://x.y/z",
    "'s'", "'it''s'", "''", "'open", "'x'#c", "'x' y", '"d"', '""', '"a\\"b"', '"a\\nb"', '"open',
    "[a, b]", "[]", "[ ]", "[a,b,]", "[a, [b]]", "[a: b]", "[1, yes, ~]", "[ 'q' ]", "[a #b]",
    "{a: b}", "&a x", "*a", "!!str 1", "!t x", "|", ">-", "| #c", "@x", "`x`", "%x", "-", "- x",
    "?", "? x", ":x", ",x", "x,", "x ", "é ü", "😀", "a\tb", "\tx", "a\u2028b", "a\x85b",
    "a\ufeffb", "a\x7fb", "a\x00b", "a\rb", "\ue085",
])
TEXT = st.text(alphabet="ab :#-'\"[]{},&*!|>%@`?~.0e+_x\\\té\u2028\r", max_size=10)
VALUES = st.one_of(GOOD_VALUES, GOOD_VALUES, GOOD_VALUES, SCALARS, TEXT)
SEPARATORS = st.sampled_from([": ", ": ", ": ", ": ", ":  ", ":", " : ", ":\t", ": \t"])
COMMENTS = st.sampled_from(["", "", "", "", " # c", "#c", "  #", " "])
INDENTS = st.sampled_from([0, 1, 2, 2, 2, 2, 4])
BLOCK_HEADERS = st.sampled_from([
    "|", ">", "|", ">", "|-", ">-", "> ", "| # c", ">  #c", "|+", ">+", ">2", "|1-", ">-2", ">#c",
    "|x", ">\t",
])
# A block scalar's lines: text as indented as the first, empty, spaces, further or less indented,
# a comment at column 0.
BLOCK_LINES = st.sampled_from(["text"] * 6 + ["empty", "empty", "spaces", "deeper", "shallow",
                                             "comment"])


@st.composite
def lines(draw: st.DrawFn, clean: bool) -> list[str]:
    """The lines of one top-level field, or a comment, blank or junk line. `clean` ones use only
    keys and values the reader takes (with duplicates, comments and odd indents still)."""
    keys, values = (GOOD_KEYS, GOOD_VALUES) if clean else (KEYS, VALUES)
    kinds = ["field"] * 6 + ["empty", "list", "list", "map", "map", "comment", "blank", "block",
                             "block"]
    kind = draw(st.sampled_from(kinds if clean else [*kinds, "junk"]))
    key = draw(keys)
    if kind == "field":
        return [key + (": " if clean else draw(SEPARATORS)) + draw(values) + draw(COMMENTS)]
    if kind == "empty":
        return [key + ":" + draw(COMMENTS)]
    if kind in ("list", "map"):
        indent = draw(INDENTS)
        found = [key + ":" + draw(COMMENTS)]
        for _ in range(draw(st.integers(1, 3))):
            pad = " " * (indent if draw(st.integers(0, 19)) else draw(INDENTS))
            if kind == "list":
                found.append(pad + "-" + draw(st.sampled_from([" ", "  ", ""])) + draw(values)
                             + draw(COMMENTS))
            else:
                found.append(pad + draw(keys) + draw(SEPARATORS) + draw(values) + draw(COMMENTS))
            if draw(st.integers(0, 9)) == 0:
                found.append(draw(st.sampled_from(["", "# c", "  # c", "   "])))
        return found
    if kind == "block":
        indent = draw(st.sampled_from([1, 2, 2, 4]))
        found = [key + ": " + draw(BLOCK_HEADERS)]
        for _ in range(draw(st.integers(0, 5))):
            shape = draw(BLOCK_LINES)
            text = draw(values)
            found.append({
                "text": " " * indent + text,
                "empty": "",
                "spaces": " " * draw(st.integers(1, 6)),
                "deeper": " " * (indent + draw(st.integers(1, 2))) + text,
                "shallow": " " * draw(st.integers(0, indent - 1)) + text,
                "comment": "# " + text,
            }[shape])
        return found
    if kind == "comment":
        return [" " * draw(INDENTS) + "# " + draw(values)]
    if kind == "blank":
        return [" " * draw(INDENTS)]
    return [" " * draw(INDENTS) + draw(VALUES)]


@st.composite
def frontmatters(draw: st.DrawFn) -> str:
    clean = draw(st.booleans())
    groups = draw(st.lists(lines(clean), min_size=1, max_size=6))
    found = [line for group in groups for line in group]
    breaks = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "mixed"]))
    text = ""
    for line in found:
        text += line + (breaks if breaks != "mixed" else draw(st.sampled_from(["\n", "\r\n"])))
    if draw(st.booleans()) and draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text


@settings(max_examples=1500)
@given(frontmatters())
@example("name: x\ndescription: y\n")
@example("a:\n- x\n- y\nb: 1\n")
@example("a:\n  - x\n\n# c\n  - y\n\n  # z\nb: 1\n")
@example("a:\n  k: v\n  j: 'w' # c\nb: 1")
@example("a: 'x' #c\nb: \"y\"\r\nc: [x, 1, yes]\r\n")
@example("a: x\n  y\n")
@example("a: x\n- y\n")
@example("a:\n  k: v\n   j: w\n")
@example("a:\n  - x\n  y\n")
@example("a:\n  k: v\n  - x\n")
@example("name:\n    - x\n# c")  # the text ends in a comment left of the block, no newline
@example("name:\n    - x\n\n# c")
@example("a: b\na: c\n")
# Ending in fewer spaces than the block's indent, without a newline: libyaml ends the block there.
@example("name:\n  - x\n ")
@example("name:\n  - x\n  ")
@example("description: >\n  Reads files.\n  Use when asked.\n\n  Second paragraph.\nname: x\n")
@example("description: |-\n  one\n    two\n\n\n  # three\n\n# c\nname: x\n")
@example("description: >\n  x\n  y")  # libyaml's node ends inside the last line
@example("a: >\n  x\n   y\n")  # a line indented further in a folded block
def test_plain_reader_reads_as_libyaml_does(raw: str) -> None:
    assert_same_reading(raw)


@pytest.mark.parametrize("raw", [
    "name: x\ndescription: Reads files (see https://x.y/z#a); use when asked #1\n",
    "name: x\nversion: 1.0\nupdated: 2025-01-02\nuser-invocable: yes\nsize: 0x1F\nn: ~\n",
    "name: x\ntags: [a, b, 1]\nrequires:\n  - a>=1.0\n  - 'b'\nmetadata:\n  owner: me\n  n: 2\n",
    "name: x\r\ndescription: \"quoted\" # a comment\r\nlicense: 'it''s MIT'\r\n",
    "name: x\nempty:\nlist:\n- a\n- b\n# the end\n",
    "name: x\nname: y\n",
    "name: x\ndescription: >\n  Reads files.\n  Use when asked.\n\nlicense: MIT\n",
    "name: x\r\ndescription: |-\r\n  Reads files.\r\n\r\n    - indented\r\n# c\r\n",
    "name: x\ndescription: > # folded\n    Reads files.\n",
])
def test_plain_reader_takes_the_common_shapes(raw: str) -> None:
    assert assert_same_reading(raw)


@pytest.mark.parametrize("raw", [
    "name: x\ndescription: |+\n  block\n",
    "name: x\ndescription: >2\n   block\n",
    "name: x\ndescription: >\n  block\n    more indented\n",
    "name: x\ndescription: |\n\n  after an empty line\n",
    "name: x\ndescription: |\n  block\n   \n",
    "name: x\ndescription: a\n  continued\n",
    "name: 'x\n  y'\n",
    "name: \"a\\tb\"\n",
    "a: &x 1\nb: *x\n",
    "yes: x\n",
    "a:\n  b:\n    c: d\n",
    "a: {b: c}\n",
    "a: b\tc\n",
    "a: b\rc: d\n",
    "a: b\x85c\n",
    "# only a comment\n",
    "",
])
def test_plain_reader_leaves_the_rest_to_libyaml(raw: str) -> None:
    assert read_plain(raw, BASE) is None


def _without_plain_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse, "read_plain", lambda raw, base: None)


def comparable(skill: Skill) -> Any:
    frontmatter = skill.frontmatter
    fields = None
    if frontmatter is not None:
        fields = (typed(frontmatter.data), frontmatter.spans, frontmatter.duplicate_keys,
                  frontmatter.flow, frontmatter.raw, frontmatter.span)
    diagnostics = validate_skill(skill).diagnostics
    return (fields, skill.body, skill.body_span, skill.problems, diagnostics,
            [d.fix.edits if d.fix is not None else None for d in diagnostics])


def _corpus_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The benchmark's generator of public-shaped skills and the modules it imports, each loaded
    from its file (benchmarks/ is not a package) and gone from `sys.modules` after the test."""
    module = None
    for name in ("skillgen", "collection", "corpus"):
        spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
    return module


def test_shipped_and_public_shaped_skills_read_the_same_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus_module(monkeypatch).generate_corpus(tmp_path, 400, seed=15)
    folders = sorted(path.parent for path in (REPO / "skills").rglob("SKILL.md"))
    folders += sorted(path.parent for path in tmp_path.rglob("SKILL.md"))
    fast = [comparable(load_skill(folder)) for folder in folders]
    accepted = sum(
        read_plain(skill.frontmatter.raw, 0) is not None
        for skill in map(load_skill, folders) if skill.frontmatter is not None
    )
    _without_plain_reader(monkeypatch)
    slow = [comparable(load_skill(folder)) for folder in folders]
    for folder, one, other in zip(folders, fast, slow, strict=True):
        assert one == other, folder
    assert accepted > len(folders) * 0.9


def test_dates_and_numbers_keep_their_types() -> None:
    skill = parse_skill(b"---\nname: x\nupdated: 2025-01-02\nversion: 2.0\nn: 010\n---\n",
                        Path("x/SKILL.md"))
    assert skill.frontmatter is not None
    assert skill.frontmatter.data == {"name": "x", "updated": datetime.date(2025, 1, 2),
                                      "version": 2.0, "n": 8}


def test_the_characters_refused_are_those_outside_the_plain_ones() -> None:
    from studio.skills.yaml.plainyaml import _UNUSUAL

    plain = re.compile(
        "[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
    )
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    assert _UNUSUAL.findall(every) == plain.findall(every)


def test_ascii_text_is_judged_by_the_table_as_by_the_class() -> None:
    from studio.skills.yaml.plainyaml import _UNUSUAL, _UNUSUAL_ASCII

    for code in range(128):
        refused = _UNUSUAL.match(chr(code)) is not None
        assert _UNUSUAL_ASCII[code] == refused, code
        # First, last and only character, in ASCII text and beside a letter beyond it.
        for raw in (f"{chr(code)}name: x\n", f"name: x\n{chr(code)}", chr(code),
                    f"name: é\n{chr(code)}"):
            if refused:
                assert read_plain(raw, BASE) is None, (code, raw)


@pytest.mark.parametrize("raw", [
    "name: x\r\ndescription: y\r\n",
    "name: x\r\ndescription: y\n",
    "name: é\r\ndescription: y\r\n",
])
def test_crlf_alone_is_read(raw: str) -> None:
    assert_same_reading(raw)
    assert read_plain(raw, BASE) is not None


@pytest.mark.parametrize("raw", [
    "name: x\rdescription: y\n", "name: x\r\ndescription: y\r", "\rname: x\n",
    "name: é\rdescription: y\n", "name: x\tdescription: y\n", "name: é\tx\n",
    "name: x\x7f\n", "name: x\x85\n", "name: x\u2028\n", "name: x\ufeff\n",
])
def test_a_lone_cr_or_an_unusual_character_goes_to_libyaml(raw: str) -> None:
    assert read_plain(raw, BASE) is None
