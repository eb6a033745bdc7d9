"""Shapes of skills written elsewhere that the guided fill reads (issue 38): subcommands shown only
by example lines with figures, a value named by the initials of the message's words, a JSON object
argument whose keys the examples and a key table give, and a run that exits 0 while its output
says another value of an option was wanted. Made-up skills of the shapes authors write."""

from __future__ import annotations

import json
from pathlib import Path

from studio.agent.guided.arguments import parse_usage, split
from studio.agent.guided.fill import compose, named_values, values_of
from studio.llm import Message, ToolCall
from tests.agent.guided_turns import guide_of, runs_of, turn
from tests.skills.helpers import frontmatter


def test_a_value_is_named_by_the_initials_of_the_message_s_words() -> None:
    assert named_values(["am", "gm", "hm"], "What is the harmonic mean of 2, 3 and 6?") == ["hm"]
    assert named_values(["png", "jpg"], "Save it as Portable Network Graphics") == ["png"]
    # Initials across a stop word or of two unrelated words name nothing.
    assert named_values(["hm"], "How much is the mean?") == []


MEANS_MD = frontmatter("means", "Arithmetic, geometric and harmonic means of numbers.").replace(
    "Body.\n", "Three subcommands, each taking two or more numbers:\n\n```bash\n"
               "python3 scripts/means.py am 2 4\npython3 scripts/means.py gm 1 3 9\n"
               "python3 scripts/means.py hm 1 2 4\n```\n")


def test_subcommands_shown_only_by_examples_with_figures_make_a_usage_line(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "means", MEANS_MD, {"scripts/means.py": "import sys\n"})
    step = guide.step(turn("means", "What is the harmonic mean of 2, 3 and 6?"), None, 256)
    [run] = runs_of(step.schema)
    subcommand = next(key for key in run if key not in ("skill", "script"))
    # The message names the subcommand by its initials; every figure goes to the numbers.
    assert run[subcommand]["enum"] == ["hm"]
    numbers = [key for key in run if key not in ("skill", "script", subcommand)]
    assert [run[key]["enum"] for key in numbers] == [["2 3 6"]]
    call = ToolCall("c", "run_skill_script", {"skill": "means", "script": "python3 scripts/means.py",
                                              subcommand: "hm", numbers[0]: "2 3 6"})
    assert guide.resolve(call).arguments["command"] == "python3 scripts/means.py hm 2 3 6"


DENSITY_MD = frontmatter("density", "Density of a solid or a liquid from its mass and volume.").replace(
    "Body.\n", "Give the sample as one JSON object:\n\n```bash\n"
               "python3 scripts/density.py '{\"mass\": 12, \"cc\": 4}'\n"
               "python3 scripts/density.py '{\"mass\": 9.5, \"ml\": 10}'\n```\n\n"
               "| key | meaning |\n|-----|---------|\n| `mass` | the mass in grams |\n"
               "| `cc` | the volume in cubic centimetres, for solids |\n"
               "| `ml` | the volume in millilitres, for liquids |\n\n"
               "Give `mass` and one of `cc` / `ml`.\n")


def test_a_json_usage_line_is_read_with_its_keys() -> None:
    start = "python3 x.py"
    usage = parse_usage(start + " '{\"mass\": MASS, \"cc\": [CC], \"name\": \"NAME\"}'", start)
    assert usage is not None
    assert usage.placeholders == ["MASS", "CC", "NAME"]
    call = ToolCall("c", "run_skill_script", {"skill": "s", "script": start, "MASS": "12.5", "CC": "",
                                              "NAME": "iron bar"})
    command = compose(call, usage).arguments["command"]
    # Numbers as numbers, text as a string, a key left blank left out; one shell word.
    assert json.loads(split(command)[2]) == {"mass": 12.5, "name": "iron bar"}
    assert values_of(command, start, usage) == {"MASS": "12.5", "NAME": "iron bar"}


