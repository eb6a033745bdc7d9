"""A repair always follows a failed first run (issue 38): when the guided fill would allow only
the failed call again, the repair step offers other calls; a free run gives each word and each
option once. Made-up skills of the shapes authors write."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.agent.guided.arguments import parse_usage
from studio.agent.guided.fill import filled_spec
from studio.agent.guided.freerun import free_pattern, replaced
from studio.agent.guided.refill import other_commands
from studio.agent.guided.repair import asked_options, says_call_was_wrong
from studio.agent.guided.values import Described
from studio.llm import ToolCall
from tests.agent.guided_turns import guide_of, runs_of, turn
from tests.skills.helpers import frontmatter

START = "python3 x.py"


def test_figures_given_in_the_wrong_order_are_offered_swapped() -> None:
    usage = parse_usage(f"{START} SHARE TOTAL", START)
    assert usage is not None
    spec = filled_spec("s", START, usage, [], ["30", "12"], "How much of 30 is 12?")
    failed = {"SHARE": "30", "TOTAL": "12"}
    found = other_commands(spec, usage, [], failed, {f"{START} 30 12"})
    # The failed call is not among them; no placeholder takes the value of another.
    assert found == [f"{START} 12 30"]


def test_a_rejected_value_gives_way_to_the_others_the_skill_lists() -> None:
    usage = parse_usage(f"{START} --size N --shape SHAPE", START)
    assert usage is not None
    described = [Described("SHAPE", "", ("circle", "square"))]
    spec = filled_spec("s", START, usage, described, ["3", "circle"], "a circle of 3")
    tried = {f"{START} --size 3 --shape circle"}
    found = other_commands(spec, usage, described, {"N": "3", "SHAPE": "circle"}, tried)
    assert found == [f"{START} --size 3 --shape square"]


def test_a_free_placeholder_leaves_the_repair_to_the_fill() -> None:
    usage = parse_usage(f"{START} TEXT", START)
    assert usage is not None
    spec = filled_spec("s", START, usage, [], [], "hello")
    spec.parameters["properties"]["TEXT"].pop("enum", None)
    assert other_commands(spec, usage, [], {"TEXT": "hello"}, {f"{START} hello"}) == []


def matches(pattern: str, command: str) -> bool:
    return re.fullmatch(pattern.strip("^$"), command) is not None


def test_a_free_run_gives_each_word_and_each_option_once() -> None:
    pattern = free_pattern(START, ["tell", "52,000", "--pay", "--hours"])
    assert pattern is not None
    assert matches(pattern, f"{START} 52,000 --pay 52,000")
    assert matches(pattern, f"{START} --pay 52,000 --hours tell")
    assert matches(pattern, START)
    # One word written again and again, or an option given twice, is never a run.
    assert not matches(pattern, f"{START} tell tell tell")
    assert not matches(pattern, f"{START} --pay 52,000 --hours 52,000 --pay 52,000")


def test_a_free_run_after_the_bare_script_failed_gives_it_something() -> None:
    pattern = free_pattern(START, ["notes.txt", "-n"], {START})
    assert pattern is not None
    assert not matches(pattern, START)
    assert matches(pattern, f"{START} notes.txt") and matches(pattern, f"{START} -n")
    assert matches(pattern, f"{START} notes.txt -n notes.txt")
    assert free_pattern(START, [], {START}) is None


def test_a_path_the_call_gave_is_not_read_as_an_error_word() -> None:
    # "invalid" in a file's name: the checker's verdict, not a wrong call.
    assert not says_call_was_wrong("data/row-invalid.json: 3 problems", ["data/row-invalid.json"])
    assert says_call_was_wrong("data/row.json: invalid", ["data/row.json"])


USAGE_PROSE = frontmatter("shout", "Turns text into capitals.").replace(
    "Body.\n", "Usage: python3 scripts/up.py [--style STYLE] TEXT\n\nSTYLE is loud or soft.\n")
UP_PY = "import sys\nsys.exit('usage: up.py [--style STYLE] TEXT')\n"
STDIN_MD = frontmatter("uniq", "Drops repeated lines.").replace(
    "Body.\n", "```bash\ncat FILE | python3 scripts/uniq.py\n```\n")


def test_the_label_of_a_usage_line_in_prose_is_no_part_of_the_command(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "shout", USAGE_PROSE, {"scripts/up.py": UP_PY})
    assert guide.invocations("shout") == ["python3 scripts/up.py"]


@pytest.mark.parametrize("output", ["exit code 1 after 0.1 s\nusage: uniq.py < FILE\n",
                                    "exit code 2 after 0.1 s\nerror: nothing on standard input\n"])
def test_a_failed_bare_run_is_followed_by_another_run(tmp_path: Path, output: str) -> None:
    guide = guide_of(tmp_path, "uniq", STDIN_MD, {"scripts/uniq.py": "import sys\nsys.exit(1)\n",
                                                   "assets/list.txt": "a\na\n"})
    step = guide.step(turn("uniq", "Drop the repeated lines of assets/list.txt",
                           ("python3 scripts/uniq.py", output)), None, 256)
    assert step.require_call
    runs = runs_of(step.schema)
    assert runs
    # A filled run gives the file the script's usage message asks for.
    assert all(run["FILE"]["enum"] == ["assets/list.txt"] for run in runs if "command" not in run)
    for command in (run["command"] for run in runs if "command" in run):
        allowed = command.get("enum")
        if allowed is not None:
            assert "python3 scripts/uniq.py" not in allowed
        else:
            assert not matches(command["pattern"], "python3 scripts/uniq.py")


def test_a_filter_fed_one_file_by_cat_takes_the_file_on_standard_input(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "uniq", STDIN_MD, {"scripts/uniq.py": "import sys\n",
                                                   "assets/list.txt": "a\na\n"})
    step = guide.step(turn("uniq", "Drop the repeated lines of assets/list.txt"), None, 256)
    [run] = runs_of(step.schema)
    assert run["FILE"]["enum"] == ["assets/list.txt"]
    call = ToolCall("c", "run_skill_script", {"skill": "uniq", "script": "python3 scripts/uniq.py",
                                              "FILE": "assets/list.txt"})
    assert guide.resolve(call).arguments["command"] == "python3 scripts/uniq.py < assets/list.txt"


def test_a_free_run_after_a_failed_one_leaves_out_exactly_that_command() -> None:
    words = ["4", "cups", "--size", "--kind"]
    failed = f"{START} --size 4 --kind 4"
    pattern = free_pattern(START, words, {failed})
    assert pattern is not None
    assert not matches(pattern, failed)
    for other in (f"{START} --size 4 --kind cups", f"{START} --size 4", f"{START} 4 --size 4 --kind 4",
                  f"{START} --size cups --kind 4", START):
        assert matches(pattern, other), other
    # A failed command the pattern does not allow leaves it as it is.
    assert free_pattern(START, words, {f"{START} nothing"}) == free_pattern(START, words)


def test_the_value_an_error_rejected_is_replaced_by_each_it_lists() -> None:
    command = f"{START} --size 4 --kind 4"
    output = "error: unknown kind '4'; known kinds: drip, press\n"
    assert replaced(command, output, ["drip", "press"]) == [
        f"{START} --size 4 --kind drip", f"{START} --size 4 --kind press"]
    # Nothing quoted that the call gave, or nothing listed: no such repair.
    assert replaced(command, "error: unknown kind\n", ["drip"]) == []
    assert replaced(command, output, []) == []


SHARE_MD = frontmatter("share", "Says what share one amount is of another.").replace(
    "Body.\n", "```\npython3 scripts/share.py AMOUNT LIMIT\n```\n\nAMOUNT is the smaller one.\n")


def test_operands_given_in_the_wrong_order_are_repaired_by_the_swapped_call_alone(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "share", SHARE_MD, {"scripts/share.py": "import sys\nsys.exit(1)\n"})
    # The message read one way, the script the other: the call the fill decided failed.
    failed = ("python3 scripts/share.py 12 30",
              "exit code 1 after 0.1 s\nerror: AMOUNT (12) is larger than LIMIT (30)\n")
    step = guide.step(turn("share", "Of a limit of 30, 12 is used: what share is that?", failed), None, 256)
    assert step.require_call
    # Only the calls put in the failed one's place: no free words beside them.
    assert [run["command"] for run in runs_of(step.schema)] == [
        {"type": "string", "enum": ["python3 scripts/share.py 30 12"]}]


BAKE_MD = frontmatter("bake", "Says how long to bake a loaf.").replace(
    "Body.\n", "Example:\n\n    python3 scripts/bake.py --loaves 2 --flour rye\n")


def test_a_value_an_error_rejected_gives_way_to_the_listed_one_the_message_names(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "bake", BAKE_MD, {"scripts/bake.py": "import sys\nsys.exit(1)\n"})
    failed = ("python3 scripts/bake.py --loaves 3 --flour 3",
              "exit code 1 after 0.1 s\nerror: unknown flour '3'; known flours: rye, whole-wheat, spelt\n")
    step = guide.step(turn("bake", "How long for 3 loaves of whole wheat?", failed), None, 256)
    assert [run["command"] for run in runs_of(step.schema)] == [
        {"type": "string", "enum": ["python3 scripts/bake.py --loaves 3 --flour whole-wheat"]}]


def test_of_the_other_listed_values_those_the_message_names_are_offered() -> None:
    usage = parse_usage(f"{START} FILE --by COLUMN", START)
    assert usage is not None
    described = [Described("COLUMN", "", ("town", "region", "floor_area"))]
    request = "Which town in t.csv has the most floor space?"
    spec = filled_spec("s", START, usage, described, ["t.csv"], request)
    tried = {f"{START} t.csv --by town"}
    found = other_commands(spec, usage, described, {"FILE": "t.csv", "COLUMN": "town"}, tried, request)
    assert found == [f"{START} t.csv --by floor_area"]


def test_an_option_a_run_s_output_asks_for_takes_a_value_never_another_option() -> None:
    assert asked_options("to decode it, use --mode decode") == [("--mode", "decode")]
    assert asked_options("try `--strict`") == [("--strict", "")]
    # Output hands no option in a value's place (it would be read as an option of the run).
    assert asked_options("use --mode --delete-all") == [("--mode", "")]
