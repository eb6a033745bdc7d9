"""Dates in a guided fill: written as the skill documents them, and each date placeholder given
the date the sentence defining it points at (made-up skills, issue 38)."""

from __future__ import annotations

import pytest

from studio.agent.guided.arguments import parse_usage
from studio.agent.guided.dates import date_format, iso_dates, written_dates
from studio.agent.guided.fill import filled_spec
from studio.agent.guided.values import Described, describe

START = "python3 x.py"


def enums(body: str, usage_line: str, request: str) -> dict[str, list[str]]:
    usage = parse_usage(f"{START} {usage_line}", START)
    assert usage is not None
    described = describe(usage.placeholders, body, lambda _: None, [f"{START} {usage_line}"])
    words = [w.strip(".,?!") for w in request.split()]
    spec = filled_spec("s", START, usage, described, [*iso_dates(request), *words], request)
    return {name: p.get("enum", []) for name, p in spec.parameters["properties"].items()
            if name not in ("skill", "script")}


@pytest.mark.parametrize(("request_", "dates"), [
    ("How old on 1 June 2024 is someone born on 3 March 1990?", ["2024-06-01", "1990-03-03"]),
    ("From July 20, 1969 to the 4th of August 1970", ["1969-07-20", "1970-08-04"]),
    ("Between 2024-02-29 and 1 Jan 2025", ["2024-02-29", "2025-01-01"]),
    ("In 1990 I was 3", []),
])
def test_the_dates_a_message_writes(request_: str, dates: list[str]) -> None:
    assert iso_dates(request_) == dates
    assert [w.at for w in written_dates(request_)] == sorted(w.at for w in written_dates(request_))


@pytest.mark.parametrize(("text", "format_"), [
    ("both dates as YYYY-MM-DD", "YYYY-MM-DD"),
    ("the day, as DD/MM/YYYY", "DD/MM/YYYY"),
    ("an ISO 8601 date", "YYYY-MM-DD"),
    ("MM.DD.YYYY please", "MM.DD.YYYY"),
    ("HH:MM on the day", None),
    ("a number of days", None),
])
def test_the_date_format_a_skill_documents(text: str, format_: str | None) -> None:
    assert date_format(text) == format_


def test_two_dates_go_to_the_placeholders_their_defining_sentence_points_at() -> None:
    body = ("Run `python3 x.py HIRED LEFT` with both dates as DD/MM/YYYY: HIRED the date of hiring, "
            "LEFT the day they left.\n")
    request = "How long did someone work who left on 5 May 2021 and was hired on 2 February 2015?"
    # The sentence: "HIRED the date of hiring" and "was hired on"; written as the skill says.
    assert enums(body, "HIRED LEFT", request) == {"HIRED": ["02/02/2015"], "LEFT": ["05/05/2021"]}


def test_dates_the_words_do_not_tell_apart_are_both_offered() -> None:
    body = "Run `python3 x.py FIRST SECOND`, both dates as YYYY-MM-DD: FIRST one date, SECOND another date.\n"
    found = enums(body, "FIRST SECOND", "Days from 1 May 2024 until 9 May 2024?")
    assert found == {"FIRST": ["2024-05-01", "2024-05-09"], "SECOND": ["2024-05-01", "2024-05-09"]}


def test_a_placeholder_that_is_no_date_is_not_given_one() -> None:
    body = "Run `python3 x.py START DAYS`: START the first day as YYYY-MM-DD, DAYS a number of days.\n"
    found = enums(body, "START DAYS", "What date is 10 days after 3 March 2024?")
    assert found["START"] == ["2024-03-03"]
    assert "2024-03-03" not in found["DAYS"] and "10" in found["DAYS"]


def test_a_placeholder_named_as_a_format_takes_the_dates_in_that_format() -> None:
    assert enums("Run `python3 x.py DD/MM/YYYY`.\n", "DD/MM/YYYY", "Which weekday was 9 November 1989?") == {
        "DD/MM/YYYY": ["09/11/1989"]}
    # A DATE with no format said: the ISO date most scripts take.
    assert enums("Run `python3 x.py DATE`.\n", "DATE", "Which weekday was 9 November 1989?") == {
        "DATE": ["1989-11-09"]}


def test_a_described_value_list_is_not_a_date() -> None:
    usage = parse_usage(f"{START} DAY", START)
    assert usage is not None
    spec = filled_spec("s", START, usage, [Described("DAY", "", ("mon", "tue"))], ["2024-01-01"],
                       "On 1 January 2024, mon or tue?")
    assert spec.parameters["properties"]["DAY"]["enum"] == ["mon", "tue"]
