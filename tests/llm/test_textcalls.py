"""Tool calls small models write as text: bare JSON, fenced JSON, <tool_call> tags."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.llm.textcalls import extract_tool_calls

KNOWN = {"activate_skill", "read_skill_file", "run_skill_script"}


def _single(text: str) -> tuple[str, dict[str, object], str]:
    found, rest = extract_tool_calls(text, KNOWN)
    assert len(found) == 1, found
    return found[0].name, found[0].arguments, rest


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "activate_skill", "arguments": {"name": "pdf"}}',
        '{"name": "activate_skill", "parameters": {"name": "pdf"}}',
        '{"tool": "activate_skill", "args": {"name": "pdf"}}',
        '{"tool_name": "activate_skill", "tool_input": {"name": "pdf"}}',
        '{"function": "activate_skill", "arguments": "{\\"name\\": \\"pdf\\"}"}',
        '{"type": "function", "function": {"name": "activate_skill", "arguments": {"name": "pdf"}}}',
        '{"tool_call": {"name": "activate_skill", "arguments": {"name": "pdf"}}}',
        '{"activate_skill": {"name": "pdf"}}',
        '  {"name": "activate_skill", "arguments": {"name": "pdf"}}\n',
    ],
)
def test_call_shapes(text: str) -> None:
    assert _single(text) == ("activate_skill", {"name": "pdf"}, "")


def test_fenced_call_with_prose_around_it() -> None:
    text = 'I will load it.\n```json\n{"name": "activate_skill", "arguments": {"name": "pdf"}}\n```\nDone.'
    name, arguments, rest = _single(text)
    assert (name, arguments) == ("activate_skill", {"name": "pdf"})
    assert rest == "I will load it.\n\nDone."


def test_tagged_calls_in_order() -> None:
    text = (
        "First the skill.\n<tool_call>\n"
        '{"name": "activate_skill", "arguments": {"name": "pdf"}}\n</tool_call>\n'
        '<tool_call>{"name": "read_skill_file", "arguments": {"skill": "pdf", "path": "a.md"}}</tool_call>'
    )
    found, rest = extract_tool_calls(text, KNOWN)
    assert [c.name for c in found] == ["activate_skill", "read_skill_file"]
    assert found[1].arguments == {"skill": "pdf", "path": "a.md"}
    assert rest == "First the skill."
    assert found[0].id != found[1].id


def test_an_unclosed_tag_at_the_end_still_counts() -> None:
    text = '<tool_call>\n{"name": "activate_skill", "arguments": {"name": "pdf"}}'
    assert _single(text)[:2] == ("activate_skill", {"name": "pdf"})


def test_a_list_of_calls_in_a_fence() -> None:
    text = (
        "```json\n["
        '{"name": "activate_skill", "arguments": {"name": "a"}}, '
        '{"name": "activate_skill", "arguments": {"name": "b"}}'
        "]\n```"
    )
    found, rest = extract_tool_calls(text, KNOWN)
    assert [c.arguments["name"] for c in found] == ["a", "b"]
    assert rest == ""


def test_a_call_without_arguments() -> None:
    assert _single('{"name": "activate_skill"}') == ("activate_skill", {}, "")


def test_unknown_names_and_plain_json_stay_text() -> None:
    for text in (
        '{"name": "delete_everything", "arguments": {}}',
        'Config: {"name": "pdf", "version": 2}',
        '```json\n{"a": 1}\n```',
        "no braces at all",
        "{broken json",
    ):
        assert extract_tool_calls(text, KNOWN) == ([], text)


def test_no_known_tools_means_no_calls() -> None:
    text = '{"name": "activate_skill", "arguments": {}}'
    assert extract_tool_calls(text, set()) == ([], text)


def test_a_call_next_to_ordinary_json_takes_only_the_call() -> None:
    text = 'Here: {"x": 1} then {"name": "run_skill_script", "arguments": {"skill": "s", "command": "ls"}}'
    name, arguments, rest = _single(text)
    assert name == "run_skill_script"
    assert arguments == {"skill": "s", "command": "ls"}
    assert rest == 'Here: {"x": 1} then'


def test_arguments_that_are_not_an_object_are_kept_aside() -> None:
    found, _ = extract_tool_calls('{"name": "activate_skill", "arguments": "pdf please"}', KNOWN)
    assert found[0].arguments == {}
    assert found[0].invalid_arguments == "pdf please"


_PROSE = st.text(alphabet=st.sampled_from("abcdefghij XYZ.,!?\n"), max_size=40)
_ARGUMENTS = st.dictionaries(
    st.text(alphabet="abcxyz_", min_size=1, max_size=8),
    st.one_of(st.text(max_size=20), st.integers(), st.booleans(), st.none()),
    max_size=4,
)
_WRAPPERS = [
    "{call}",
    "```json\n{call}\n```",
    "<tool_call>\n{call}\n</tool_call>",
    "<tool_call>{call}",
]


@given(
    name=st.sampled_from(sorted(KNOWN)),
    arguments=_ARGUMENTS,
    wrapper=st.sampled_from(_WRAPPERS),
    before=_PROSE,
    after=_PROSE,
)
def test_any_wrapped_call_is_found_and_the_prose_kept(
    name: str, arguments: dict[str, object], wrapper: str, before: str, after: str
) -> None:
    if wrapper.startswith("<tool_call>{"):
        after = ""  # an unclosed tag runs to the end of the text
    call = json.dumps({"name": name, "arguments": arguments})
    text = f"{before}\n{wrapper.format(call=call)}\n{after}"
    found, rest = extract_tool_calls(text, KNOWN)
    assert [(c.name, c.arguments) for c in found] == [(name, arguments)]
    assert rest.split() == f"{before} {after}".split()


@given(st.text(max_size=200))
def test_text_without_a_known_call_is_left_alone(text: str) -> None:
    assert extract_tool_calls(text, {"no_such_tool_name_here"}) == ([], text)


@pytest.mark.parametrize(
    "text",
    [
        "Sure. {'name': 'activate_skill', 'arguments': {'name': 'pdf'}} Done.",
        'Sure. {"name": "activate_skill", "arguments": {"name": "pdf",},} Done.',
        '<tool_call>\n{"name": "activate_skill", "arguments": {"name": "pdf"}\n</tool_call> Done.',
        '```json\n{"name": "activate_skill", "arguments": {"name": "pdf",}}\n``` Done.',
    ],
)
def test_slightly_malformed_calls_are_mended(text: str) -> None:
    found, rest = extract_tool_calls(text, KNOWN)
    assert [(c.name, c.arguments) for c in found] == [("activate_skill", {"name": "pdf"})]
    assert rest.replace("Sure.", "").strip() == "Done."


def test_a_call_left_unclosed_at_the_end_is_mended() -> None:
    text = 'I will load it: {"name": "activate_skill", "arguments": {"name": "pdf"'
    found, rest = extract_tool_calls(text, KNOWN)
    assert [(c.name, c.arguments) for c in found] == [("activate_skill", {"name": "pdf"})]
    assert rest == "I will load it:"


def test_prose_with_stray_braces_stays_text_and_costs_linear_time() -> None:
    text = "{'a' " * 20_000 + "{'name': 'nothing known'}"
    assert extract_tool_calls(text, KNOWN) == ([], text)