def test_a_json_object_argument_is_filled_key_by_key(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "density", DENSITY_MD, {"scripts/density.py": "import sys\n"})
    step = guide.step(turn("density", "A 300 g bottle of oil holds 330 ml. What is its density?"),
                      None, 256)
    [run] = runs_of(step.schema)
    assert set(run) >= {"MASS", "CC", "ML"}
    # The figure beside the unit naming a key is that key's; the other the mass; the key of
    # no figure is left out.
    assert run["ML"]["enum"] == ["330"]
    assert run["MASS"]["enum"] == ["300"]
    assert run["CC"]["enum"] == [""]
    call = ToolCall("c", "run_skill_script", {"skill": "density", "script": "python3 scripts/density.py",
                                              "MASS": "300", "CC": "", "ML": "330"})
    command = guide.resolve(call).arguments["command"]
    assert json.loads(split(command)[2]) == {"mass": 300, "ml": 330}


def test_the_keys_of_a_json_argument_are_told_from_the_key_table(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "density", DENSITY_MD, {"scripts/density.py": "import sys\n"})
    messages = turn("density", "A 300 g bottle of oil holds 330 ml. What is its density?")
    shown = guide.request(messages, None)[-1].content
    assert "the volume in millilitres, for liquids" in shown


CODEC_MD = frontmatter("hexer", "Turns text into hex or hex back into text.").replace(
    "Body.\n", "Usage: python3 scripts/hexer.py [--way WAY] TEXT\n\n"
               "WAY is to or from, and to when you leave it out.\n")
CODEC_PY = ("import argparse, sys\np = argparse.ArgumentParser()\n"
            "p.add_argument('--way', default='to', choices=['to', 'from'])\np.add_argument('text')\n")


def test_a_run_whose_output_asks_for_another_value_is_followed_by_one_with_it(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "hexer", CODEC_MD, {"scripts/hexer.py": CODEC_PY})
    ran = ("python3 scripts/hexer.py 68656c6c6f",
           "exit code 0 after 0.1 s\nnote: this looks like hex already; to turn it back use --way from\n"
           "3638363536633663366620\n")
    step = guide.step(turn("hexer", "What does the hex 68656c6c6f say?", ran), None, 256)
    assert step.require_call
    assert [run["command"] for run in runs_of(step.schema)] == [
        {"type": "string", "enum": ["python3 scripts/hexer.py 68656c6c6f --way from"]}]


def test_a_run_whose_output_asks_for_nothing_is_answered(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "hexer", CODEC_MD, {"scripts/hexer.py": CODEC_PY})
    ran = ("python3 scripts/hexer.py --way from 68656c6c6f", "exit code 0 after 0.1 s\nhello\n")
    step = guide.step(turn("hexer", "What does the hex 68656c6c6f say?", ran), None, 256)
    assert not step.require_call
    assert not runs_of(step.schema)


PACE_MD = frontmatter("pace", "Converts a speed between units.").replace(
    "Body.\n", "    python3 scripts/pace.py VALUE --from UNIT --to UNIT\n\n"
               "Units the script understands:\n\n- kmh - kilometres per hour\n- mph - miles per hour\n"
               "- kn - knots\n")


def test_a_list_after_a_line_speaking_of_the_values_lists_them(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "pace", PACE_MD, {"scripts/pace.py": "import sys\n"})
    step = guide.step(turn("pace", "What is 30 knots in km/h?"), None, 256)
    [run] = runs_of(step.schema)
    # "km/h" names `kmh` as one word; the unit given the figure is the one converted from.
    assert [guide.resolve(ToolCall("c", "run_skill_script", {
        "skill": "pace", "script": "python3 scripts/pace.py", "VALUE": run["VALUE"]["enum"][0],
        "UNIT": run["UNIT"]["enum"][0], "UNIT_B": run["UNIT_B"]["enum"][0]})).arguments["command"]] == [
        "python3 scripts/pace.py 30 --from kn --to kmh"]
    assert [len(run[key]["enum"]) for key in ("VALUE", "UNIT", "UNIT_B")] == [1, 1, 1]


