"""What the rules work on: one program invocation (`Inv`), the part of the command line it belongs
to (`Part`, which collects findings), and `Call`, the helpers every rule uses to check paths and
to hand nested commands back to the walker."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Protocol

from studio.policy.decision import Finding, PolicyContext, Verdict, asking, blocked, strictest
from studio.policy.programs.paths import (
    credential,
    disk_device,
    display,
    dot_component,
    hard_links,
    harmless_device,
    is_inside,
    is_url,
    lexical,
    linked_credential,
    network_device,
    public_certificate,
    resolve,
    secret_folder,
    unfollowed,
    words,
)
from studio.policy.programs.skillfolders import SKILL_FILES
from studio.policy.shell.expand import Arg, Env, Value

# Why a skill is never deleted, moved or written over by a command.
LEFT_TO_USER = "deleting, moving or replacing a skill is left to the user, in the window"

# Programs that show only a file's name, size, kind or line count, never its content: a secret's
# file name inside the workspace (`ls keys/*.pem`, `wc -l x.env`) is not a secret read for them.
# The largest program file (`sed -f`, `awk -f`) the policy reads to judge it.
MAX_PROGRAM_FILE = 16 * 1024

METADATA_PROGRAMS = words("ls wc stat du file tree realpath readlink basename dirname test [ lsattr")


@dataclass(frozen=True, slots=True)
class Inv:
    """One program about to run.

    Attributes:
        args: the program word first, then its arguments, expanded.
        text: the simple command as written, for messages.
        stdin: what it reads on standard input, when the line itself says (echo ... |, <<EOF).
        stdin_unknown: it reads a pipe or a file whose content the policy cannot see.
        args_from_stdin: more arguments come from its input (it runs under xargs).
        upstream: the commands piped into it, as written (`find . -name x | xargs rm`).
    """

    args: tuple[Arg, ...]
    cwd: Path | None
    text: str
    stdin: str | None = None
    stdin_unknown: bool = False
    args_from_stdin: bool = False
    upstream: str = ""


@dataclass(slots=True)
class Part:
    """One simple command (or nested command) and what the rules found about it.

    Attributes:
        program: what a grant would name: the program, with its subcommand for git and package
            managers; None when the program cannot be told.
        paths: every path it reads or writes, resolved; a grant must cover them all.
        grantable: False when the part came out of code the policy could only guess at.
    """

    text: str
    cwd: Path | None
    findings: list[Finding] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    program: str | None = None
    grantable: bool = True

    def add(self, finding: Finding) -> None:
        if finding not in self.findings:
            self.findings.append(finding)

    @property
    def verdict(self) -> Verdict:
        return strictest([f.verdict for f in self.findings])


@dataclass(slots=True)
class State:
    """What earlier commands on the line changed: the folders it may be in, and variables.

    Attributes:
        cwds: every folder a command may run in: a `cd` may fail, so the earlier ones stay.
        chain: the one folder of an `&&` chain after a `cd`, where the next commands surely run.
    """

    cwds: list[Path | None]
    env: Env
    depth: int = 0
    chain: list[Path | None] | None = None

    def copy(self) -> State:
        return State(list(self.cwds), self.env.copy(), self.depth, self.chain)


class Walker(Protocol):
    context: PolicyContext

    def new_part(self, text: str, cwd: Path | None) -> Part: ...

    def walk_text(self, text: str, state: State, positional: Sequence[Arg] = ()) -> list[Part]: ...

    def invoke(self, inv: Inv, part: Part, state: State) -> None: ...

    def invoke_nested(self, inv: Inv, state: State) -> Part: ...


@dataclass(slots=True)
class Options:
    flags: list[str] = field(default_factory=list)
    values: dict[str, list[Arg]] = field(default_factory=dict)
    operands: list[Arg] = field(default_factory=list)

    def has(self, *names: str) -> bool:
        return any(name in self.flags or name in self.values for name in names)

    def value(self, *names: str) -> list[Arg]:
        found: list[Arg] = []
        for name in names:
            found.extend(self.values.get(name, []))
        return found


def parse_options(
    args: Sequence[Arg],
    with_value: Iterable[str] = (),
    *,
    stop_at_operand: bool = False,
) -> Options:
    """Split arguments into flags (short clusters split), option values and operands.

    `with_value` names the options that take a value, short (`-n`) or long (`--lines`).
    """
    takes = frozenset(with_value)
    result = Options()
    index = 0
    while index < len(args):
        arg = args[index]
        text = arg.text
        index += 1
        if not arg.known or text == "-" or not text.startswith("-"):
            result.operands.append(arg)
            if stop_at_operand:
                result.operands.extend(args[index:])
                return result
            continue
        if text == "--":
            result.operands.extend(args[index:])
            return result
        if text.startswith("--"):
            name, equals, value = text.partition("=")
            if equals:
                result.values.setdefault(name, []).append(_value_arg(arg, value))
            elif name in takes and index < len(args):
                result.values.setdefault(name, []).append(args[index])
                index += 1
            else:
                result.flags.append(name)
            continue
        for position in range(1, len(text)):
            name = "-" + text[position]
            if name in takes:
                rest = text[position + 1 :]
                if rest:
                    result.values.setdefault(name, []).append(_value_arg(arg, rest))
                elif index < len(args):
                    result.values.setdefault(name, []).append(args[index])
                    index += 1
                break
            result.flags.append(name)
    return result


def _value_arg(arg: Arg, value: str) -> Arg:
    return replace(arg, text=value)


Handler = Callable[["Call"], None]


def shown(arg: Arg) -> str:
    """How to name an argument in a message: as written, or its value when the shell made it."""
    # An option's value (`--output=x` read as `x`) is named by itself.
    return arg.text if (arg.expanded or arg.raw.startswith("-")) and arg.known and arg.text else arg.raw


@dataclass(slots=True)
class Call:
    """One invocation being judged by the rule for its program."""

    name: str
    args: list[Arg]
    inv: Inv
    part: Part
    walker: Walker
    state: State

    @property
    def context(self) -> PolicyContext:
        return self.walker.context

    @property
    def cwd(self) -> Path | None:
        return self.inv.cwd

    def block(self, kind: str, what: str) -> None:
        self.part.add(blocked(kind, self.part.text, what))

    def ask(self, kind: str, message: str) -> None:
        self.part.add(asking(kind, message))

    def runs(self, message: str) -> None:
        self.ask("program", message)

    def network(self, what: str) -> None:
        self.ask("network", f"`{self.name}` uses the network ({what})")

    def dynamic(self, arg: Arg, what: str) -> None:
        self.ask(
            "indirection",
            f"{what} `{arg.raw}`, which is only known when the command runs, so the policy cannot check it",
        )

    # -- paths ------------------------------------------------------------------------------------

    def locate(self, arg: Arg, verb: str, follow: bool = True) -> tuple[Path, str] | None:
        """Resolve `arg` as a path, recording what is wrong with it; None when there is nothing
        more to check. `follow` False resolves a final link itself, not what it points to (rm)."""
        if not arg.known:
            self.dynamic(arg, verb)
            self.credential_text(arg.raw, verb)
            return None
        if arg.text in ("", "-"):
            return None
        cwd = self.cwd
        if cwd is None and not os.path.isabs(arg.text):
            self.ask(
                "indirection",
                f"{verb} `{shown(arg)}` after a `cd` the policy cannot follow, so where it points "
                "cannot be checked",
            )
            return None
        plain = lexical(arg.text, cwd or Path("/"))
        dotted = ".." in arg.text.split("/")
        if (harmless_device(plain) and not dotted) or (
            dotted and harmless_device(str(resolve(arg.text, cwd or Path("/"))))
        ):
            # With a `..` the kernel may land elsewhere than the text says (links come first).
            return None
        if network_device(plain):
            self.block("exfiltration", "opens a raw network connection through /dev/tcp or /dev/udp")
            return None
        name = os.path.basename(plain)
        if follow or arg.text.endswith("/") or not name:
            path = resolve(arg.text, cwd or Path("/"))
        else:
            path = unfollowed(arg.text, cwd or Path("/"))
        secret = credential(PurePosixPath(plain)) or credential(path)
        if secret is not None and public_certificate(path, self.context.workspace):
            secret = None
        if secret is not None and self.name in METADATA_PROGRAMS:
            if is_inside(path, self.context.workspace):
                secret = None
            elif secret_folder(path):
                # `ls ~/.ssh` lists names; it reads no key. Still a look where keys are: ask.
                self.ask("secrets", f"{verb} `{shown(arg)}`, the folder of {secret}")
                secret = None
        if secret is not None:
            self.block("credential", f"{verb} {secret}")
        if not arg.exact:
            self.ask(
                "indirection",
                f"{verb} `{arg.raw}`, whose value comes from earlier in the command line and may "
                "differ when it runs",
            )
        return path, plain

    def credential_text(self, raw: str, verb: str) -> None:
        """Even an unknown path gives itself away when its written part names a secret."""
        # In `$DIR/.ssh/id_rsa` or `$(pwd)/.env` what follows the last expansion is literal.
        tail = raw.replace("\\", "").replace('"', "").replace("'", "")
        secret = credential(PurePosixPath(tail.split("}")[-1].split(")")[-1] or "x"))
        if secret is not None:
            self.block("credential", f"{verb} {secret}")

    def _outside(self, path: Path, arg: Arg, verb: str) -> bool:
        context = self.context
        if is_inside(path, context.workspace):
            links = hard_links(path)
            if links <= 1:
                return False
            secret = linked_credential(path, context.home)
            if secret is not None:
                self.block("credential", f"{verb} `{shown(arg)}`, a hard link to {secret}")
                return True
            self.ask(
                "outside",
                f"{verb} `{shown(arg)}`, a file with {links} hard links: where the others are cannot be "
                "told, so it counts as outside the workspace",
            )
            return True
        where = display(path, context.workspace, context.home)
        self.ask("outside", f"{verb} `{shown(arg)}`, which is outside the workspace ({where})")
        return True

    def probe(self, arg: Arg) -> None:
        """A file whose existence or kind the program checks (`test -f`), without reading it."""
        if not arg.known:
            self.dynamic(arg, "checks")
            return
        if self.cwd is None and not os.path.isabs(arg.text):
            self.ask("indirection", f"checks `{shown(arg)}` after a `cd` the policy cannot follow")
            return
        if arg.text:
            self._outside(resolve(arg.text, self.cwd or Path("/")), arg, "checks")

    def read(self, arg: Arg) -> Path | None:
        """A file or folder the program reads."""
        located = self.locate(arg, "reads")
        if located is None:
            return None
        path, _ = located
        self._outside(path, arg, "reads")
        self.part.paths.append(path)
        return path

    def touch(self, arg: Arg) -> Path | None:
        """An argument that may be a path the program reads or writes (the policy cannot tell)."""
        if arg.known and is_url(arg.text):
            self.url(arg)
            return None
        located = self.locate(arg, "uses")
        if located is None:
            return None
        path, _ = located
        self._outside(path, arg, "uses")
        self.part.paths.append(path)
        return path

    def write(
        self, arg: Arg, verb: str = "writes to", follow: bool = True, over_skill: bool = True
    ) -> Path | None:
        """A file or folder the program creates, changes or deletes. Writing over an existing
        SKILL.md blocks, whatever option or operand names it (`over_skill` False for the rules
        that judge that themselves: `rm`, `chmod`)."""
        located = self.locate(arg, verb, follow)
        if located is None:
            return None
        path, plain = located
        context = self.context
        if disk_device(plain) or disk_device(str(path)):
            self.block("destructive", f"writes straight to the disk device {plain}")
            return None
        if over_skill and follow:
            self.over_skill_file(arg, path, verb)
        outside = self._outside(path, arg, verb)
        hidden = dot_component(path, context.workspace, context.home)
        if hidden is not None:
            self.ask(
                "dotfile",
                f"{verb} `{shown(arg)}`, inside the hidden `{hidden}`; dotfiles configure shells, "
                "git and other tools",
            )
        elif not outside:
            self.ask("write", f"{verb} `{display(path, context.workspace, context.home)}`")
        self.part.paths.append(path)
        return path

    def over_skill_file(self, arg: Arg, path: Path, verb: str) -> bool:
        """Block a write that lands on an existing SKILL.md (`path` is where `arg` leads, links
        followed); True when it does."""
        named = unfollowed(arg.text, self.cwd or Path("/")) if arg.known else path
        if not ((path.name in SKILL_FILES or named.name in SKILL_FILES) and path.is_file()):
            return False
        if any(f.verdict == "block" and str(path) in f.message for f in self.part.findings):
            return True
        self.block(
            "destructive",
            f"{verb} `{shown(arg)}`, writing over the skill file {path}; change a skill with "
            f"update_skill or in the editor ({LEFT_TO_USER})",
        )
        return True

    def program_file(self, arg: Arg, language: str) -> str | None:
        """The text of a program file the program runs (`sed -f`, `awk -f`, `jq -f`), read so
        that the policy judges it like one on the command line; None (and an ask) when it cannot
        be read: outside the workspace, missing, not text, or over MAX_PROGRAM_FILE bytes."""
        path = self.read(arg)
        if path is None or not is_inside(path, self.context.workspace):
            self.runs(f"runs the {language} program in `{shown(arg)}`, which the policy cannot read")
            return None
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_PROGRAM_FILE + 1)
            text = data.decode("utf-8") if len(data) <= MAX_PROGRAM_FILE else None
        except (OSError, UnicodeDecodeError):
            text = None
        if text is None:
            self.runs(f"runs the {language} program in `{shown(arg)}`, which the policy cannot read")
        return text

    def url(self, arg: Arg) -> None:
        if arg.text.lower().startswith("file://"):
            self.read(replace(arg, text=arg.text[7:] or "/"))
        else:
            self.network(arg.text)

    # -- nested commands --------------------------------------------------------------------------

    def unwrap(self, args: Sequence[Arg], base: Inv | None = None) -> None:
        """Judge the command a wrapper (`nohup`, `timeout`, `env`) runs, as this same part."""
        if not args:
            return
        inv = replace(base or self.inv, args=tuple(args))
        self.walker.invoke(inv, self.part, self.state)

    def nested_args(self, args: Sequence[Arg], *, args_from_stdin: bool = False) -> Part | None:
        """Judge a command another one runs (`find -exec`, `xargs`) as a part of its own."""
        if not args:
            return None
        text = " ".join(a.raw for a in args)
        inv = Inv(tuple(args), self.cwd, text, args_from_stdin=args_from_stdin)
        return self.walker.invoke_nested(inv, self.state)

    def nested_text(self, text: str, positional: Sequence[Arg] = ()) -> list[Part]:
        """Judge a command line given as text (`bash -c`, `eval`, a trap, an alias)."""
        state = self.state.copy()
        state.cwds = [self.cwd]
        return self.walker.walk_text(text, state, positional)

    def set_variable(self, name: str, value: Arg | None) -> None:
        env = self.state.env
        env.assign(name, Value(value.text, value.exact) if value is not None and value.known else None)
