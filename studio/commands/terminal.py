"""Asking for approval on a terminal, the way Ollama's agent does: execute once, always allow, or
deny with a reason; and, as a separate choice, execute once with the network. Input is read in a
daemon thread so the event loop keeps running, and a chat stopped at the prompt (Ctrl+C, SIGTERM)
does not wait for a line that never comes."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from typing import TextIO

from studio.agent import Approval, ApprovalRequest
from studio.textshow import shown


def _indented(text: str, indent: str) -> str:
    """`text` shown exactly (every control, escape, bidi and zero-width character as a marker),
    each of its lines under `indent`."""
    return "".join(f"{indent}{line}\n" for line in shown(text).split("\n"))


class TerminalApprover:
    def __init__(self, stdin: TextIO | None = None, stderr: TextIO | None = None) -> None:
        self._in = stdin or sys.stdin
        self._err = stderr or sys.stderr

    def _show(self, request: ApprovalRequest) -> None:
        # Everything here comes from the model, a skill or the policy's reading of them: shown
        # exactly, so `\e[2K\r` cannot make one command look like another.
        write = self._err.write
        if request.preview:
            write(f"\nThe model wants to {shown(request.command)}:\n")
            write(_indented(request.preview.rstrip("\n"), "    "))
        else:
            write(f"\n{shown(request.skill)} wants to run, in {shown(str(request.cwd))}:\n")
            write(_indented(request.command, "    "))
        if request.forks:
            write(f"  (asked inside the fork running {shown(' > '.join(request.forks))})\n")
        for kind, message in request.warnings:
            write(_indented(f"! {kind}: {message}", "  "))
        for reason in request.reasons:
            write(_indented(f"- {reason}", "  "))
        if request.sandbox:
            write(_indented(f"sandbox: {request.sandbox}", "  "))
        write("  1. Save it\n" if request.preview else "  1. Execute once\n")
        if request.grant_scope is not None:
            write(f"  2. Always allow ({shown(request.grant_scope)}, for this session; never the "
                  "network)\n")
        else:
            write("  2. Always allow (not offered: this command cannot be granted)\n")
        write("  3. Deny\n")
        if request.network_choice:
            write("  4. Execute once and allow network for this run\n")
            named = f" (it names {shown(', '.join(request.hosts))})" if request.hosts else ""
            write(f"  5. Execute once and allow network only to hosts you name{named}\n")
        self._err.flush()

    async def _ask(self, prompt: str) -> str:
        self._err.write(prompt)
        self._err.flush()
        line = await self._readline()
        if not line:
            raise EOFError
        return line.strip()

    async def _readline(self) -> str:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        def settle(line: str | None, error: BaseException | None) -> None:
            if answer.done():
                return
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(line or "")

        def read() -> None:
            line, error = None, None
            try:
                line = self._in.readline()
            except (OSError, ValueError) as exc:
                error = EOFError(str(exc))
            # The loop is gone when the chat ended while this thread waited for a line.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, line, error)

        threading.Thread(target=read, name="approval-prompt", daemon=True).start()
        return await answer

    async def _hosts(self, request: ApprovalRequest) -> Approval:
        offered = shown(" ".join(request.hosts))
        hint = f" [{offered}]" if offered else ""
        given = (await self._ask(f"Hosts, separated by spaces; * for any host{hint}: ")).replace(",", " ")
        hosts = tuple(given.split()) or request.hosts
        if not hosts:
            return Approval("once", by="user")
        keep = await self._ask("Remember these hosts for this workspace? [y/N]: ")
        return Approval("once", by="user", hosts=hosts,
                        remember_hosts=keep.lower() in ("y", "yes"))

    async def approve(self, request: ApprovalRequest) -> Approval:
        self._show(request)
        choices = "1, 2, 3, 4 or 5" if request.network_choice else "1, 2 or 3"
        try:
            while True:
                answer = (await self._ask(f"Choose {choices} [3]: ")).lower()
                if answer in ("1", "e", "execute", "y", "yes"):
                    return Approval("once", by="user")
                if answer == "4" and request.network_choice:
                    return Approval("once", by="user", network=True)
                if answer == "5" and request.network_choice:
                    return await self._hosts(request)
                if answer in ("2", "a", "always") and request.grant_scope is not None:
                    return Approval("always", by="user")
                if answer in ("", "3", "d", "deny", "n", "no"):
                    reason = await self._ask("Reason for the model (optional): ")
                    return Approval("deny", by="user", reason=reason or None)
                self._err.write(f"Please answer {choices}.\n")
        except EOFError:
            return Approval("deny", by="user", reason="the terminal closed before an answer")
