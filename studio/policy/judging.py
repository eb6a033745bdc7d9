"""`judge(command, context)`: split a command line the way bash would, judge every part (nested
ones too), and let the strictest part decide. Grants can turn an `ask` part into `allow`; nothing
turns `block` into anything else."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from studio.policy.allowed_tools import refusal
from studio.policy.decision import (
    GRANTABLE_KINDS,
    Decision,
    Finding,
    PolicyContext,
    PolicyWarning,
    Verdict,
    asking,
    blocked,
    shorten,
    strictest,
)
from studio.policy.grants import Grant, GrantProposal, Grants
from studio.policy.programs.call import Call, Inv, Part, State
from studio.policy.programs.environment import setting
from studio.policy.programs.paths import is_inside
from studio.policy.programs.rules import dispatch
from studio.policy.programs.skillguard import replaces_skill_file
from studio.policy.shell.budget import COMMAND, Budget, CheckAborted, running, tick
from studio.policy.shell.cmdline import parse
from studio.policy.shell.escapes import NAME
from studio.policy.shell.expand import (
    POSITIONAL_SEPARATOR,
    Arg,
    Env,
    Value,
    expand_value,
    expand_words,
    pipeline_output,
)
from studio.policy.shell.lexer import MAX_DEPTH
from studio.policy.shell.syntax import Arith, Param, Script, SimpleCommand, Word

MAX_COMMAND = 100_000
MAX_PER_KIND = 8
# Commands one check may look at (wrappers, `find -exec`, `xargs` and nested shells included), and
# how deep wrappers may nest (`env env env ... ls`).
MAX_CALLS = 2_000
MAX_WRAPPING = 32
# Brackets open at once; deeper lines are not parsed at all.
MAX_NESTING = 64
# Words one simple command may have, and the whole line, counted roughly before parsing; more are
# not checked one by one.
MAX_WORDS = 4_096
MAX_LINE_WORDS = 4 * MAX_WORDS
_SECRET_WORDS = (
    "KEY",
    "PASS",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "CREDENTIAL",
    "AUTH",
    "COOKIE",
    "SESSION",
    "PRIVATE",
)
_READ_REDIRECTS = frozenset({"<"})
_WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
# The ones that empty their file before the command writes a byte.
_EMPTYING_REDIRECTS = frozenset({">", ">|", "&>", ">&"})


class _Walker:
    """Walks a parsed command line, one `Part` per simple command and per cwd it may run in."""

    def __init__(self, context: PolicyContext) -> None:
        self.context = context.resolved()
        self.parts: list[Part] = []
        self.calls = 0
        self.wrapping = 0

    def new_part(self, text: str, cwd: Path | None) -> Part:
        part = Part(text.strip(), cwd)
        self.parts.append(part)
        return part

    def run(self, command: str) -> None:
        state = State([self.context.cwd], Env.initial(self.context.home, self.context.cwd))
        if len(command) > MAX_COMMAND:
            self.new_part(shorten(command), self.context.cwd).add(
                asking("parse", f"the command is {len(command):,} characters long, too long to check")
            )
            return
        if _nesting(command) > MAX_NESTING:
            raise CheckAborted(f"it nests brackets more than {MAX_NESTING} deep")
        if len(command.split()) > MAX_LINE_WORDS:
            self.new_part(shorten(command), self.context.cwd).add(
                asking("parse", f"the command has more than {MAX_LINE_WORDS:,} words, too many to check")
            )
            return
        self.walk_script(parse(command), state)

    def walk_text(self, text: str, state: State, positional: Sequence[Arg] = ()) -> list[Part]:
        first = len(self.parts)
        if state.depth >= MAX_DEPTH:
            self.new_part(text, state.cwds[0]).add(
                asking("parse", "the command nests shells inside shells too deeply to check")
            )
            return self.parts[first:]
        child = state.copy()
        child.depth += 1
        for number, arg in enumerate(positional):
            child.env.values[str(number)] = Value(arg.text, arg.exact)
        if positional:
            rest = positional[1:]
            exact = all(a.exact for a in rest)
            child.env.values["@"] = Value(POSITIONAL_SEPARATOR.join(a.text for a in rest), exact)
            child.env.values["*"] = Value(" ".join(a.text for a in rest), exact)
            child.env.values["#"] = Value(str(len(rest)), True)
        self.walk_script(parse(text, depth=child.depth), child)
        return self.parts[first:]

    def walk_script(self, script: Script, state: State) -> None:
        for name in script.recursive:
            self.new_part(script.text, state.cwds[0]).add(
                blocked(
                    "destructive",
                    script.text or name,
                    f"defines `{name}`, a shell function that runs itself (the shape of a fork bomb)",
                )
            )
        if script.problems or script.functions:
            part = self.new_part(script.text, state.cwds[0])
            part.grantable = False
            for problem in script.problems:
                part.add(asking("parse", f"{problem}; the policy cannot check it fully"))
            for function in script.functions:
                part.add(
                    asking(
                        "indirection",
                        f"defines the shell function `{function}`, which can stand in for another command",
                    )
                )
        pipeline: list[SimpleCommand] = []
        for command in script.commands:
            if not command.pipe_in:
                pipeline = []
            self.walk_command(command, state, pipeline)
            pipeline.append(command)

    def walk_command(self, command: SimpleCommand, state: State, before: list[SimpleCommand]) -> None:
        tick(COMMAND)
        for nested in command.scripts:
            self.walk_script(nested, state.copy())
        if command.keyword is not None:
            self._keyword(command, state)
            return
        if command.joined != "&&" and not command.pipe_in:
            state.chain = None
        cwds = state.chain if state.chain is not None else state.cwds
        known_cwds, chain = list(state.cwds), state.chain
        if len(command.words) > MAX_WORDS:
            raise CheckAborted(f"a command has more than {MAX_WORDS:,} words")
        for cwd in list(cwds):
            self._count()
            part = self.new_part(command.text, cwd)
            _expansions(command, part, state.env)
            args = tuple(expand_words(command.words, state.env, cwd))
            self._assignments(command, part, state, cwd)
            stdin, stdin_unknown = self._redirects(command, part, state, cwd)
            if command.pipe_in and stdin is None and not stdin_unknown:
                stdin = pipeline_output(before, state.env, cwd, None)
                stdin_unknown = stdin is None
            upstream = " | ".join(c.text for c in before) if command.pipe_in else ""
            inv = Inv(args, cwd, command.text, stdin, stdin_unknown, upstream=upstream)
            dispatch(inv, part, self, state)
            if not args and not part.findings:
                part.program = None
        if (command.subshell or command.pipe_in or command.pipe_out) and (
            state.cwds != known_cwds or state.chain is not chain
        ):
            # A `cd` in a subshell or a pipeline may or may not outlast it, as the policy reads the
            # line: from here on the folder is not known.
            state.cwds = [*known_cwds, None] if None not in known_cwds else known_cwds
            state.chain = [None]

    def invoke(self, inv: Inv, part: Part, state: State) -> None:
        self._count()
        self.wrapping += 1
        try:
            if self.wrapping > MAX_WRAPPING:
                raise CheckAborted(f"it wraps commands in other commands more than {MAX_WRAPPING} deep")
            dispatch(inv, part, self, state)
        finally:
            self.wrapping -= 1

    def invoke_nested(self, inv: Inv, state: State) -> Part:
        part = self.new_part(inv.text, inv.cwd)
        self.invoke(inv, part, state)
        return part

    def _count(self) -> None:
        tick(COMMAND)
        self.calls += 1
        if self.calls > MAX_CALLS:
            raise CheckAborted(f"it runs more than {MAX_CALLS:,} commands")

    def _keyword(self, command: SimpleCommand, state: State) -> None:
        """`[[ ]]`, `(( ))`, `for` and `case` run no program, but bash evaluates their words."""
        part = Part(command.text.strip(), state.cwds[0])
        part.grantable = False
        _expansions(command, part, state.env)
        texts = [word.literal for word in command.words]
        if command.keyword in ("for", "select") and texts:
            # The loop assigns its variable: `for PATH in .` changes what every command in the
            # loop runs, like `PATH=.` would.
            name = texts[0]
            call = Call(command.keyword, [], Inv((), state.cwds[0], command.text), part, self, state)
            if name is None or not re.fullmatch(NAME, name):
                what = f"`{command.keyword}` assigns to a name only known when it runs"
                part.add(asking("indirection", what))
            else:
                setting(call, name, None, exported=False, verb="loops over")
        if command.keyword == "((":
            if not all(_literal_arithmetic(word.raw) for word in command.words):
                part.add(_arithmetic(command.text))
        elif command.keyword == "[[":
            for index, text in enumerate(texts):
                if text in ("-v", "-R"):
                    part.add(
                        asking("indirection", f"`[[ {text} ]]` looks up a variable by a name bash evaluates")
                    )
                elif text in _ARITHMETIC_TESTS:
                    operands = texts[index - 1 : index] + texts[index + 1 : index + 2]
                    if not all(o is not None and re.fullmatch(r"-?\d+", o) for o in operands):
                        part.add(_arithmetic(command.text))
        if part.findings:
            self.parts.append(part)

    def _assignments(self, command: SimpleCommand, part: Part, state: State, cwd: Path | None) -> None:
        """Assignments before a command reach it through its environment; bare ones set shell
        variables. Either way only names known to be harmless pass (see `environment`)."""
        call = Call("env", [], Inv((), cwd, command.text), part, self, state)
        for assignment in command.assignments:
            value = expand_value(assignment.value, state.env, cwd)
            if assignment.value.raw.startswith("(") and "[" in assignment.value.raw:
                # `a=([x]=1)`: bash evaluates the subscript as arithmetic, commands hidden in
                # variables included.
                part.add(_arithmetic(assignment.value.raw))
            setting(call, assignment.name, value, exported=bool(command.words))
            if not command.words and cwd == state.cwds[0]:
                state.env.assign(assignment.name, Value(value.text, value.exact) if value.known else None)

    def _redirects(
        self, command: SimpleCommand, part: Part, state: State, cwd: Path | None
    ) -> tuple[str | None, bool]:
        """Check redirection targets; return what the command reads on stdin, if the line says."""
        call = Call("redirection", [], Inv((), cwd, command.text), part, self, state)
        stdin: str | None = None
        unknown = False
        for redirect in command.redirects:
            if redirect.heredoc is not None:
                stdin = redirect.heredoc.body
                unknown = not redirect.heredoc.quoted and "$" in stdin
                continue
            if redirect.target is None:
                continue
            target = expand_value(redirect.target, state.env, cwd)
            if (
                redirect.op in (">&", "<&")
                and target.known
                and (target.text.isdigit() or target.text == "-" or target.text.endswith("-"))
            ):
                continue
            if redirect.op == "<<<":
                stdin, unknown = (target.text + "\n", not target.exact) if target.known else (None, True)
            elif redirect.op in _READ_REDIRECTS or redirect.op == "<&":
                call.read(target)
                stdin, unknown = None, True
            elif redirect.op in _WRITE_REDIRECTS or redirect.op == ">&":
                if redirect.op in _EMPTYING_REDIRECTS:
                    replaces_skill_file(call, target, f"empties (with `{redirect.op}`)")
                call.write(target)
        return stdin, unknown


def judge(
    command: str, context: PolicyContext, grants: Grants | None = None, budget: Budget | None = None
) -> Decision:
    """Decide whether `command` may run in `context`: allow, ask or block, with reasons.

    Never raises and never spends more than `budget` (BUDGET_STEPS unless given, about 200 ms
    of work): a check that fails or runs out of steps blocks the command, since what was not
    checked cannot be allowed. The steps are counted, not timed, so a command gets the same
    verdict on any machine under any load."""
    if "\x00" in command:
        # No program can receive a NUL: bash would run only the text before it, not what is checked.
        finding = blocked("parse", command, "holds a NUL character; bash would run only what comes before it")
        return Decision("block", (finding.message,), (), (), None, (PolicyWarning("parse", finding.message),))
    try:
        with running(budget if budget is not None else Budget()):
            walker = _Walker(context)
            walker.run(command)
            return _limited(_decide(walker.parts, walker.context, grants), command, context)
    except CheckAborted as error:
        return unchecked(command, error.reason)
    except RecursionError:
        return unchecked(command, "it nests too deeply")
    except Exception as error:
        return unchecked(command, f"the checker failed on it ({type(error).__name__}: {error})")


def _limited(decision: Decision, command: str, context: PolicyContext) -> Decision:
    """The decision once the skill's own `allowed-tools` are applied: a command they do not cover
    is blocked, whatever the rest of the policy thinks of it."""
    if context.allowed_tools is None:
        return decision
    why = refusal(context.skill or "?", context.allowed_tools, decision.parts or (command.strip(),))
    if why is None:
        return decision
    blocker = PolicyWarning("allowed-tools", why)
    reasons = decision.reasons if decision.verdict == "block" else ()
    blockers = decision.blockers if decision.verdict == "block" else ()
    return Decision(
        "block", (*reasons, why), decision.warnings, decision.parts, None, (*blockers, blocker)
    )


def unchecked(command: str, why: str) -> Decision:
    """The decision for a command the policy could not check to the end: block."""
    finding = blocked("parse", command, f"could not be checked: {why}")
    warning = PolicyWarning(finding.kind, finding.message)
    return Decision("block", (finding.message,), (), (shorten(command),), None, (warning,))


def propose_grant(command: str, context: PolicyContext) -> GrantProposal | None:
    """What "always allow" would grant for `command`, or None when no grant could allow it."""
    return judge(command, context).grant


_ARITHMETIC_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_HARMLESS_SPECIAL = frozenset({"?", "#", "$", "!", "-"})
_HEREDOC_PARAM = re.compile(rf"\$(?:\{{([^}}]*)\}}|({NAME}|[0-9@*#?$!-])|(\(\(|\[))")


def _literal_arithmetic(text: str) -> bool:
    """Arithmetic on written-out numbers only: no variable, whose value bash would evaluate too."""
    return re.fullmatch(r"[\s\d+\-*/%()<>=!&|^~?:,$]*", text) is not None and "$(" not in text.replace(
        "$((", ""
    )


def _arithmetic(text: str) -> Finding:
    if "$[" in text:
        return asking(
            "indirection",
            f"`{shorten(text, 60)}` uses bash's old `$[ ]` arithmetic, which evaluates variables and "
            "runs commands hidden in their array subscripts; the policy does not model it",
        )
    return asking(
        "indirection",
        f"`{shorten(text, 60)}` evaluates arithmetic on variables; bash runs commands hidden in "
        "their array subscripts",
    )


def _secret_name(name: str) -> bool:
    return any(word in name.upper() for word in _SECRET_WORDS)


def _expansions(command: SimpleCommand, part: Part, env: Env) -> None:
    """Fail closed on expansions: a variable whose value is not known, and every expansion that
    is more than a plain value (`${x@P}`, `${!x}`, `${a[i]}`, `$(( ))` on names), asks."""
    words: list[Word] = list(command.words) + [a.value for a in command.assignments]
    words += [r.target for r in command.redirects if r.target is not None]
    for word in words:
        for piece in word.parts:
            if isinstance(piece, Param):
                _parameter(piece.name, piece.source, piece.plain, part, env)
            elif isinstance(piece, Arith) and (
                piece.source.startswith("$[") or not _literal_arithmetic(piece.source[1:])
            ):
                part.add(_arithmetic(piece.source))
    for redirect in command.redirects:
        heredoc = redirect.heredoc
        if heredoc is None or heredoc.quoted:
            continue
        for match in _HEREDOC_PARAM.finditer(heredoc.body):
            braced, name, arithmetic = match.groups()
            if arithmetic:
                part.add(_arithmetic(heredoc.body))
            elif braced is not None:
                plain = re.fullmatch(NAME, braced) is not None
                _parameter(braced if plain else braced.lstrip("!#"), match.group(0), plain, part, env)
            else:
                _parameter(name, match.group(0), True, part, env)


def _parameter(name: str, source: str, plain: bool, part: Part, env: Env) -> None:
    if _secret_name(name):
        part.add(asking("secrets", f"uses `${name}`, which may hold a secret"))
    if not plain:
        part.add(
            asking(
                "indirection",
                f"`{shorten(source, 60)}` is an expansion the policy does not evaluate (it may hide "
                "indirection, array subscripts or prompt expansion)",
            )
        )
    elif name not in _HARMLESS_SPECIAL and env.get(name) is None:
        part.add(
            asking(
                "indirection",
                f"`{shorten(source, 60)}` has no value the policy knows before the command runs",
            )
        )


def _nesting(text: str) -> int:
    """How many brackets are open at most, counted roughly (quotes ignored) before parsing."""
    deepest = depth = 0
    for char in text:
        if char in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")}]":
            depth = max(depth - 1, 0)
    return deepest


def _grantable(part: Part) -> bool:
    if not part.grantable or part.program is None or part.cwd is None:
        return False
    return part.verdict == "ask" and all(
        f.kind in GRANTABLE_KINDS for f in part.findings if f.verdict != "allow"
    )


def _targets(part: Part) -> list[Path]:
    if part.paths:
        return list(dict.fromkeys(part.paths))
    return [part.cwd] if part.cwd is not None else []


def _decide(parts: list[Part], context: PolicyContext, grants: Grants | None) -> Decision:
    verdicts: list[Verdict] = []
    granted: list[str] = []
    needing: list[Part] = []
    warnings: list[PolicyWarning] = []
    blocks: list[PolicyWarning] = []
    for part in parts:
        verdict = part.verdict
        grant = None
        if verdict == "ask" and grants is not None and _grantable(part):
            grant = grants.covering(part.program, _targets(part), context.workspace)
        if grant is not None:
            verdict = "allow"
            granted.append(f"allowed by your grant: {grant.describe()}")
        elif verdict == "ask":
            needing.append(part)
        verdicts.append(verdict)
        for finding in part.findings:
            blocker = PolicyWarning(finding.kind, finding.message)
            if finding.verdict == "block" and blocker not in blocks:
                blocks.append(blocker)
            elif finding.verdict == "ask" and grant is None:
                warning = PolicyWarning(finding.kind, finding.message)
                if warning not in warnings:
                    warnings.append(warning)
    warnings = _capped(warnings)
    final = strictest(verdicts)
    if final == "block":
        reasons = [b.message for b in blocks]
    elif final == "ask":
        reasons = [w.message for w in warnings]
    else:
        reasons = list(dict.fromkeys(granted)) or (
            ["only read-only commands, on files inside the workspace"] if parts else ["the command is empty"]
        )
    texts = tuple(dict.fromkeys(p.text for p in parts if p.text))
    proposal = _proposal(needing, context) if final == "ask" else None
    blockers = tuple(blocks) if final == "block" else ()
    return Decision(final, tuple(reasons), tuple(warnings), texts, proposal, blockers)


def _capped(warnings: list[PolicyWarning]) -> list[PolicyWarning]:
    """At most MAX_PER_KIND warnings of one kind, then one line saying how many more there are."""
    kept: list[PolicyWarning] = []
    extra: dict[str, int] = {}
    for warning in warnings:
        if sum(1 for w in kept if w.kind == warning.kind) < MAX_PER_KIND:
            kept.append(warning)
        else:
            extra[warning.kind] = extra.get(warning.kind, 0) + 1
    for kind, count in extra.items():
        kept.append(PolicyWarning(kind, f"…and {count} more {kind} warnings like the ones above"))
    return kept


def _proposal(parts: list[Part], context: PolicyContext) -> GrantProposal | None:
    if not parts or not all(_grantable(p) for p in parts):
        return None
    folders: dict[str, list[Path]] = {}
    for part in parts:
        assert part.program is not None
        folders.setdefault(part.program, []).extend(_folder_of(t) for t in _targets(part))
    grants = []
    for program, paths in folders.items():
        common = Path(os.path.commonpath([str(p) for p in paths]))
        if not is_inside(common, context.workspace):
            return None
        relative = common.relative_to(context.workspace).as_posix()
        folder = "./" if relative == "." else relative + "/"
        grants.append(Grant(program, folder, context.workspace))
    return GrantProposal(tuple(grants))


def _folder_of(path: Path) -> Path:
    return path if path.is_dir() and not path.is_symlink() else path.parent
