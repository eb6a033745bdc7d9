"""A system prompt fitted to a small model: 400 skills and a 4,096-token context."""

from __future__ import annotations

import json
import random
from pathlib import Path

from studio.agent.prompt import fit_system_prompt, system_prompt
from studio.agent.tools import SkillToolbox
from studio.skills.search.catalog import estimate_tokens
from studio.skills.summary import SkillSummary
from tests.skills.helpers import summary

CONTEXT = 4096
ANSWER_RESERVE = 512
QUESTION = "How many kilometres is a marathon of 26.2 miles? Convert it for me."
WORDS = [
    "report",
    "invoice",
    "table",
    "chart",
    "image",
    "audio",
    "video",
    "email",
    "calendar",
    "contact",
    "database",
    "query",
    "schema",
    "deploy",
    "docker",
    "cluster",
    "log",
    "metric",
    "alert",
    "ticket",
    "issue",
    "review",
    "commit",
    "branch",
    "release",
    "package",
    "translate",
    "summary",
    "outline",
    "slide",
    "document",
    "spreadsheet",
    "budget",
    "forecast",
    "recipe",
    "travel",
    "weather",
    "currency",
    "exchange",
    "money",
    "tax",
    "payroll",
    "inventory",
    "order",
    "shipment",
    "customer",
    "survey",
]


def _library(count: int) -> list[SkillSummary]:
    rng = random.Random(13)
    skills = []
    for number in range(count - 1):
        topic = rng.sample(WORDS, 6)
        name = f"{topic[0]}-{topic[1]}-{number}"
        description = (
            f"Create, check and convert {topic[0]} and {topic[1]} files; build a {topic[2]} from "
            f"{topic[3]} data, then export the {topic[4]} as {topic[5]}. Use when the user mentions "
            f"{topic[0]}, {topic[2]} or {topic[3]}."
        )
        skills.append(summary(name, description))
    needed = summary(
        "unit-converter",
        "Convert quantities between units of length, mass, volume and temperature, e.g. miles to "
        "kilometres or pounds to kilograms. Use when the user asks to convert a measurement.",
    )
    skills.insert(count // 2, needed)
    return skills


def test_400_skills_and_a_4096_token_model_first_request_fits_with_the_needed_skill(tmp_path: Path) -> None:
    skills = _library(400)
    everything, _ = system_prompt(skills)
    assert estimate_tokens(everything) > CONTEXT * 5, "the whole catalog would overflow many times"
    fitted = fit_system_prompt(skills, CONTEXT, query=QUESTION)
    assert "<name>unit-converter</name>" in fitted.text
    included = [name for name in (s.name for s in skills) if f"<name>{name}</name>" in fitted.text]
    tools = SkillToolbox(skills, tmp_path).specs(offered=included)
    request = fitted.text + json.dumps([tool.to_json() for tool in tools]) + QUESTION
    assert estimate_tokens(request) + ANSWER_RESERVE <= CONTEXT
    assert len(fitted.left_out) == 400 - len(included)
    assert "unit-converter" not in fitted.left_out
    notice = fitted.notice()
    assert notice is not None and f"{len(fitted.left_out)} skills did not fit" in notice


def test_an_unknown_context_leaves_nothing_out() -> None:
    fitted = fit_system_prompt(_library(20), None, query=QUESTION)
    assert fitted.left_out == () and fitted.notice() is None
    assert fitted.text == system_prompt(_library(20))[0]


def test_the_tools_offer_only_the_catalogs_skills(tmp_path: Path) -> None:
    toolbox = SkillToolbox(_library(5), tmp_path)
    spec = toolbox.specs(offered=["unit-converter"])[0].to_json()
    assert spec["function"]["parameters"]["properties"]["name"]["enum"] == ["unit-converter"]
    assert len(toolbox.specs()[0].to_json()["function"]["parameters"]["properties"]["name"]["enum"]) == 5
