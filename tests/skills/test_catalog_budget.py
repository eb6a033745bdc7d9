"""The catalog fitted to a token budget: pinned skills always in, the others by relevance."""

from __future__ import annotations

from studio.skills.search.catalog import build_catalog, estimate_tokens, rank_skills
from tests.skills.helpers import summary

SKILLS = [
    summary("pdf-tools", "Extract text and tables from PDF files; merge and split PDFs."),
    summary("currency", "Look up exchange rates and convert money between currencies."),
    summary("unit-converter", "Convert quantities between units: miles to kilometres, pounds to kilograms."),
    summary("git-helper", "Write commit messages and explain git history."),
]


def test_estimate_is_on_the_high_side_and_counts_wide_characters_one_each() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a" * 35) == 10
    assert estimate_tokens("a" * 36) == 11
    assert estimate_tokens("漢字です") == 4


def test_rank_puts_the_skill_sharing_rare_terms_first() -> None:
    ranked = rank_skills(SKILLS, "How many kilometers are 26 miles?")
    assert ranked[0].name == "unit-converter"
    assert [s.name for s in rank_skills(SKILLS, "")] == [s.name for s in SKILLS]
    assert [s.name for s in rank_skills(SKILLS, "the and of")] == [s.name for s in SKILLS]
    assert rank_skills(SKILLS, "split this PDF")[0].name == "pdf-tools"


def test_without_a_budget_nothing_is_left_out_and_the_order_is_kept() -> None:
    catalog = build_catalog(SKILLS, query="miles")
    assert [s.name for s in catalog.included] == [s.name for s in SKILLS]
    assert catalog.left_out == ()


def test_a_budget_keeps_pinned_skills_then_the_most_relevant() -> None:
    one_entry = estimate_tokens(build_catalog(SKILLS[:1]).xml)
    catalog = build_catalog(SKILLS, budget=one_entry * 2, query="convert 3 miles to km", keep={"git-helper"})
    assert [s.name for s in catalog.included] == ["git-helper", "unit-converter"]
    assert [s.name for s in catalog.left_out] == ["currency", "pdf-tools"]
    assert estimate_tokens(catalog.xml) <= one_entry * 2
    assert "<name>pdf-tools</name>" not in catalog.xml


def test_pinned_skills_stay_even_over_the_budget_and_broken_ones_are_skipped_not_left_out() -> None:
    broken = summary("broken", "x", loadable=False)
    catalog = build_catalog([*SKILLS, broken], budget=1, keep={"pdf-tools", "currency"})
    assert [s.name for s in catalog.included] == ["pdf-tools", "currency"]
    assert [s.name for s in catalog.skipped] == ["broken"]
    assert {s.name for s in catalog.left_out} == {"unit-converter", "git-helper"}