GRATUITY_MD = frontmatter("gratuity", "Works out a tip.").replace(
    "Body.\n", "```\npython scripts/tip.py --total AMOUNT [--percent PCT] [--people N]\n```\n")


def test_a_figure_with_a_currency_or_percent_sign_is_the_figure(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "gratuity", GRATUITY_MD, {"scripts/tip.py": "import sys\n"})
    step = guide.step(turn("gratuity", "What's a 12% tip on a total of $40.20?"), None, 256)
    [run] = runs_of(step.schema)
    # The percent sign names PERCENT; the figure taken leaves the optional N nothing.
    assert (run["AMOUNT"]["enum"], run["PCT"]["enum"], run["N"]["enum"]) == (["40.20"], ["12"], [""])


ROUTE_MD = frontmatter("route", "Ferry fares by region.").replace(
    "Body.\n", "    python3 scripts/fare.py REGION\n\n"
               "Find the port's REGION in references/ports.md and pass its name.\n")
PORTS = ("| Region | Ports |\n|---|---|\n| north-sea | Hull, Rotterdam, Esbjerg |\n"
         "| baltic | Kiel, Tallinn, Riga |\n| channel | Dover, Calais |\n")
CODES_MD = frontmatter("codes", "Facts about a currency.").replace(
    "Body.\n", "1. Find the currency's ISO code in `references/CODES.md`.\n2. Run:\n\n"
               "   ```bash\n   python3 scripts/cur.py ISO_CODE\n   ```\n")
CODES = ("| ISO code | Name |\n|---|---|\n| `CHF` | Swiss franc |\n| `NOK` | Norwegian krone |\n"
         "| `SEK` | Swedish krona |\n")


def test_a_value_is_named_by_a_part_of_its_row(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "route", ROUTE_MD, {"scripts/fare.py": "import sys\n",
                                                   "references/ports.md": PORTS})
    [run] = runs_of(guide.step(turn("route", "What is the fare to Tallinn?"), None, 256).schema)
    # Offered as what its row says of it ("Kiel, Tallinn, Riga: baltic"), the value alone.
    assert [value.rsplit(": ", 1)[-1] for value in run["REGION"]["enum"]] == ["baltic"]


def test_a_file_a_step_names_lists_the_values_of_its_column_named_for_the_placeholder(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "codes", CODES_MD, {"scripts/cur.py": "import sys\n",
                                                   "references/CODES.md": CODES})
    [run] = runs_of(guide.step(turn("codes", "Tell me about the Norwegian krone"), None, 256).schema)
    assert [value.rsplit(": ", 1)[-1] for value in run["ISO_CODE"]["enum"]] == ["NOK"]


WEIGHT_MD = frontmatter("weight", "Converts between kilograms and pounds.").replace(
    "Body.\n", "```bash\npython3 scripts/weight.py MASS\n```\n\n"
               "MASS is a number with its unit right after it: `kg` or `lb` (for example `3.5lb`).\n")


def test_a_figure_with_its_unit_written_on_is_offered_as_the_skill_writes_it(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "weight", WEIGHT_MD, {"scripts/weight.py": "import sys\n"})
    messages = turn("weight", "How many pounds are 70 kilograms?")
    [run] = runs_of(guide.step(messages, None, 256).schema)
    assert run["MASS"]["enum"] == ["70kg"]
    assert "a number with its unit written on, one of kg, lb" in guide.request(messages, None)[-1].content


LEVEL_MD = frontmatter("alert", "Files an alert at the right level.").replace(
    "Body.\n", "```bash\npython3 scripts/alert.py TEXT LEVEL\n```\n\n"
               "LEVEL is `low`, `high` or `page`: a cosmetic glitch is `low`, a broken feature with a "
               "workaround is `high`, and an outage with customers affected is `page`.\n")


