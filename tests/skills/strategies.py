"""Hypothesis strategies for SKILL.md files: frontmatter fields, folder names and whole texts.

The strings are chosen around the spec's edges (64, 500 and 1024 characters, NFKC, case, hyphens)
and YAML's (typed scalars, `: `, `#`, quotes, block scalars), so that a few hundred examples reach
every rule of the validator and every scalar style of the writer.
"""

from __future__ import annotations

import datetime
import json
import string
import unicodedata
from dataclasses import dataclass
from typing import Any

import yaml
from hypothesis import strategies as st

ALLOWED_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
UNKNOWN_FIELDS = ("version", "author", "tags", "argument-hint", "x-internal", "Name", "NAME", "desc")
# Characters YAML 1.1 (libyaml) reads as line breaks and YAML 1.2 (skills-ref, and we) as text.
YAML11_BREAKS = "\x85\u2028\u2029"

_LOWER = string.ascii_lowercase + string.digits
_FULLWIDTH = {c: chr(ord(c) + 0xFEE0) for c in string.ascii_letters + string.digits}

VALID_NAMES = (
    "pdf-tools", "a", "x1", "data-analysis", "code-review-2", "café", "日本語", "naïve-søk",
    "straße", "привет-мир", "a" * 64, "ab-" * 21 + "a",
)
EDGE_NAMES = (
    "Pdf-Tools", "PDF", "pdf_tools", "pdf\u2028tools", "pdf tools", "pdf.tools", "-pdf", "pdf-", "-",
    "pdf--tools",
    "a" * 65, "a" * 63, "ｐｄｆ-ｔｏｏｌｓ", "ＰＤＦ", "ǅ", "ǆ", "ﬁle", "ﬁ" * 33, "Å", "㎒", "①", "x²",
    "", " ", "  pdf  ", "123", "007", "1-2", "true", "null", "~", "yes", "2024-01-01", "0x1f",
    "1e3", "1.5", ".inf", "1_000", "a: b", "a #b", "a#b", "'quoted'", '"dq"', "it's", "a\tb",
    "emoji-😀", "ab\u0301c", "Ⅻ", "ß",
)
DESCRIPTIONS = (
    "Extracts text from PDFs. Use when the user mentions PDF files.",
    "Does things.",
    "", " ", "\t", "a: b", "a --- b", "---", "x #comment", "# hash", "<b>bold</b> when asked",
    "multi\nline\ndescription", "ends with newline\n", "'single'", '"double"', "café ☕",
    "yes", "null", "~", "123", "1.5", "2024-01-01", "bell\x07", "tab\tinside",
)
LICENSES = ("MIT", "Apache-2.0", "Proprietary. LICENSE.txt has complete terms", "", "GPL: v3")
COMPATIBILITIES = ("Requires git and docker", "", " ", "Designed for Claude Code: needs network")
TOOLS = ("Bash(git:*) Read", "Read", "", "Bash(python:*)")


def _long(lengths: tuple[int, ...], word: str) -> st.SearchStrategy[str]:
    return st.sampled_from(lengths).map(lambda n: (word * n)[:n])


def _words(alphabet: str, min_size: int = 1, max_size: int = 12) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), min_size=min_size, max_size=max_size)


def one_in(draw: st.DrawFn, n: int) -> bool:
    """True about once in `n` draws (Hypothesis favours the ends of an integer range, so not 0)."""
    return draw(st.sampled_from(range(n))) == n // 2


typed_scalars: st.SearchStrategy[Any] = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=True, width=32),
    st.booleans(),
    st.none(),
    st.dates(datetime.date(1990, 1, 1), datetime.date(2100, 1, 1)),
)

printable_text = st.text(
    st.one_of(
        st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Co", "Cn")),
        st.sampled_from(YAML11_BREAKS),
    ),
    max_size=40,
)

generated_names: st.SearchStrategy[str] = st.one_of(
    st.lists(_words(_LOWER, 1, 10), min_size=1, max_size=4).map("-".join),
    _words(_LOWER + "-", 1, 70),
    _words(_LOWER + "-" + string.ascii_uppercase + "_. ", 1, 20),
    st.text(st.characters(categories=("Ll", "Lu", "Lt", "Lo", "Nd", "Nl", "No")), min_size=1,
            max_size=12),
)

