"""Blind comparison: the grader sees A and B, never which version is which; its choice is mapped
back to the versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.evals.comparator import comparison_prompt, new_side, read_choice
from tests.commands.test_eval_command import EVALS, finish, skill_with_evals, studio
from tests.fakes.fixtures import TOOL_MODEL, fake_ollama
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply

__all__ = ["fake_ollama"]


@pytest.mark.parametrize(("text", "choice"), [
    ("A\nIt is complete.", "A"), ("  b) the second one", "B"), ("Tie - both fine", "TIE"),
    ("I think the first is better", None), ("**A**", "A"),
])
def test_the_graders_choice_is_read(text: str, choice: str | None) -> None:
    assert read_choice(text)[0] == choice


def test_the_side_of_each_version_is_fixed_by_the_request_and_run_and_varies() -> None:
    sides = {new_side(f"request {n}", 1) for n in range(20)}
    assert sides == {"A", "B"}
    assert new_side("request 1", 1) == new_side("request 1", 1)


def test_the_prompt_names_no_version() -> None:
    text = comparison_prompt("Greet me", "Hello!", "Bye.")
    assert "skill" not in text.lower() and "version" not in text.lower()


def test_studio_eval_compare_against_no_skill(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    demo = skill_with_evals(tmp_path, EVALS, [])
    side = new_side("Greet me", 1)
    fake_ollama.script(reply("Hello there!"), reply("Goodbye."), reply(f"{side}\nIt greets."))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                   "--only", "evals", "--without-skill", "--compare", "--json"))
    assert code == 0, err
    [comparison] = json.loads(out)["comparisons"]
    assert (comparison["winner"], comparison["new_shown_as"]) == ("new", side)
    shown = fake_ollama.chats[-1]["messages"][-1]["content"]
    first, second = ("Hello there!", "Goodbye.") if side == "A" else ("Goodbye.", "Hello there!")
    assert shown.index(first) < shown.index(second)