def test_a_value_follows_from_what_the_skill_says_each_means(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "alert", LEVEL_MD, {"scripts/alert.py": "import sys\n"})
    request = 'File "checkout down" as an outage: customers are affected.'
    [run] = runs_of(guide.step(turn("alert", request), None, 256).schema)
    assert run["LEVEL"]["enum"] == ["page"]
    # A message that says nothing of it leaves the choice to the model.
    [run] = runs_of(guide.step(turn("alert", 'File "checkout slow".'), None, 256).schema)
    assert run["LEVEL"]["enum"] == ["low", "high", "page"]


LOAN_MD = frontmatter("loan", "Monthly payment from a loan, or the loan a payment affords.").replace(
    "Body.\n", "The script has two commands, named for what you get:\n\n```bash\n"
               "# loan -> monthly payment\npython3 scripts/loan.py monthly --principal 20000 [--years 5]\n\n"
               "# monthly payment -> loan\n"
               "python3 scripts/loan.py principal --payment 350 [--years 5]\n```\n")


def test_subcommands_with_their_own_options_shown_by_examples(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "loan", LOAN_MD, {"scripts/loan.py": "import sys\n"})
    request = "I borrow 12,500 over 4 years. What do I pay each month?"
    [run] = runs_of(guide.step(turn("loan", request), None, 256).schema)
    # "each month" names `monthly`; its own option takes the figure written plainly, the other
    # command's option is left out.
    assert (run["CHOICE"]["enum"], run["PRINCIPAL"]["enum"], run["YEARS"]["enum"],
            run["PAYMENT"]["enum"]) == (["monthly"], ["12500"], ["4"], [""])
    call = ToolCall("c", "run_skill_script", {"skill": "loan", "script": "python3 scripts/loan.py",
                                              "CHOICE": "monthly", "PRINCIPAL": "12500", "YEARS": "4",
                                              "PAYMENT": ""})
    assert guide.resolve(call).arguments["command"] == \
        "python3 scripts/loan.py monthly --principal 12500 --years 4"


LAPS_MD = frontmatter("laps", "Adds up lap times.").replace(
    "Body.\n", "Pass each lap as its own argument:\n\n```bash\npython3 scripts/laps.py 2m10s 1m58s\n```\n\n"
               "Times are written with `h`, `m` and `s` parts, no spaces (`1h2m`, `45s`).\n")
LAPS_PY = ('import sys\nif len(sys.argv) < 2:\n'
           '    sys.exit("usage: laps.py TIME [TIME ...]   e.g. laps.py 2m10s 1m58s")\n')


def test_durations_in_words_are_written_as_the_skill_writes_them(tmp_path: Path) -> None:
    guide = guide_of(tmp_path, "laps", LAPS_MD, {"scripts/laps.py": LAPS_PY})
    request = "My laps took 2 minutes 5 seconds, 1 minute 59 seconds and 2 minutes. Total?"
    [run] = runs_of(guide.step(turn("laps", request), None, 256).schema)
    # The usage line the script exits with, without the example after it; every lap one value.
    assert run["TIME"]["enum"] == ["2m5s 1m59s 2m"]
    call = ToolCall("c", "run_skill_script", {"skill": "laps", "script": "python3 scripts/laps.py",
                                              "TIME": "2m5s 1m59s 2m"})
    assert guide.resolve(call).arguments["command"] == "python3 scripts/laps.py 2m5s 1m59s 2m"


def test_a_message_of_durations_in_words_points_at_a_skill_that_writes_them_compactly(tmp_path: Path) -> None:
    text = frontmatter("laps", "Adds up the durations of laps, such as 2m10s.").replace("Body.\n", "Laps.\n")
    guide = guide_of(tmp_path, "laps", text, {"scripts/laps.py": LAPS_PY})
    messages = [Message("user", "I swam for 2 minutes 5 seconds, then 1 minute 59 seconds. Altogether?")]
    step = guide.step(messages, None, 256)
    assert step.require_call
    assert step.schema["properties"]["arguments"]["properties"]["name"]["enum"] == ["laps", "none"]
