"""The terminal approver: it shows what the sandbox allows, offers the network only as its own
choice, and a closed terminal denies."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from studio.agent.approval import Approval, ApprovalRequest
from studio.commands.terminal import TerminalApprover

SANDBOX = "writes only in /w/demo; no network; private /tmp"


def request(network_choice: bool = True, grant: str | None = "`python3` in `scripts/`") -> ApprovalRequest:
    return ApprovalRequest("run_skill_script", "demo", "python3 scripts/x.py", Path("/w/demo"),
                           Path("/w/demo"), ("runs code",), (), grant, SANDBOX, network_choice)


async def answer(text: str, asked: ApprovalRequest) -> tuple[Approval, str]:
    err = io.StringIO()
    approval = await TerminalApprover(io.StringIO(text), err).approve(asked)
    return approval, err.getvalue()


async def test_the_sandbox_line_and_the_network_choice_are_shown() -> None:
    approval, shown = await answer("1\n", request())
    assert approval == Approval("once", by="user")
    assert f"  sandbox: {SANDBOX}\n" in shown
    assert "  4. Execute once and allow network for this run\n" in shown
    assert "never the network" in shown
    assert "Choose 1, 2, 3, 4 or 5 [3]: " in shown


async def test_choice_5_runs_once_reaching_only_the_named_hosts() -> None:
    offered = replace(request(), hosts=("pypi.org",))
    approval, shown = await answer("5\n\ny\n", offered)
    assert "5. Execute once and allow network only to hosts you name (it names pypi.org)" in shown
    assert approval == Approval("once", by="user", hosts=("pypi.org",), remember_hosts=True)
    approval, _ = await answer("5\nexample.com, *.pythonhosted.org\n\n", offered)
    assert approval == Approval("once", by="user", hosts=("example.com", "*.pythonhosted.org"))


async def test_choice_4_runs_once_with_the_network() -> None:
    approval, _ = await answer("4\n", request())
    assert approval == Approval("once", by="user", network=True)


async def test_always_allow_never_carries_the_network() -> None:
    approval, _ = await answer("2\n", request())
    assert approval.choice == "always" and approval.network is False


async def test_no_network_choice_where_none_is_offered() -> None:
    approval, shown = await answer("4\n\n", request(network_choice=False))
    assert "4. Execute once" not in shown
    assert "Please answer 1, 2 or 3." in shown
    assert approval.choice == "deny" and approval.network is False


async def test_a_closed_terminal_denies() -> None:
    approval, _ = await answer("", request())
    assert approval == Approval("deny", by="user", reason="the terminal closed before an answer")


async def test_a_request_from_a_fork_says_which_forks_asked() -> None:
    _, shown = await answer("1\n", replace(request(), forks=("outer", "inner")))
    assert "  (asked inside the fork running outer > inner)\n" in shown
    _, plain = await answer("1\n", request())
    assert "fork" not in plain