def _mostly(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Strings from one of `strategies`, and a typed scalar about one time in twenty.

    (`st.one_of` flattens nested choices into equally likely branches, so weights need a draw.)
    """
    choices = [*strategies] * 19 + [typed_scalars] * len(strategies)
    return st.sampled_from(range(len(choices))).flatmap(lambda index: choices[index])


name_values: st.SearchStrategy[Any] = _mostly(
    st.sampled_from(VALID_NAMES), st.sampled_from(VALID_NAMES), st.sampled_from(EDGE_NAMES),
    generated_names,
)

description_values: st.SearchStrategy[Any] = _mostly(
    st.sampled_from(DESCRIPTIONS), _long((1, 1023, 1024, 1025, 1100), "Use when asked. "),
    printable_text,
)

compatibility_values: st.SearchStrategy[Any] = _mostly(
    st.sampled_from(COMPATIBILITIES), _long((499, 500, 501), "needs git "), printable_text,
)

license_values: st.SearchStrategy[Any] = _mostly(st.sampled_from(LICENSES))

tools_values: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(TOOLS),
    st.lists(st.sampled_from(("Bash", "Read", "Write(*)")), min_size=1, max_size=3),
)

metadata_values: st.SearchStrategy[Any] = st.one_of(
    st.dictionaries(st.sampled_from(("author", "version", "tags", "x")),
                    st.one_of(st.sampled_from(("me", "1.0", "a: b")), typed_scalars),
                    min_size=1, max_size=3),
    st.sampled_from((None, "just a string", {"nested": {"deep": "x"}, "list": ["a", "b"]})),
)

other_values: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(("1.0", "me", "[file]", "")), typed_scalars,
    st.lists(st.sampled_from(("a", "b")), max_size=2),
)

FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "name": name_values,
    "description": description_values,
    "license": license_values,
    "compatibility": compatibility_values,
    "metadata": metadata_values,
    "allowed-tools": tools_values,
}


@st.composite
def frontmatter_fields(draw: st.DrawFn) -> list[tuple[str, Any]]:
    """Ordered (key, value) pairs: name and description most of the time, the rest now and then."""
    keys: list[str] = []
    for key, chance in (("name", 0.92), ("description", 0.92)):
        if draw(st.floats(0, 1)) < chance:
            keys.append(key)
    keys += draw(st.lists(st.sampled_from(ALLOWED_FIELDS[2:]), unique=True, max_size=3))
    if one_in(draw, 5):
        keys += draw(st.lists(st.sampled_from(UNKNOWN_FIELDS), unique=True, min_size=1, max_size=2))
    keys = [key for key in draw(st.permutations(keys))]
    return [(key, draw(FIELD_VALUES.get(key, other_values))) for key in keys]


def fullwidth(text: str) -> str:
    return "".join(_FULLWIDTH.get(c, c) for c in text)


def usable_folder_name(text: str) -> bool:
    return (
        bool(text)
        and text not in (".", "..")
        and "/" not in text
        and "\x00" not in text
        and len(text.encode("utf-8")) <= 200
        and not any(unicodedata.category(c) in ("Cc", "Cs") for c in text)
    )


@st.composite
def folder_names(draw: st.DrawFn, name: Any) -> str:
    """A folder name for a skill called `name`: mostly the same, else a case, NFKC, spaced or
    other variant."""
    text = name if isinstance(name, str) else str(name)
    variant = draw(st.sampled_from(
        ("same", "same", "same", "same", "upper", "nfkc", "fullwidth", "suffix", "spaced", "other")
    ))
    folder = {
        "same": text,
        "upper": text.upper(),
        "nfkc": unicodedata.normalize("NFKC", text),
        "fullwidth": fullwidth(text),
        "suffix": text + "-x",
        "spaced": draw(st.sampled_from((" ", "\xa0", "\u3000"))).join(("", text.strip(), "")),
        "other": draw(st.sampled_from(VALID_NAMES)),
    }[variant]
    if variant != "spaced":
        folder = folder.strip()
    return folder if usable_folder_name(folder) else "skill"


# --- Writing frontmatter as YAML text --------------------------------------------------------


def _block(text: str, indicator: str, indent: str) -> str | None:
    """A literal or folded block scalar for `text`, or None when it cannot hold it exactly."""
    if not text.strip() or text != text.lstrip(" ") or "\t" in text or "\r" in text:
        return None
    chomp = "" if text.endswith("\n") and not text.endswith("\n\n") else "-"
    if text.endswith("\n\n"):
        return None
    lines = text.rstrip("\n").split("\n")
    if indicator == ">" and any(line == "" or line.startswith(" ") for line in lines):
        return None
    if indicator == ">":
        return None if len(lines) > 1 else f">{chomp}\n{indent}{lines[0]}"
    return f"|{chomp}\n" + "\n".join(f"{indent}{line}" if line else "" for line in lines)


def render_scalar(value: Any, style: str, indent: str) -> str:
    """`value` written in one scalar style; "plain" may well produce YAML that means something else."""
    if value is None:
        return {"plain": "", "tilde": "~"}.get(style, "null")
    if isinstance(value, bool | int | float | datetime.date):
        text = yaml.safe_dump(value, default_flow_style=True).removesuffix("\n...\n").strip()
        return text
    text = str(value)
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return json.dumps(text, ensure_ascii=False)
    if style == "double-ascii":
        return json.dumps(text)
    if style in ("|", ">"):
        block = _block(text, style, indent)
        if block is not None:
            return block
    if style == "dump":
        dumped = yaml.safe_dump(text, allow_unicode=True, width=10**6)
        return dumped.removesuffix("\n...\n").rstrip("\n")
    return text


SCALAR_STYLES = ("plain", "plain", "single", "double", "double-ascii", "|", ">", "dump", "tilde")


def render_value(draw: st.DrawFn, value: Any, indent: str) -> str:
    """The text after `key:` for `value`, including the newline before a nested block."""
    if isinstance(value, dict):
        if not value or one_in(draw, 10):
            return " " + yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
        inner = indent + "  "
        lines = [
            f"{inner}{key}:{_after_colon(render_value(draw, item, inner))}"
            for key, item in value.items()
        ]
        return "\n" + "\n".join(lines)
    if isinstance(value, list):
        if not value or one_in(draw, 10):
            return " " + yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
        inner = indent + "  "
        return "\n" + "\n".join(
            f"{inner}-{_after_colon(render_value(draw, item, inner + '  '))}" for item in value
        )
    style = draw(st.sampled_from(SCALAR_STYLES))
    return " " + render_scalar(value, style, indent + "  ")


def _after_colon(rendered: str) -> str:
    return rendered if rendered.startswith("\n") or rendered.strip() else ""


@st.composite
def frontmatter_yaml(draw: st.DrawFn, fields: list[tuple[str, Any]]) -> str:
    """`fields` as YAML text ending in a newline: pyyaml's block or flow dump, or by hand."""
    how = draw(st.sampled_from(("hand",) * 10 + ("dump",) * 5 + ("dump-flow",)))
    if how != "hand" and fields:
        data = dict(fields)
        return yaml.safe_dump(
            data, sort_keys=False, allow_unicode=draw(st.booleans()),
            default_flow_style=None if how == "dump-flow" else False,
            width=draw(st.sampled_from((80, 10**6))),
        )
    lines = []
    for key, value in fields:
        rendered = render_value(draw, value, "")
        lines.append(f"{key}:{_after_colon(rendered)}")
        if one_in(draw, 16):
            lines.append(draw(st.sampled_from(("# a comment", "", "  # indented comment"))))
    if lines and one_in(draw, 30):
        lines.append(draw(st.sampled_from(lines)))
    return "".join(line + "\n" for line in lines)


BODY_PARTS = (
    "# Title", "Run `scripts/extract.py` first.", "See [the guide](references/guide.md).",
    "![logo](assets/logo.png)", "---", "Some text: with a colon.", "", "- a list item",
    "```bash\npython scripts/run.py\n```", "[web](https://example.com/x.md)",
)

bodies = st.lists(st.sampled_from(BODY_PARTS), max_size=6).map("\n".join)


@dataclass(frozen=True)
class SkillCase:
    """One generated skill: the fields it was written from, its folder name and SKILL.md bytes."""

    fields: tuple[tuple[str, Any], ...]
    folder: str
    text: str
    newline: str
    bom: bool

    @property
    def data(self) -> bytes:
        text = self.text.replace("\n", self.newline)
        return (("\ufeff" if self.bom else "") + text).encode("utf-8")


@st.composite
def skill_cases(draw: st.DrawFn) -> SkillCase:
    fields = draw(frontmatter_fields())
    name = dict(fields).get("name", draw(st.sampled_from(VALID_NAMES)))
    folder = draw(folder_names(name))
    yaml_text = draw(frontmatter_yaml(fields))
    opening = draw(st.sampled_from(("---", "---", "---", "--- ")))
    closing = draw(st.sampled_from(("---", "---", "---", "---  ")))
    body = draw(bodies)
    text = f"{opening}\n{yaml_text}{closing}\n{body}"
    if draw(st.booleans()):
        text += "\n"
    with_bom = one_in(draw, 30)
    newline = draw(st.sampled_from(("\n", "\n", "\n", "\r\n", "\r\n", "\r")))
    return SkillCase(tuple(fields), folder, text, newline, with_bom)


# --- Arbitrary YAML and arbitrary text, for the fuzz tests -----------------------------------

yaml_scalars: st.SearchStrategy[Any] = st.one_of(
    st.text(max_size=30), typed_scalars, st.sampled_from(VALID_NAMES + EDGE_NAMES)
)

yaml_values: st.SearchStrategy[Any] = st.recursive(
    yaml_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(ALLOWED_FIELDS + UNKNOWN_FIELDS), yaml_scalars),
                        children, max_size=4),
    ),
    max_leaves=12,
)

