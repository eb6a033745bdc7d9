"""Which rule judges a program, and what holds for every program: a name that is computed or
disguised, a program run by its path, and programs the policy does not know (they ask)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from studio.policy.decision import asking
from studio.policy.programs import allowlist, danger, network, readers, repos, runners, wrappers, writers
from studio.policy.programs.call import Call, Handler, Inv, Part, State, Walker
from studio.policy.programs.links import follows_links
from studio.policy.programs.paths import display, is_inside, lexical, resolve, words

SYSTEM_BIN_DIRS = words(
    "/bin /usr/bin /sbin /usr/sbin /usr/local/bin /usr/local/sbin /opt/homebrew/bin "
    "/opt/homebrew/sbin /opt/local/bin /usr/libexec"
)

HANDLERS: dict[str, Handler] = {}
for _module in (readers, writers, repos, network, danger, runners, wrappers):
    HANDLERS.update(_module.HANDLERS)


def handler_for(name: str) -> Handler | None:
    handler = HANDLERS.get(name)
    if handler is not None:
        return handler
    if runners.interpreter_family(name) is not None:
        return runners.interpreter
    if name.startswith(("mkfs.", "mkfs_", "mkfs-")):
        return danger.formatter
    return None


def dispatch(inv: Inv, part: Part, walker: Walker, state: State) -> None:
    """Judge one invocation into `part`."""
    if not inv.args:
        return
    first, rest = inv.args[0], list(inv.args[1:])
    if not first.known:
        part.add(
            asking(
                "indirection",
                f"the program to run (`{first.raw}`) is only known when the command runs, so the "
                "policy cannot tell what runs",
            )
        )
        part.program = None
        if not first.text:
            unknown(Call("?", rest, inv, part, walker, state), quiet=True)
            return
    elif first.expanded:
        part.add(
            asking(
                "indirection",
                f"the program name `{first.raw}` is produced by the shell (a variable, substitution, "
                "brace or glob), which hides what runs",
            )
        )
    elif first.quoted:
        part.add(
            asking(
                "indirection",
                f"the program name `{first.raw}` is written with quotes or backslashes, which can hide "
                "what runs",
            )
        )
    name = first.text
    if "/" in name:
        if _run_by_path(inv, part, walker, state):
            return
        name = os.path.basename(name)
    spec = allowlist.OPTIONS.get(name)
    if spec is not None:
        rest = allowlist.expand_prefixes(rest, spec)
    call = Call(name, rest, inv, part, walker, state)
    if first.known:
        part.program = name
    handler = handler_for(name)
    if handler is None:
        unknown(call)
        return
    handler(call)
    follows_links(call)
    if part.verdict == "allow":
        _understood(call)
    elif allowlist.unlisted_options(call.name, call.args):
        # An ask a grant could cover (a write) must not carry options nobody read: "always allow
        # sort" for `sort -o x --compress-program=...` would cover them too.
        part.grantable = False


def _understood(call: Call) -> None:
    """Fail closed: what the rule let through is allowed only if the allowlist knows all of it."""
    if call.cwd is None:
        call.ask(
            "indirection",
            f"`{call.name}` runs after a `cd` the policy cannot follow, so it cannot tell where",
        )
        return
    reason = allowlist.not_understood(call.name, call.args)
    if reason is not None:
        call.runs(f"{reason}, so the policy cannot tell what it does")
        # A grant names a program and folders, not options: granting `sort` for `sort --out=...`
        # would let every later option through too.
        call.part.grantable = False


def _run_by_path(inv: Inv, part: Part, walker: Walker, state: State) -> bool:
    """A program named by its path: a system one is judged by its name (False); any other runs
    code from a file and asks (True)."""
    first = inv.args[0]
    context = walker.context
    cwd = inv.cwd
    if cwd is None and not os.path.isabs(first.text):
        part.add(asking("indirection", f"runs `{first.raw}` after a `cd` the policy cannot follow"))
        part.program = None
        return True
    plain = lexical(first.text, cwd or Path("/"))
    # With a `..` the kernel follows links first and may land elsewhere than the text says.
    if os.path.dirname(plain) in SYSTEM_BIN_DIRS and ".." not in first.text.split("/"):
        return False
    call = Call(os.path.basename(plain), list(inv.args[1:]), inv, part, walker, state)
    path = resolve(first.text, cwd or Path("/"))
    if is_inside(path, context.workspace):
        relative = path.relative_to(context.workspace).as_posix()
        part.program = relative
        call.runs(f"runs `{relative}`, a program from the workspace")
    else:
        part.program = None
        call.ask(
            "outside",
            f"runs `{first.raw}`, a program outside the workspace "
            f"({display(path, context.workspace, context.home)})",
        )
    call.credential_text(first.text, "runs")
    _operands(call)
    return True


def unknown(call: Call, quiet: bool = False) -> None:
    if not quiet:
        call.runs(f"`{call.name}` is not a command the policy knows, so it cannot tell what it does")
    _operands(call)


# How programs commonly name the file they write: its value is judged as a write (over a
# SKILL.md it blocks) even for a program the policy does not otherwise read.
_OUTPUT_OPTIONS = frozenset(
    {"-o", "--output", "--out", "-out", "--outfile", "--output-file", "--out-file", "-output"}
)


def _operands(call: Call) -> None:
    """Every argument of a program the policy cannot read may be a path: check each one, and
    the value of an output option (`-o FILE`, `--output=FILE`) as a file it writes."""
    output = False
    for arg in call.args:
        if not arg.known:
            call.dynamic(arg, f"`{call.name}` gets")
            call.credential_text(arg.raw, "uses")
            output = False
            continue
        text = arg.text
        if output:
            call.write(arg)
            output = False
            continue
        if text.startswith("-"):
            name, equals, value = text.partition("=")
            if name in _OUTPUT_OPTIONS:
                if equals:
                    call.write(replace(arg, text=value))
                else:
                    output = True
            elif equals and value.startswith(("/", "~", ".")):
                call.touch(replace(arg, text=value))
            continue
        call.touch(arg)
