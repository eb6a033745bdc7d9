"""What the guided fill decides itself from the user's message, leaving the model only the choices:
every value of a repeated placeholder, a value beside a word naming a placeholder or its option, a
value one placeholder took being no other's, JSON written in the message, the columns of a CSV
file it names (made-up skills of the shapes authors write, issue 38)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.agent.guided.arguments import json_values, parse_usage
from studio.agent.guided.columns import column_values
from studio.agent.guided.dates import iso_dates
from studio.agent.guided.fill import allowed_commands, compose, filled_spec, named_values
from studio.agent.guided.replies import Guide
from studio.agent.guided.values import Described
from studio.agent.tools import SkillToolbox
from studio.llm import Message, ToolCall
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.skills.helpers import frontmatter, write_skill

START = "python3 x.py"


def spec_for(usage_line: str, request: str, described: list[Described] | None = None) -> dict[str, dict]:
    usage = parse_usage(f"{START} {usage_line}", START)
    assert usage is not None
    words = [w.strip(".,?!\"") for w in request.split() if '"' not in w]
    candidates = [*json_values(request), *iso_dates(request), *filter(None, words)]
    spec = filled_spec("s", START, usage, described or [], candidates, request)
    return {name: p for name, p in spec.parameters["properties"].items() if name not in ("skill", "script")}


def enums(usage_line: str, request: str, described: list[Described] | None = None) -> dict[str, list[str]]:
    return {name: p.get("enum", []) for name, p in spec_for(usage_line, request, described).items()}


def command(usage_line: str, **values: str) -> str:
    usage = parse_usage(f"{START} {usage_line}", START)
    assert usage is not None
    call = ToolCall("1", "run_skill_script", {"skill": "s", "script": START, **values})
    return str(compose(call, usage).arguments["command"])


@pytest.mark.parametrize(("usage", "request_", "expected"), [
    ("N [N ...]", "What is the sum of 3, 5 and 9?", "3 5 9"),
    ("NUMBER...", "Multiply 2 by 7.5", "2 7.5"),
    ("[VALUE]...", "The largest of 12 and -4?", "12 -4"),
    ("FILE ...", "How many lines are in notes.txt and todo.md?", "notes.txt todo.md"),
])
def test_a_repeated_placeholder_takes_every_value_of_its_kind_in_order(
        usage: str, request_: str, expected: str) -> None:
    name = re.sub(r"[^A-Z]", "", usage.split()[0])
    assert enums(usage, request_)[name] == [expected]
    # Each value its own argument.
    assert command(usage, **{name: expected}) == f"{START} {expected}"


def test_a_repeated_placeholder_leaves_the_values_other_placeholders_take() -> None:
    found = enums("SCHEMA DOCUMENT [DOCUMENT ...]", "Check a.json and b.json against api.schema.json")
    assert found == {"SCHEMA": ["api.schema.json"], "DOCUMENT": ["a.json b.json"]}


def test_a_repeated_value_is_never_an_option() -> None:
    # A free value the model wrote is split into arguments; a part like an option is dropped.
    assert command("WORD [WORD ...]", WORD="'big cat' --delete -3") == f"{START} 'big cat' -3"


def test_an_optional_flag_the_message_names_with_a_value_is_kept() -> None:
    usage = "--price AMOUNT --items N [--discount PERCENT]"
    found = enums(usage, "The price is 80 for 3 items with a 15 percent discount.")
    # "15 percent" names PERCENT, "3 items" names `--items N`: decided, no blank for the option;
    # AMOUNT keeps the one number no other placeholder took.
    assert found == {"AMOUNT": ["80"], "N": ["3"], "PERCENT": ["15"]}
    # The option's own word names it too ("discount of 15").
    assert enums(usage, "Price 80, 3 items, discount of 15")["PERCENT"] == ["15"]
    # Not named: it may be left out.
    assert "" in enums(usage, "The price is 80 for 3 items.")["PERCENT"]


def test_a_value_one_placeholder_takes_is_offered_to_no_other() -> None:
    found = enums("TABLE KEY", "Look up the region of north in data/regions.csv")
    assert found["TABLE"] == ["data/regions.csv"]
    assert "data/regions.csv" not in found["KEY"] and "north" in found["KEY"]


def test_json_the_message_writes_is_one_value() -> None:
    request = 'Average the score of [{"score": 2}, {"score": 4.5}] please'
    assert json_values(request) == ['[{"score": 2}, {"score": 4.5}]']
    found = enums("KEY 'JSON'", request, [Described("JSON", "JSON is a list of objects.", ())])
    assert found["JSON"] == ['[{"score": 2}, {"score": 4.5}]']
    assert command("KEY 'JSON'", KEY="score", JSON='[{"score": 2}]') == f"{START} score '[{{\"score\": 2}}]'"
    # A placeholder named for JSON takes it whatever the skill says.
    assert enums("DATA_JSON", request)["DATA_JSON"] == ['[{"score": 2}, {"score": 4.5}]']


def test_the_columns_of_a_csv_file_the_message_names() -> None:
    files = {"assets/marks.csv": "pupil,maths,art\nann,7,9\n", "tab.tsv": "a\tb\tc\n"}
    said = "FIELD is the name of a column in the header."
    found = column_values("FIELD", said, "Sum maths in assets/marks.csv", files.get)
    assert found == ("pupil", "maths", "art")
    assert column_values("COL", "", "Sort ./tab.tsv", files.get) == ("a", "b", "c")
    # A header cell that would be an option is no value.
    files["odd.csv"] = "name,--delete,size\n"
    assert column_values("COLUMN", "", "Sum odd.csv", files.get) == ("name", "size")
    # The file's own placeholder takes the file, not its columns.
    assert column_values("CSV", "CSV column tool", "Sum maths in assets/marks.csv", files.get) == ()
    # Not about a column; a file that is not there.
    assert column_values("NAME", "the name", "Sum maths in assets/marks.csv", files.get) == ()
    assert column_values("COLUMN", "", "Sum maths in other.csv", files.get) == ()


def test_every_command_a_pinned_spec_allows() -> None:
    usage = parse_usage(f"{START} A [--b B]", START)
    assert usage is not None
    spec = filled_spec("s", START, usage, [Described("A", "", ("x", "y"))], ["7"], "A is x or y, b 7")
    allowed = allowed_commands(spec, usage, [Described("A", "", ("x", "y"))])
    assert allowed is not None and f"{START} x --b 7" in allowed and len(allowed) == 2


GUESS_MD = frontmatter("guess", "Totals a column of a table.").replace("Body.\n", """\
```
python3 scripts/total.py TABLE COLUMN
```