YAML_PUNCTUATION = (
    "&a ", "*a", "!", "!!str ", "%", "@", "`", "{", "}", "[", "]", "|", ">", "---", "...", "? ",
    ": ", "- ", "#", "'", '"', ",", "\\", "\t", "\n", "\n  ", "\r", "<<: ", "name: ", "description: ",
    "metadata:\n  ", "\ufeff", "\x85", "\u2028", "\x00", "\x07", "é", "日本",
)

yaml_like_text: st.SearchStrategy[str] = st.lists(
    st.one_of(st.sampled_from(YAML_PUNCTUATION), st.text(max_size=6)), max_size=40
).map("".join)


@st.composite
def yaml_documents(draw: st.DrawFn) -> str:
    """Frontmatter text: pyyaml's dump of an arbitrary structure, or YAML-flavoured noise."""
    if draw(st.booleans()):
        return yaml.safe_dump(
            draw(st.dictionaries(st.sampled_from(ALLOWED_FIELDS + UNKNOWN_FIELDS), yaml_values,
                                 max_size=6)
                 if draw(st.booleans()) else yaml_values),
            sort_keys=False, allow_unicode=draw(st.booleans()),
            default_flow_style=draw(st.sampled_from((False, None, True))),
        )
    return draw(yaml_like_text)


@st.composite
def skill_texts(draw: st.DrawFn) -> str:
    """A SKILL.md: arbitrary YAML between `---` lines (or a broken fence), then a body."""
    document = draw(yaml_documents())
    opening = draw(st.sampled_from(("---\n", "---\n", "---\n", "--- \n", "---", "")))
    closing = draw(st.sampled_from(("---\n", "---\n", "---\n", "---", "...\n", "")))
    body = draw(st.one_of(bodies, yaml_like_text))
    text = opening + document + closing + body
    if one_in(draw, 4):
        text = text.replace("\n", "\r\n")
    if one_in(draw, 8):
        text = "\ufeff" + text
    return text
