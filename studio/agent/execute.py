"""Carrying out one tool call, dispatched by its record in `toolbook.py` to one of three paths:
an answer (nothing run, nothing written); a command (the policy's verdict, the approver's word
where it asks, the run in the sandbox); a draft (written only once approved). Runs and drafts
leave audit lines (`audit_trail.py`). Yields the events the user sees, ending with `ToolFinished`."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from studio.agent.approval import Approval, ApprovalRequest, Approver
from studio.agent.audit_trail import AuditTrail
from studio.agent.drafts import CREATE, DraftRefused
from studio.agent.events import (
    ApprovalGiven,
    ApprovalNeeded,
    ChatNotice,
    Event,
    ToolFinished,
    ToolOutput,
    ToolStarted,
    ToolStatus,
    ToolWrites,
)
from studio.agent.firstrun import FirstRunThreats
from studio.agent.holding import HoldingArea
from studio.agent.offload import off_loop
from studio.agent.run import (
    DEFAULT_OUTPUT_CAP,
    DEFAULT_TIMEOUT,
    RunError,
    RunResult,
    command_problem,
    run_command,
)
from studio.agent.sandbox import Sandbox, Support, detect
from studio.agent.toolbook import TOOL_BOOK
from studio.agent.tools import SkillToolbox, ToolError
from studio.agent.watch import RunWatch
from studio.llm import ToolCall
from studio.policy import AuditLog, Grants, GrantsError, PolicyContext, judge
from studio.settings import Limits


class ToolExecutor:
    """Runs the skill tools for one conversation.

    Attributes:
        toolbox: the skills and what the tools do with them.
        approver: who is asked when the policy says `ask`.
        grants: "always allow" grants, checked by the policy.
        audit: where every decision and run is logged (None: not logged).
        support: the OS sandbox this machine offers; without one, what the policy would allow
            is asked about instead, since nothing would contain it.
        allow_network: every run may use the network (`--allow-network`); otherwise only a run
            whose approval says so, or the hosts granted to the workspace, through the proxy.
        limits: what each sandboxed run may use.
        allow_env: names of the studio's environment passed to commands besides the allowlist.
        holding: where files a run wrote that other tools would run wait for Keep or Discard.
    """

    def __init__(
        self,
        toolbox: SkillToolbox,
        approver: Approver,
        grants: Grants,
        audit: AuditLog | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        output_cap: int = DEFAULT_OUTPUT_CAP,
        home: Path | None = None,
        support: Support | None = None,
        allow_network: bool = False,
        limits: Limits | None = None,
        allow_env: tuple[str, ...] = (),
        holding: HoldingArea | None = None,
    ) -> None:
        self.toolbox = toolbox
        self.approver = approver
        self.grants = grants
        self.audit = audit
        self.timeout = timeout
        self.output_cap = output_cap
        self.home = home if home is not None else Path.home()
        self.support = support if support is not None else detect()
        self.allow_network = allow_network
        self.limits = limits if limits is not None else Limits()
        self.allow_env = allow_env
        self.holding = holding if holding is not None else HoldingArea()
        # Shared with forks (a shallow copy): a skill's findings are shown once per session.
        self.first_runs = FirstRunThreats()

    def for_fork(self, approver: Approver, toolbox: SkillToolbox | None = None) -> ToolExecutor:
        """The tools of a fork: the same policy, workspace mode, grants, audit log, sandbox and
        limits, asking `approver`, over `toolbox`'s skills (default: these)."""
        child = copy.copy(self)
        child.approver = approver
        child.toolbox = toolbox if toolbox is not None else self.toolbox
        return child

    def describe(self, call: ToolCall) -> str:
        entry = TOOL_BOOK.get(call.name)
        return entry.describe(call.arguments) if entry is not None else call.name

    def workspace_for(self, directory: Path) -> Path:
        """The project folder when the skill is inside it, else the skill's own folder."""
        workspace = self.toolbox.workspace.resolve()
        return workspace if directory.resolve().is_relative_to(workspace) else directory.resolve()

    @property
    def toolbox_tool_names(self) -> tuple[str, ...]:
        """The names taken for calls in a model's text: the tools, and the skills, which small
        models call as if they were tools (`execute` makes that `activate_skill`)."""
        return (*self.toolbox.tool_names, *self.toolbox.names)

    async def execute(self, call: ToolCall) -> AsyncIterator[Event]:
        call = self.toolbox.repair_call(call)
        names = self.toolbox.tool_names
        if call.name not in names:
            yield ToolFinished(
                call.id, call.name, "error",
                f"error: there is no tool {call.name!r}; the tools are {', '.join(names)}",
            )
            return
        if call.invalid_arguments is not None:
            yield ToolFinished(
                call.id, call.name, "error",
                f"error: the arguments must be a JSON object, not {call.invalid_arguments!r}",
            )
            return
        async for event in TOOL_BOOK[call.name].handler(self, call):
            yield event

    async def answer(self, call: ToolCall, work: Callable[[], Awaitable[str]]) -> AsyncIterator[Event]:
        """A tool that runs nothing and writes nothing: started, then `work`'s answer or error."""
        yield ToolStarted(call.id, call.name, _text(call.arguments.get("skill") or
                                                    call.arguments.get("name")), None, None)
        started = time.monotonic()
        try:
            result = await work()
        except (ToolError, OSError) as exc:
            yield ToolFinished(call.id, call.name, "error", f"error: {exc}",
                               duration=time.monotonic() - started)
            return
        yield ToolFinished(call.id, call.name, "ok", result, duration=time.monotonic() - started)

    async def write_draft(self, call: ToolCall) -> AsyncIterator[Event]:
        """A skill the model drafted: validated (an invalid one goes back with the diagnostics),
        then shown for approval, then written. Nothing is written without an approval."""
        drafts = self.toolbox.drafts
        assert drafts is not None  # the tool is only offered with a desk
        try:
            if call.name == CREATE:
                await drafts.pick_folder(_text(call.arguments.get("name")) or "a new skill")
            draft = drafts.draft(call.name, call.arguments)
        except (DraftRefused, OSError) as exc:
            yield ToolFinished(call.id, call.name, "error", f"error: {exc}")
            return
        what = f"{'create' if draft.is_new else 'update'} skill {draft.name} in {draft.directory}"
        workspace = self.toolbox.workspace
        reasons = ("the model wants to save a skill; nothing is written unless you approve",)
        request = ApprovalRequest(
            tool=call.name, skill=draft.name, command=what, cwd=draft.directory,
            workspace=workspace, reasons=reasons, warnings=(), grant_scope=None,
            preview=draft.preview,
        )
        yield ApprovalNeeded(call.id, what, draft.name, str(draft.directory), reasons, ())
        approval = await self.approver.approve(request)
        log = AuditTrail(self.audit, what, draft.directory, workspace, draft.name)
        log.approval(approval)
        for notice in log.notices():
            yield notice
        yield ApprovalGiven(call.id, approval.choice, approval.by, approval.reason)
        if not approval.approved:
            why = f": {approval.reason}" if approval.reason else ""
            yield ToolFinished(call.id, call.name, "denied",
                               f"the user did not save it{why}. Ask what to change.")
            return
        yield ToolStarted(call.id, call.name, draft.name, str(draft.directory), None)
        try:
            drafts.write(draft)
        except OSError as exc:
            yield ToolFinished(call.id, call.name, "error",
                               f"error: cannot write {draft.directory}: {exc}; nothing was saved")
            return
        if draft.is_new:
            description = call.arguments.get("description")
            self.toolbox.add_created(draft.name, _text(description) or "", draft.directory)
        yield ToolFinished(call.id, call.name, "ok",
                           f"saved {draft.directory}; it is valid and can be activated now")

    async def run_command(self, call: ToolCall) -> AsyncIterator[Event]:
        skill_name = _text(call.arguments.get("skill"))
        command = call.arguments.get("command")
        try:
            entry = self.toolbox.entry(skill_name)
            if not isinstance(command, str) or not command.strip():
                raise ToolError("`command` must be the command line to run")
            problem = command_problem(command)
            if problem is not None:
                raise ToolError(problem)
            # A zipped skill may have to be unpacked first.
            cwd = (await off_loop(self.toolbox.script_folder, entry.name) if entry.read_only
                   else entry.directory)
            problem = self.toolbox.missing_script(entry.name, command, cwd)
            if problem is not None:
                raise ToolError(problem)
        except ToolError as exc:
            yield ToolFinished(call.id, call.name, "error", f"error: {exc}")
            return
        workspace = self.workspace_for(cwd)
        allowed_tools = self.toolbox.load(entry.name).allowed_tools
        context = PolicyContext(
            workspace=workspace, cwd=cwd, home=self.home, skill=entry.name,
            allowed_tools=tuple(allowed_tools) if allowed_tools is not None else None,
        )
        sandbox = (Sandbox.for_run(cwd, workspace, home=self.home, network=self.allow_network,
                                   limits=self.limits).with_hosts(self.grants.hosts(workspace))
                   if self.support.available else None)
        if sandbox is not None and entry.read_only and self.toolbox.unpacked is not None:
            # The unpacked copies are shared by every run of their archives: no run may change them.
            sandbox = sandbox.with_read_only(self.toolbox.unpacked.root)
        decision = judge(command, context, self.grants)
        log = AuditTrail(self.audit, command, cwd, workspace, entry.name)
        log.decision(decision)
        for notice in log.notices():
            yield notice
        if decision.verdict == "block":
            text = "\n".join(r if r.startswith("blocked") else f"blocked: {r}" for r in decision.reasons)
            yield ToolFinished(call.id, call.name, "blocked", text)
            return
        approved_by, how = "policy", "allow"
        unsandboxed = () if sandbox is not None else (("sandbox", self.support.notice()),)
        threats = await off_loop(self.first_runs.warnings, entry.name, cwd, command)
        if decision.verdict == "ask" or unsandboxed or threats:
            proposal = decision.grant
            asked_because = tuple(decision.reasons) if decision.verdict == "ask" else (
                "the policy would allow it inside a sandbox, and there is none here",
            ) if unsandboxed else ("the skill's script holds what could harm you (threat "
                                   "findings below); read them before its first run",)
            warnings = (*unsandboxed, *threats, *((w.kind, w.message) for w in decision.warnings))
            request = ApprovalRequest(
                tool=call.name, skill=entry.name, command=command, cwd=cwd, workspace=workspace,
                reasons=asked_because, warnings=warnings,
                grant_scope=proposal.description if proposal is not None else None,
                sandbox=sandbox.describe() if sandbox is not None else self.support.notice(),
                network_choice=sandbox is not None and not sandbox.network,
                hosts=command_hosts(command) if sandbox is not None else (),
                unsandboxed=self.support.problem if sandbox is None else "",
            )
            yield ApprovalNeeded(
                call.id, command, entry.name, str(cwd), asked_because,
                tuple(message for _kind, message in warnings), request.unsandboxed,
            )
            approval = await self.approver.approve(request)
            if approval.choice == "always" and proposal is not None:
                try:
                    self.grants.add_proposal(proposal, remember=approval.remember)
                except GrantsError as exc:
                    yield ChatNotice(f"the grant holds for this session only: {exc}")
            log.approval(approval)
            approved_by, how = approval.by, approval.choice
            yield ApprovalGiven(
                call.id, approval.choice, approval.by, approval.reason,
                request.grant_scope if approval.choice == "always" else None,
            )
            if not approval.approved:
                why = f": {approval.reason}" if approval.reason else ""
                yield ToolFinished(
                    call.id, call.name, "denied",
                    f"denied by {approval.by}{why}. Do not run it another way; tell the user.",
                )
                return
            if sandbox is not None and approval.network:
                sandbox = sandbox.with_network(True)
            if sandbox is not None and approval.hosts:
                sandbox = sandbox.with_hosts(approval.hosts)
                for notice in self._remember_hosts(approval, workspace):
                    yield notice
        else:
            yield ApprovalGiven(call.id, "allow", "policy")
        async for event in self._spawn(call, command, cwd, sandbox, log, approved_by, how):
            yield event
        for notice in log.notices():
            yield notice

    def _remember_hosts(self, approval: Approval, workspace: Path) -> list[ChatNotice]:
        if not approval.remember_hosts:
            return []
        try:
            for host in approval.hosts:
                self.grants.add_host(host, workspace, remember=True)
        except GrantsError as exc:
            return [ChatNotice(f"the hosts hold for this run only: {exc}")]
        return []

    async def _spawn(
        self, call: ToolCall, command: str, cwd: Path, sandbox: Sandbox | None, log: AuditTrail,
        approved_by: str, how: str,
    ) -> AsyncIterator[Event]:
        yield ToolStarted(
            call.id, call.name, _text(call.arguments.get("skill")), str(cwd), command,
            sandbox.describe() if sandbox is not None else self.support.notice(),
        )
        folders = sandbox.writable if sandbox is not None else (cwd, log.workspace)
        watch = RunWatch(folders, log.workspace,
                         ignore=(self.audit.path,) if self.audit is not None else ())
        await off_loop(watch.start)
        queue: asyncio.Queue[str] = asyncio.Queue()
        task = asyncio.ensure_future(
            run_command(command, cwd, timeout=self.timeout, output_cap=self.output_cap,
                        on_output=queue.put_nowait, sandbox=sandbox, support=self.support,
                        allow_env=self.allow_env, on_connection=log.connection)
        )
        cancelled = True
        failure: RunError | None = None
        try:
            while not task.done() or not queue.empty():
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield ToolOutput(call.id, getter.result())
                else:
                    getter.cancel()
            try:
                result: RunResult = task.result()
            except RunError as exc:
                failure = exc
            cancelled = False
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if cancelled:
                log.cancelled_run(approved_by, how)
                # Stopped: what it wrote so far is still held back and logged, though no card
                # hears of it.
                stopped = await asyncio.shield(self._writes(watch, call, command, cwd, log))
                if stopped.wrote:
                    log.writes(stopped)
        writes = await self._writes(watch, call, command, cwd, log)
        if writes.wrote:
            log.writes(writes)
            yield writes
        if failure is not None:
            yield ToolFinished(call.id, call.name, "error", f"error: {failure}")
            return
        status: ToolStatus = (
            "timeout" if result.timed_out else ("ok" if result.exit_code == 0 else "failed")
        )
        log.run(result, approved_by, how)
        yield ToolFinished(
            call.id, call.name, status, result.for_model() + _held_note(writes),
            result.exit_code, result.duration, result.truncated,
        )

    async def _writes(self, watch: RunWatch, call: ToolCall, command: str, cwd: Path,
                      log: AuditTrail) -> ToolWrites:
        return await off_loop(lambda: watch.finish(self.holding, call.id, command=command,
                                                   cwd=cwd, skill=log.skill))


def _held_note(writes: ToolWrites) -> str:
    """What the model is told of held files: they are not there, and the user decides."""
    if not writes.held:
        return ""
    names = ", ".join(item.path for item in writes.held)
    return (f"\n[held back, not in the folder: {names}. Other tools run such files, so they "
            "land only if the user keeps them; do not write them again]")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


_URL_HOST = re.compile(r"\b(?:https?|git|wss?)://(?:[^@/\s'\"]*@)?(\[[0-9a-fA-F:]+\]|[\w.-]+)")


def command_hosts(command: str) -> tuple[str, ...]:
    """The hosts of the URLs a command names, in order, each once: what an approver is offered
    to let through the proxy."""
    return tuple(dict.fromkeys(match.lower().strip("[]") for match in _URL_HOST.findall(command)))