COLUMN is the header name of the column.
""")
GUESS_PY = "import sys\nsys.exit(f'no column {sys.argv[2]!r}')\n"


@pytest.fixture
def guide(tmp_path: Path) -> Guide:
    root = tmp_path / "skills"
    write_skill(root, "guess", GUESS_MD, {"scripts/total.py": GUESS_PY,
                                          "assets/sales.csv": "region,amount\nnorth,3\n"})
    box = SkillToolbox(scan_root(SkillRoot(root)).skills, tmp_path)
    found = Guide(box)
    found.fills = True
    return found


def turn(request: str, *runs: tuple[str, str]) -> list[Message]:
    messages = [Message("user", request),
                Message("assistant", "", [ToolCall("a", "activate_skill", {"name": "guess"})]),
                Message("tool", "<skill_content ...>", tool_call_id="a")]
    for index, (ran, result) in enumerate(runs):
        messages += [Message("assistant", "", [ToolCall(f"r{index}", "run_skill_script",
                                                        {"skill": "guess", "command": ran})]),
                     Message("tool", result, tool_call_id=f"r{index}")]
    return messages


def test_the_column_is_decided_from_the_header_of_the_file_the_message_names(guide: Guide) -> None:
    step = guide.step(turn("What is the total amount in assets/sales.csv?"), None, 256)
    run = step.schema["properties"]["arguments"]["properties"]
    assert run["TABLE"]["enum"] == ["assets/sales.csv"] and run["COLUMN"]["enum"] == ["amount"]


def test_a_failed_command_whose_values_were_all_decided_is_still_repaired(guide: Guide) -> None:
    failed = ("python3 scripts/total.py assets/sales.csv amount",
              "exit code 1 after 0.1 s\nno column 'amount'\n")
    step = guide.step(turn("What is the total amount in assets/sales.csv?", failed), None, 256)
    # Every value was decided, and that command failed: the repair runs another one (the
    # header's other column), never the failed one again.
    assert step.require_call
    commands = [branch["properties"]["arguments"]["properties"]["command"]["enum"]
                for branch in step.schema.get("oneOf", [step.schema])
                if branch["properties"]["tool"]["enum"] == ["run_skill_script"]
                and "enum" in branch["properties"]["arguments"]["properties"]["command"]]
    assert commands and "python3 scripts/total.py assets/sales.csv region" in commands[0]
    assert all(failed[0] not in enum for enum in commands)
    # When the repair also failed, the answer says what failed.
    second = ("python3 scripts/total.py assets/sales.csv region",
              "exit code 1 after 0.1 s\nno column 'region'\n")
    step = guide.step(turn("What is the total amount in assets/sales.csv?", failed, second), None, 256)
    assert step.schema["properties"]["answer"]["enum"] == [
        "The script failed twice; the last run, `python3 scripts/total.py assets/sales.csv region`, "
        "stopped with exit code 1: no column 'region'."]


def test_a_call_that_repeats_the_failed_command_is_answered_with_what_failed(guide: Guide) -> None:
    failed = ("python3 scripts/total.py assets/sales.csv region",
              "exit code 1 after 0.1 s\nno column 'region'\n")
    messages = turn("Total a column of assets/sales.csv", failed)
    again = ToolCall("r9", "run_skill_script", {"skill": "guess", "command": failed[0]})
    assert guide.repeated(messages, again) == (
        "The script failed; the run, `python3 scripts/total.py assets/sales.csv region`, stopped "
        "with exit code 1: no column 'region'.")
    other = ToolCall("r9", "run_skill_script", {"skill": "guess", "command": failed[0] + "x"})
    assert guide.repeated(messages, other) is None
    # Before any run failed, nothing is a repeat.
    assert guide.repeated(turn("Total a column of assets/sales.csv"), again) is None


FEE_MD = frontmatter("fee", "Prices a plan.").replace(
    "Body.\n", "Run `python3 scripts/fee.py PLAN MONTHS` where PLAN is basic, plus or pro.\n")
FEE_PY = ("import sys\nPRICES = {'basic': 5, 'plus': 9, 'pro': 20}\nplan, months = sys.argv[1:3]\n"
          "if plan not in PRICES:\n    sys.exit('unknown plan')\nprint(PRICES[plan] * int(months))\n")


def test_a_scripts_dict_the_skill_lists_for_one_placeholder_is_not_the_next_ones(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "fee", FEE_MD, {"scripts/fee.py": FEE_PY})
    found = Guide(SkillToolbox(scan_root(SkillRoot(tmp_path / "skills")).skills, tmp_path))
    found.fills = True
    messages = [Message("user", "What does the pro plan cost for 6 months?"),
                Message("assistant", "", [ToolCall("a", "activate_skill", {"name": "fee"})]),
                Message("tool", "<skill_content ...>", tool_call_id="a")]
    run = found.step(messages, None, 256).schema["properties"]["arguments"]["properties"]
    assert run["PLAN"]["enum"] == ["pro"] and run["MONTHS"]["enum"] == ["6"]


HEX_MD = frontmatter("hexa", "Converts numbers to and from hexadecimal.").replace(
    "Body.\n", "`python3 scripts/hexa.py enc NUMBER` or `python3 scripts/hexa.py dec HEXCODE`.\n")


@pytest.mark.parametrize(("request_", "subcommands"), [
    # No number in the message: not the subcommand that takes one.
    ("What number is 0x1F?", ["dec"]),
    ("Write 31 in hexadecimal", ["enc", "dec"]),
])
def test_a_subcommand_whose_placeholder_the_message_has_no_value_for_is_not_offered(
        tmp_path: Path, request_: str, subcommands: list[str]) -> None:
    write_skill(tmp_path / "skills", "hexa", HEX_MD, {"scripts/hexa.py": "print(1)\n"})
    found = Guide(SkillToolbox(scan_root(SkillRoot(tmp_path / "skills")).skills, tmp_path))
    found.fills = True
    messages = [Message("user", request_),
                Message("assistant", "", [ToolCall("a", "activate_skill", {"name": "hexa"})]),
                Message("tool", "<skill_content ...>", tool_call_id="a")]
    run = found.step(messages, None, 256).schema["properties"]["arguments"]["properties"]
    assert run["CHOICE"]["enum"] == subcommands


SHOWN_MD = frontmatter("hexes", "Writes numbers in hex and back.").replace("Body.\n", """\
The script takes a direction and the value:

