"""What the scripted models say in the shots, and the files those conversations need. The
commands are real: the skills' scripts run (after the approval a scene gives), so the cards show
their true output; only the model's turns are written here."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.fakes.script import Call, Turn, calls, reply

TOOL_MODEL = "qwen3:0.6b"
AGENT_MODEL = "qwen2.5:0.5b"
SMALL_MODEL = "smollm2:135m"

CHAT_PROMPT = "What's in assets/sample-orders.csv? Check it before I import it."
PROFILE = "python3 scripts/profile_csv.py assets/sample-orders.csv"
OUTSIDE = "python3 scripts/profile_csv.py ~/Downloads/orders-2024.csv --top 10"
CHAT_ANSWER = (
    "The file is **almost ready to import**: 20 orders, 9 columns, types as expected. Fix these "
    "first:\n\n"
    "| Column | Type | Empty | What stands out |\n|---|---|---|---|\n"
    "| `quantity` | integer | 1 | minimum is **-1**: a return, or a typo? |\n"
    "| `country` | text | 1 | one order has no country |\n"
    "| `shipped_at` | datetime | 4 | unshipped orders |\n\n"
    "1. Check the order with `quantity = -1`.\n2. Fill in the missing `country`, or drop that row.\n")

FORK_SKILL = "csv-review"
FORK_PROMPT = "Check the sample CSV of csv-review for empty cells"
FORK_COMMAND = "python3 scripts/summary.py assets/sample.csv"
SUMMARY_SCRIPT = """import csv
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as handle:
    rows = list(csv.DictReader(handle))
columns = list(rows[0])
print(f"{len(rows)} rows, {len(columns)} columns")
for column in columns:
    print(f"  {column}: {sum(1 for row in rows if not row[column])} empty")
"""

SMALL_PROMPT = "Convert 26.2 miles to kilometres"
CONVERT = "python3 scripts/convert.py 26.2 miles kilometres"


def _activate(name: str) -> Turn:
    return calls(Call("activate_skill", {"name": name}))


def _run(skill: str, command: str) -> Turn:
    return calls(Call("run_skill_script", {"skill": skill, "command": command}))


def chat_turns() -> list[Turn]:
    return [_activate("csv-profiler"), _run("csv-profiler", PROFILE), reply(CHAT_ANSWER)]


def approval_turns() -> list[Turn]:
    return [_run("csv-profiler", OUTSIDE)]


def write_outside_file(home: Path) -> None:
    """The export the approval's command reads: outside the skill's folder, in ~/Downloads."""
    downloads = home / "Downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    (downloads / "orders-2024.csv").write_text("order_id,quantity\n1,3\n", encoding="utf-8")


def fork_turns() -> list[Turn]:
    return [calls(Call("activate_skill", {"name": FORK_SKILL, "task": FORK_PROMPT}, id="f1")),
            _run(FORK_SKILL, FORK_COMMAND),
            reply("The sample has **120 rows** and 3 columns. Only `price` has empty cells "
                  "(3 of 120); `city` and `rooms` are complete."),
            reply("The review ran in a fork of `csv-review`: the file has 120 rows, and only the "
                  "**price** column has gaps (3 empty cells). Fill or drop those rows before "
                  "averaging prices.")]


def write_fork_skill(skills: Path) -> None:
    """A skill that runs in a sub-agent (`context: fork`), with a script and a sample to read."""
    folder = skills / FORK_SKILL
    (folder / "scripts").mkdir(parents=True)
    (folder / "assets").mkdir()
    (folder / "SKILL.md").write_text(
        f"---\nname: {FORK_SKILL}\ndescription: Reviews a CSV file for empty cells in a fork of "
        "its own. Use when the user asks which columns of a CSV have gaps.\ncontext: fork\n---\n"
        "# CSV review\n\nRun `python3 scripts/summary.py FILE` and report the columns with empty "
        "cells.\n", encoding="utf-8")
    (folder / "scripts" / "summary.py").write_text(SUMMARY_SCRIPT, encoding="utf-8")
    lines = ["city,price,rooms"]
    lines += [f"Town {n % 7},{'' if n % 40 == 5 else 80 + n},{1 + n % 4}" for n in range(120)]
    (folder / "assets" / "sample.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def agent_turns() -> list[Turn]:
    return chat_turns()


def write_agent(config: Path, skills: Path) -> None:
    """A saved agent, csv-helper: a small model and one skill."""
    folder = config / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    spec = {"name": "csv-helper", "model": AGENT_MODEL, "skills": [str(skills / "csv-profiler")],
            "system": "You check CSV files before they are imported. Be brief."}
    (folder / "csv-helper.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")


def small_model_turns() -> list[Turn]:
    """A guided model answers in the JSON each round's schema allows."""
    return [reply(json.dumps({"tool": "activate_skill", "arguments": {"name": "unit-convert"}})),
            reply(json.dumps({"tool": "run_skill_script",
                              "arguments": {"skill": "unit-convert", "command": CONVERT}})),
            reply(json.dumps({"answer": "26.2 mi = 42.1648 km"}))]


def write_skill_with_problems(skills: Path) -> None:
    """A draft skill with the faults new skills often have, so the Problems panel has rows."""
    folder = skills / "meeting-notes"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: Meeting_Notes\ndescription: Notes.\nversion: 0.1\n---\n"
        "# Meeting notes\n\nSee [the template](references/template.md) and run "
        "`python3 scripts/tidy.py`.\n", encoding="utf-8")
