"""Where skills written elsewhere list a placeholder's values, and the order of operands the
request means (issue 38): each shape read by the guided fill, nothing run."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from studio.agent.guided.arguments import parse_usage
from studio.agent.guided.fill import filled_spec
from studio.agent.guided.scriptvalues import script_values
from studio.agent.guided.values import Described, describe, listed_notes, referenced_files

PALETTE = "| palette name | looks like |\n|---|---|\n| harbour-blue | deep blue |\n| ripe-tomato | red |\n"


def values(body: str, names: list[str], usage: str,
           files: dict[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    read: Callable[[str], str | None] = (files or {}).get
    return {d.name: d.values for d in describe(names, body, read, [usage])}


@pytest.mark.parametrize(("body", "expected"), [
    # Code spans in the sentence naming it.
    ("FROM and TO are one letter each: `C`, `F` or `K`.", ("C", "F", "K")),
    # Prose without code spans: "either ... or", "X, Y or Z", "one of".
    ("MODE is either walking, running or cycling; MINUTES the duration.", ("walking", "running", "cycling")),
    ("MODE is fast or slow.", ("fast", "slow")),
    ("MODE must be one of up, down or nearest.", ("up", "down", "nearest")),
    # A bullet list introduced as the subcommands, before the usage line.
    ("Subcommands:\n\n- `up` - all capitals\n- `down` - small letters\n", ("up", "down")),
    # A table column named in the sentence, whatever its header.
    ("MODE takes a value from the Option column.\n\n| Meaning | Option |\n|---|---|\n| towards + | up |\n"
     "| towards - | down |\n", ("up", "down")),
    # A table whose header names the placeholder ("Mode"), not its first column.
    ("| Description | Mode |\n|---|---|\n| quick | fast |\n| careful | slow |\n", ("fast", "slow")),
])
def test_values_in_the_skill_body(body: str, expected: tuple[str, ...]) -> None:
    assert values(body, ["MODE", "FROM"], "python3 x.py MODE FROM")["MODE" if "MODE" in body or
                                                                     "Subcommands" in body or "Mode" in body
                                                                     else "FROM"] == expected


def test_a_prose_list_belongs_to_the_placeholder_it_follows() -> None:
    body = "`python3 area.py SHAPE SIZE` where SHAPE is circle, square or triangle and SIZE is the radius."
    found = values(body, ["SHAPE", "SIZE"], "python3 area.py SHAPE SIZE")
    assert found == {"SHAPE": ("circle", "square", "triangle"), "SIZE": ()}


@pytest.mark.parametrize("sentence", [
    "NAME must be one of the palette names listed in `references/PALETTE.md`.",
    "NAME must be one of the palette names listed in references/PALETTE.md.",
    "NAME is a name from PALETTE.md.",
])
def test_values_in_a_referenced_file_however_it_is_named(sentence: str) -> None:
    path = "PALETTE.md" if "references" not in sentence else "references/PALETTE.md"
    assert values(sentence, ["NAME"], "python3 hex.py NAME", {path: PALETTE})["NAME"] == (
        "harbour-blue", "ripe-tomato")


def test_a_file_the_skill_names_in_words_lists_the_values() -> None:
    body = "The sizes the script knows are listed in references/sizes.md."
    assert values(body, ["SIZE"], "python3 paper.py SIZE", {"references/sizes.md": "* A4\n* A5\n"})[
        "SIZE"] == ("A4", "A5")
    # A manual the line names is no list of values.
    manual = "- [references/schema-subset.md](references/schema-subset.md): supported keywords"
    subset = {"references/schema-subset.md": "- type\n- items\n"}
    assert values(manual, ["SCHEMA"], "python3 c.py SCHEMA", subset)["SCHEMA"] == ()
    assert referenced_files("see CODES.md and `references/a.txt`") == ["references/a.txt", "CODES.md"]


def test_the_column_the_sentence_names_wins_over_the_placeholders_word() -> None:
    rates = "| Code | Country |\n|---|---|\n| `de` | Germany |\n| `fr` | France |\n"
    body = "COUNTRY is one of the codes listed in references/rates.md."
    assert values(body, ["COUNTRY"], "python3 vat.py AMOUNT COUNTRY", {"references/rates.md": rates})[
        "COUNTRY"] == ("de", "fr")


SCRIPT = '''\
import argparse, sys
PALETTE = {"harbour-blue": "#1f5f8b", "ripe-tomato": "#e5533d"}
p = argparse.ArgumentParser()
p.add_argument("number", type=int)
p.add_argument("--to", choices=["bin", "oct", "hex"], required=True)
p.add_argument("mode", choices=("fast", "slow"))
if sys.argv[1] not in PALETTE:
    sys.exit("unknown")
'''


def test_values_read_from_a_python_script_never_run() -> None:
    usage = parse_usage("python3 x.py NUMBER MODE NAME --to BASE", "python3 x.py")
    assert usage is not None
    assert script_values(SCRIPT, usage) == {"BASE": ("bin", "oct", "hex"), "MODE": ("fast", "slow"),
                                            "NAME": ("harbour-blue", "ripe-tomato")}
    # A table the script only looks letters up in lists no values a user gives.
    assert script_values('T = {"A": ".-", "B": "-..."}\nprint([T[c] for c in "AB" if c in T])\n',
                         usage) == {}
    assert script_values("def broken(:\n", usage) == {}


def test_usage_lines_as_authors_write_them() -> None:
    braced = parse_usage("python3 x.py {upper,lower,title} TEXT", "python3 x.py")
    assert braced is not None and braced.required == ("CHOICE", "TEXT")
    assert dict(braced.choices) == {"CHOICE": ("upper", "lower", "title")}
    attached = parse_usage("python3 x.py --width=N FILE", "python3 x.py")
    assert attached is not None and attached.required == ("--width", "N", "FILE")
    stdin = parse_usage("python3 x.py < FILE", "python3 x.py")
    assert stdin is not None and stdin.required == ("<", "FILE")
    twice = parse_usage("python3 x.py VALUE --from UNIT --to UNIT", "python3 x.py")
    assert twice is not None and twice.required == ("VALUE", "--from", "UNIT", "--to", "UNIT_B")
    clock = parse_usage("python3 x.py HH:MM CITY", "python3 x.py")
    assert clock is not None and clock.placeholders == ["HH:MM", "CITY"]


def enums(usage: str, described: list[Described], request: str) -> dict[str, list[str]]:
    parsed = parse_usage(usage, "python3 x.py")
    assert parsed is not None
    spec = filled_spec("s", "python3 x.py", parsed, described, request.split(), request)
    return {name: p["enum"] for name, p in spec.parameters["properties"].items()
            if name not in ("skill", "script") and "enum" in p}


@pytest.mark.parametrize(("request_", "source", "target"), [
    ("What is 212 degrees Fahrenheit in Celsius?", "F", "C"),   # "F in C" is FROM F TO C
    ("How many Celsius is 212 Fahrenheit?", "F", "C"),         # the figure's unit is converted
    ("Convert from Kelvin to Celsius.", "K", "C"),              # no figure: as named
])
def test_the_order_of_operands_follows_the_meaning(request_: str, source: str, target: str) -> None:
    scales = ("C", "F", "K")
    found = enums("python3 x.py VALUE FROM TO", [Described("FROM", "", scales), Described("TO", "", scales)],
                  request_)
    assert (found["FROM"], found["TO"]) == ([source], [target])


def test_values_named_by_what_the_skill_says_of_them_are_ordered_too() -> None:
    codes, notes = ("EUR", "GBP"), ("euro", "pound sterling")
    found = enums("python3 x.py AMOUNT FROM TO", [Described("FROM", "", codes, notes),
                                                  Described("TO", "", codes, notes)],
                  "How many pounds sterling is 100 euros?")
    assert (found["FROM"], found["TO"]) == (["euro: EUR"], ["pound sterling: GBP"])


def test_what_a_list_says_of_values_found_elsewhere() -> None:
    body = ("Sizes the script knows:\n\n* `S` — small\n* `M` — medium\n* `L` — large\n\n"
            "| Factor | n |\n|---|---|\n| `S` | 1 |\n| `M` | 2 |\n")
    # The keys of a script's dict, with what the list says of each, in their order.
    assert listed_notes(("M", "S"), body) == ("medium", "small")
    # No list names them all; a table of figures says nothing a model maps a word to.
    assert listed_notes(("M", "XL"), body) == ()
    assert listed_notes(("S", "M"), body.split("Sizes")[0] + body.split("\n\n", 2)[2]) == ()


def test_a_list_of_the_usage_lines_own_placeholders_is_no_list_of_values() -> None:
    body = ("`python3 slab.py LENGTH WIDTH DEPTH`\n\nArguments:\n\n* LENGTH — in metres\n"
            "* WIDTH — in metres\n* DEPTH — in metres (a 100 mm slab is 0.1)\n")
    assert values(body, ["LENGTH", "WIDTH", "DEPTH"], "python3 slab.py LENGTH WIDTH DEPTH") == {
        "LENGTH": (), "WIDTH": (), "DEPTH": ()}