- `python3 scripts/hexes.py --to-hex 255` prints `ff`
- `python3 scripts/hexes.py --from-hex ff` prints `255`

Called any other way it prints how it runs.
""")
SHOWN_PY = ("import sys\nif len(sys.argv) != 3:\n"
          "    sys.exit('usage: hexes.py --to-hex NUMBER | hexes.py --from-hex HEX')\n")


def test_the_repair_runs_the_script_as_its_own_usage_message_says(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "hexes", SHOWN_MD, {"scripts/hexes.py": SHOWN_PY})
    found = Guide(SkillToolbox(scan_root(SkillRoot(tmp_path / "skills")).skills, tmp_path))
    found.fills = True
    messages = [Message("user", "Write 4096 in hex."),
                Message("assistant", "", [ToolCall("a", "activate_skill", {"name": "hexes"})]),
                Message("tool", "<skill_content ...>", tool_call_id="a"),
                Message("assistant", "", [ToolCall("r0", "run_skill_script", {
                    "skill": "hexes", "command": "python3 scripts/hexes.py"})]),
                Message("tool", "exit code 1 after 0.1 s\nusage: hexes.py --to-hex NUMBER | "
                                "hexes.py --from-hex HEX\n", tool_call_id="r0")]
    # The SKILL.md shows only examples; the failed run's usage message says how the script runs,
    # so the repair is a run with the message's number, not the failed empty call again.
    step = found.step(messages, None, 256)
    assert step.require_call, step.schema
    runs = step.schema.get("oneOf", [step.schema])
    filled = [r["properties"]["arguments"]["properties"] for r in runs
              if "NUMBER" in r["properties"].get("arguments", {}).get("properties", {})]
    assert filled and filled[0]["NUMBER"]["enum"] == ["4096"], step.schema
    call = ToolCall("r1", "run_skill_script",
                    {"skill": "hexes", "script": "python3 scripts/hexes.py", "NUMBER": "4096"})
    assert found.resolve(call).arguments["command"] == "python3 scripts/hexes.py --to-hex 4096"


def test_a_word_listed_for_one_placeholder_is_no_open_placeholders_value() -> None:
    mode = Described("MODE", "", ("fast", "slow"))
    found = enums("LABEL MODE", "Tag it fast with blue", [mode])
    assert "fast" not in found["LABEL"] and "blue" in found["LABEL"]


def test_placeholders_open_to_all_the_figures_take_them_in_the_usage_lines_order() -> None:
    # As many figures as placeholders open to them: the usage line's order is the message's.
    found = enums("BASE STEP", "Round 40 up to a multiple of 3")
    assert found["BASE"] == ["40"] and found["STEP"] == ["3"]
    # More figures than such placeholders: the model chooses.
    assert len(enums("BASE STEP", "Round 40 up to a multiple of 3 or 5")["STEP"]) > 1


def test_a_value_a_word_of_the_message_is_part_of_is_named() -> None:
    shades = Described("SHADE", "", ("deep-ocean", "pale-sand", "dark-moss"))
    assert enums("SHADE", "Which code is our sand colour?", [shades])["SHADE"] == ["pale-sand"]
    # A value named as written still decides alone.
    assert named_values(("sand", "pale-sand"), "the sand one") == ["sand"]


def test_a_pair_named_once_with_a_figure_holds_the_first_and_leaves_the_second_the_rest() -> None:
    units = ("kg", "lb", "oz")
    described = [Described(n, "", units, ("kilogram", "pound", "ounce")) for n in ("FROM", "TO")]
    found = enums("VALUE FROM TO", "What are 2 kilograms in the old units?", described)
    assert found["FROM"] == ["kilogram: kg"] and found["TO"] == ["pound: lb", "ounce: oz"]


def test_a_plural_with_es_or_ies_names_its_value() -> None:
    lengths = ("in", "cm", "px")
    described = [Described(n, "", lengths, ("inch", "centimetre", "pixel")) for n in ("FROM", "TO")]
    found = enums("VALUE FROM TO", "How many centimetres are 12 inches?", described)
    assert found["FROM"] == ["inch: in"] and found["TO"] == ["centimetre: cm"]


def test_the_value_a_failed_run_was_refused_for_is_not_offered_to_the_repair(tmp_path: Path) -> None:
    body = "```\npython3 scripts/tag.py LABEL\n```\n"
    write_skill(tmp_path, "guess", frontmatter("guess").replace("Body.\n", body),
                {"scripts/tag.py": "import sys\nsys.exit(f'cannot use {sys.argv[1]!r}')\n"})
    guide = Guide(SkillToolbox(scan_root(SkillRoot(tmp_path)).skills, tmp_path))
    guide.fills = True
    failed = ("python3 scripts/tag.py blue", "exit code 1 after 0.1 s\ncannot use 'blue'\n")
    step = guide.step(turn("Tag it blue or green", failed), None, 256)
    runs = [b for b in step.schema.get("oneOf", [step.schema]) if "script" in
            b["properties"].get("arguments", {}).get("properties", {})]
    label = runs[0]["properties"]["arguments"]["properties"]["LABEL"]["enum"]
    assert "blue" not in label and "green" in label
