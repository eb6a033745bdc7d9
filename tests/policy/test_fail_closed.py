"""The policy fails closed: what it cannot fully explain is never allowed, and the checker itself
never raises and never runs past its budget (an unfinished check blocks)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.policy import judge
from studio.policy.programs.call import Call
from studio.policy.programs.rules import HANDLERS
from studio.policy.shell.budget import Budget
from tests.policy.world import World

# Benign pieces that are allowed on their own, so that the tricky piece decides.
_BENIGN = st.sampled_from(
    ["ls", "cat README.md", "grep -n x README.md", "wc -l notes.md", "head -3 SKILL.md", "echo hi", "pwd"]
)

# Constructs the policy must not allow, however they are dressed: each evaluates, hides a value,
# runs something unknown or has an option the allowlist does not list.
_TRICKY = st.sampled_from(
    [
        "$UNSET_VALUE",
        "${x@P}",
        "${!name}",
        "${arr[$(id)]}",
        "${HOME:0:1}",
        "$(( q + 1 ))",
        "`frobnicate`",
        "$(frobnicate)",
    ]
)
_TRICKY_COMMANDS = st.sampled_from(
    [
        "(( x ))",
        "let x=1",
        "eval ls",
        "declare x=1",
        "typeset -i y",
        "read z",
        "printf -v v x",
        "unset a",
        "test -v a",
        "[[ -v a ]]",
        "[[ $n -eq 1 ]]",
        "set -x",
        "trap ls EXIT",
        "source x.sh",
        ". ./x.sh",
        "frobnicate",
        "f(){ ls; }; f",
        "sort --out=x README.md",
        "sort --o=x README.md",
        "ls --frob",
        "grep --qq x README.md",
        "sed 1e README.md",
        "awk 'BEGIN{system(\"id\")}'",
        "find . -exec ls {} +",
        "xargs -e ls",
        "env",
        "cd ~- && ls",
        "(cd references) && ls",
        "cd - && ls",
        "git log --outp=x",
        "go env -w X=1",
        "ps e",
        "cat <(frobnicate)",
    ]
)
_JOINERS = st.sampled_from(["; ", " && ", " || ", " | ", "\n", " & "])


@st.composite
def _unexplained(draw: st.DrawFn) -> str:
    """A command line with at least one piece the policy cannot fully explain, somewhere in it."""
    if draw(st.booleans()):
        tricky = draw(_TRICKY_COMMANDS)
    else:
        program = draw(st.sampled_from(["echo", "cat", "ls", "wc -l", "grep x"]))
        quote = draw(st.sampled_from(["{}", '"{}"', "x{}y"]))
        tricky = f"{program} {quote.format(draw(_TRICKY))}"
    wrapper = draw(
        st.sampled_from(
            ["{}", "( {} )", "{{ {}; }}", "bash -c '{}'", "echo $({})", "true && {}", "if true; then {}; fi"]
        )
    )
    if "'" in tricky and wrapper.startswith("bash -c"):
        wrapper = "{}"
    pieces = draw(st.lists(_BENIGN, max_size=3))
    pieces.insert(draw(st.integers(0, len(pieces))), wrapper.format(tricky))
    joiners = [draw(_JOINERS) for _ in pieces[1:]]
    return pieces[0] + "".join(j + p for j, p in zip(joiners, pieces[1:], strict=True))


_QUICK = settings(
    max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_QUICK
@given(_unexplained())
def test_what_the_parser_cannot_explain_is_never_allowed(world: World, command: str) -> None:
    decision = judge(command, world.context)
    assert decision.verdict != "allow", (command, decision.reasons)


_SHELL_CHARS = st.sampled_from(list("abcx $(){}[]<>|&;'\"`\\!#*?~=-\n\t@%^,.:/0123456789\x00"))


@_QUICK
@given(st.text(_SHELL_CHARS, max_size=300))
def test_the_checker_never_raises_and_stays_within_its_budget(world: World, command: str) -> None:
    budget = Budget()
    decision = judge(command, world.context, budget=budget)
    assert decision.verdict in ("allow", "ask", "block")
    assert not any("could not be checked" in r for r in decision.reasons), (command, decision.reasons)


def test_running_out_of_time_blocks_as_could_not_be_checked(world: World) -> None:
    budget = Budget(steps=5)
    decision = judge("cat README.md notes.md; ls references; grep -rn x .", world.context, budget=budget)
    assert decision.verdict == "block"
    assert [b.kind for b in decision.blockers] == ["parse"]
    assert "could not be checked" in decision.reasons[0]
    assert "more work than" in decision.reasons[0]


def test_an_error_inside_a_rule_blocks_instead_of_raising(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(call: Call) -> None:
        raise KeyError("surprise")

    monkeypatch.setitem(HANDLERS, "wc", broken)
    decision = judge("wc -l README.md", world.context)
    assert decision.verdict == "block" and "could not be checked" in decision.reasons[0]


@pytest.mark.parametrize(
    ("command", "verdicts"),
    [
        ("env " * 300 + "ls", {"block"}),
        ("echo " + "{a,b}" * 1200, {"block"}),
        ("echo " + "$(" * 500 + "ls" + ")" * 500, {"block"}),
        ("cat " + "/*" * 12 + "/zz", {"ask"}),
        ("(" * 400 + "ls" + ")" * 400, {"block"}),
        ("cat '\x00'", {"block"}),
        # Harmless once read: a sed script that replaces 20 backslashes, and `$'\x00'`, an empty
        # word (bash ends the string at the NUL); what matters is that they are read at once.
        ("sed 's/" + "\\" * 40 + "/x/' README.md", {"allow"}),
        ("cat $'\\x00'", {"allow"}),
    ],
    ids=[
        "env-x300", "braces-x1200", "substitutions-x500", "deep-glob", "parens", "nul", "backslashes",
        "ansi-nul",
    ],
)
def test_hostile_inputs_get_a_prompt_answer(world: World, command: str, verdicts: set[str]) -> None:
    budget = Budget()
    decision = judge(command, world.context, budget=budget)
    assert decision.verdict in verdicts, decision.reasons
    assert budget.used <= budget.steps


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("ls", "allow"),
        ("ls -la references", "allow"),
        ("cat README.md notes.md", "allow"),
        ("grep -n name SKILL.md", "allow"),
        ("wc -l README.md", "allow"),
        ("head -n 3 notes.md | tail -1", "allow"),
        ("sort --reverse assets/sample.csv", "allow"),
        ("sort --rev assets/sample.csv", "allow"),
        ("git log --onel -3", "allow"),
        ("python3 scripts/extract.py", "ask"),
        ("bash scripts/run.sh", "ask"),
    ],
)
def test_benign_commands_keep_their_verdict(world: World, command: str, verdict: str) -> None:
    assert judge(command, world.context).verdict == verdict


def test_an_option_the_allowlist_does_not_know_cannot_be_granted(world: World) -> None:
    """Granting `sort` for a write must not carry an option nobody read along with it."""
    for command in ("sort --random-source=x README.md", "sort --out=sorted.txt --random-source=x README.md"):
        decision = judge(command, world.context)
        assert decision.verdict == "ask" and decision.grant is None, command
    assert judge("sort --out=sorted.txt README.md", world.context).grant is not None
