"""The syntax tree of a command line as `shell.parse` builds it: words made of literal and
expanded parts, redirections, assignments, simple commands and scripts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Lit:
    """Literal characters; `quoted` when they were inside quotes or escaped."""

    text: str
    quoted: bool


@dataclass(frozen=True, slots=True)
class Param:
    """`$NAME`, `$1`, `${NAME}` or `${NAME...}`; `plain` when it is just the variable's value."""

    name: str
    source: str
    quoted: bool
    plain: bool
    scripts: tuple[Script, ...] = ()


@dataclass(frozen=True, slots=True)
class Subst:
    """`$(...)`, a backquoted command, or a process substitution `<(...)` / `>(...)`."""

    source: str
    script: Script
    quoted: bool
    kind: Literal["command", "process"] = "command"


@dataclass(frozen=True, slots=True)
class Arith:
    """`$((...))`: its value is a number, but it may hold command substitutions."""

    source: str
    quoted: bool
    scripts: tuple[Script, ...] = ()


WordPart = Lit | Param | Subst | Arith


@dataclass(frozen=True, slots=True)
class Word:
    parts: tuple[WordPart, ...]
    raw: str

    @property
    def literal(self) -> str | None:
        """The word's value when it holds no expansion at all."""
        if all(isinstance(p, Lit) for p in self.parts):
            return "".join(p.text for p in self.parts if isinstance(p, Lit))
        return None

    @property
    def plain(self) -> str | None:
        """The word when it is written without quotes, escapes or expansions (keywords)."""
        for part in self.parts:  # a loop, not `all`: the parser asks this of every word
            if type(part) is not Lit or part.quoted:
                return None
        return self.raw

    @property
    def quoted(self) -> bool:
        return any(p.quoted for p in self.parts)

    @property
    def scripts(self) -> tuple[Script, ...]:
        found: list[Script] = []
        for part in self.parts:
            if isinstance(part, Subst):
                found.append(part.script)
            elif isinstance(part, Param | Arith):
                found.extend(part.scripts)
        return tuple(found)


@dataclass(slots=True)
class Heredoc:
    """A here-document; its body is read when the line that asked for it ends."""

    delimiter: str
    quoted: bool
    strip_tabs: bool
    body: str = ""
    complete: bool = False
    scripts: tuple[Script, ...] = ()


@dataclass(frozen=True, slots=True)
class Redirect:
    op: str
    fd: str | None
    target: Word | None
    heredoc: Heredoc | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    name: str
    value: Word
    append: bool = False


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One command: assignments, words (the program first) and redirections.

    Attributes:
        text: the command as written, for messages.
        keyword: set for the parts of compound commands that are not programs: "for", "case",
            "[[", "((".
        pipe_in / pipe_out: it reads from / writes into a pipe.
        subshell: it runs inside `( ... )`, so a `cd` there does not outlast the parentheses.
        joined: the operator before it in its list ("&&", "||", ";", "&", newline, "|"), or "".
    """

    words: tuple[Word, ...]
    assignments: tuple[Assignment, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    text: str = ""
    keyword: str | None = None
    pipe_in: bool = False
    pipe_out: bool = False
    joined: str = ""
    subshell: bool = False

    @property
    def scripts(self) -> tuple[Script, ...]:
        found: list[Script] = []
        for assignment in self.assignments:
            found.extend(assignment.value.scripts)
        for word in self.words:
            found.extend(word.scripts)
        for redirect in self.redirects:
            if redirect.target is not None:
                found.extend(redirect.target.scripts)
            if redirect.heredoc is not None:
                found.extend(redirect.heredoc.scripts)
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Script:
    """A parsed command line: its simple commands in order, and what could not be read.

    Attributes:
        functions: the shell functions it defines.
        recursive: those of them whose body calls the function itself (a fork bomb's shape).
    """

    commands: tuple[SimpleCommand, ...]
    problems: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    text: str = ""
    recursive: tuple[str, ...] = ()
