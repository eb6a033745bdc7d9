"""A reader of sed scripts (GNU sed's language): what a script does beyond editing the text going
through it. The policy allows a sed script only when this reads all of it; a script it cannot
read, or one that runs commands (`e`, `s///e`), reads files (`r`, `R`) or writes them (`w`, `W`,
`s///w`), is reported so the rule can ask (or block, for a SKILL.md).

The reading follows GNU sed 4.9: commands split on `;` and newlines, addresses (`3`, `$`, `/re/I`,
`\\%re%`, `first~step`, `addr,+N`, `0,/re/`), regular expressions with bracket expressions (a `/`
or `]` inside `[...]` does not end the expression), replacements, and every `s` flag. Where sed
and a careful reader could still differ, the reader says it cannot tell: a bracket expression
holding the delimiter or a backslash is such a place, since sed implementations disagree on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from studio.policy.shell.budget import PROGRAM_CHUNK, tick

# Commands that only print or edit the text going through.
_SIMPLE = frozenset("=dDgGhHnNpPxzF")
_TEXT = frozenset("aic")
_LABEL = frozenset(":btT")
_NUMBER = frozenset("qQlL")
_FILE = frozenset("rRwW")
_S_FLAGS = frozenset("gpiImMe0123456789")
# Files sed knows by name without opening anything in the file system.
SPECIAL_FILES = frozenset({"/dev/stdout", "/dev/stderr", "/dev/stdin"})
_TICK_EVERY = 64


@dataclass(slots=True)
class SedScript:
    """What a script does beyond editing text.

    Attributes:
        problem: why the script cannot be read (then nothing else can be trusted), or None.
        runs: the commands it runs (`e command`, `s///e` as "" since the text comes from the input).
        reads / writes: the files its `r`/`R` and `w`/`W`/`s///w` name.
    """

    problem: str | None = None
    runs: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)


class _Unreadable(Exception):
    pass


class _Reader:
    def __init__(self, text: str, result: SedScript) -> None:
        self.text = text
        self.at = 0
        self.result = result
        self.steps = 0

    # -- characters --------------------------------------------------------------------------------

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def skip(self, characters: str) -> None:
        while self.at < len(self.text) and self.text[self.at] in characters:
            self.at += 1

    def digits(self) -> str:
        start = self.at
        self.skip("0123456789")
        return self.text[start : self.at]

    def to_line_end(self) -> str:
        end = self.text.find("\n", self.at)
        end = len(self.text) if end < 0 else end
        value = self.text[self.at : end]
        self.at = end
        return value

    # -- pieces ------------------------------------------------------------------------------------

    def regex(self, delimiter: str) -> None:
        """Read a regular expression up to its closing `delimiter`."""
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                if self.at + 1 >= len(text):
                    raise _Unreadable("ends inside a regular expression")
                self.at += 2
            elif char == delimiter:
                self.at += 1
                return
            elif char == "\n" and delimiter != "\n":
                raise _Unreadable("has a regular expression that runs past the end of its line")
            elif char == "[":
                self.bracket(delimiter)
            else:
                self.at += 1
        raise _Unreadable("has a regular expression that is never closed")

    def bracket(self, delimiter: str) -> None:
        """Read a bracket expression `[...]`: a `]` first (or after `^`) is a member, as are
        `[:class:]`, `[.x.]` and `[=x=]`; nothing inside ends the regular expression."""
        text = self.text
        start = self.at
        self.at += 1
        if self.peek() == "^":
            self.at += 1
        if self.peek() == "]":
            self.at += 1
        while self.at < len(text):
            char = text[self.at]
            if char == "[" and self.at + 1 < len(text) and text[self.at + 1] in ":.=":
                kind = text[self.at + 1]
                close = text.find(kind + "]", self.at + 2)
                if close < 0:
                    raise _Unreadable("has a bracket expression the policy cannot read")
                self.at = close + 2
                continue
            if char == "]":
                self.at += 1
                inside = text[start + 1 : self.at - 1]
                if delimiter in inside or "\\" in inside:
                    # GNU sed keeps a delimiter or backslash inside `[...]` as a member, other
                    # seds end the expression there: the script means different things to them.
                    raise _Unreadable(
                        "has a bracket expression holding its delimiter or a backslash, which sed "
                        "versions read differently"
                    )
                return
            if char == "\n":
                raise _Unreadable("has a bracket expression that runs past the end of its line")
            self.at += 1
        raise _Unreadable("has a bracket expression that is never closed")

    def replacement(self, delimiter: str) -> None:
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                self.at += 2
            elif char == delimiter:
                self.at += 1
                return
            else:
                self.at += 1
        raise _Unreadable("has an `s` command that is never closed")

    def address(self) -> bool:
        """Read one address; False when there is none here."""
        char = self.peek()
        if char == "$":
            self.at += 1
            return True
        if char.isdigit():
            self.digits()
            if self.peek() == "~":
                self.at += 1
                self.digits()
            return True
        if char in "/\\":
            if char == "\\":
                self.at += 1
                delimiter = self.peek()
                if delimiter in ("", "\n", "\\"):
                    raise _Unreadable("has an address the policy cannot read")
            else:
                delimiter = "/"
            self.at += 1
            self.regex(delimiter)
            self.skip("IM")
            return True
        return False

    def addresses(self) -> None:
        if not self.address():
            return
        self.skip(" \t")
        if self.peek() != ",":
            return
        self.at += 1
        self.skip(" \t")
        if self.peek() in ("+", "~"):
            self.at += 1
            if not self.digits():
                raise _Unreadable("has an address the policy cannot read")
        elif not self.address():
            raise _Unreadable("has an address range with no end")

    def filename(self, command: str) -> str:
        """The file name of `r`, `w` and friends: the rest of the line, as sed takes it."""
        self.skip(" \t")
        name = self.to_line_end()
        if not name:
            raise _Unreadable(f"has a `{command}` with no file name")
        return name

    # -- commands ----------------------------------------------------------------------------------

    def script(self) -> None:
        text = self.text
        while True:
            self.steps += 1
            if self.steps % _TICK_EVERY == 0:
                tick(PROGRAM_CHUNK)
            self.skip(" \t\n;")
            if self.at >= len(text):
                return
            if self.peek() == "#":
                self.to_line_end()
                continue
            self.addresses()
            self.skip(" \t")
            while self.peek() == "!":
                self.at += 1
                self.skip(" \t")
            if self.at >= len(text):
                raise _Unreadable("ends without a command")
            command = text[self.at]
            self.at += 1
            self.command(command)

    def command(self, command: str) -> None:
        result = self.result
        if command == "{":
            return
        if command == "}" or command in _SIMPLE:
            pass
        elif command in _NUMBER:
            self.skip(" \t")
            self.digits()
        elif command in _LABEL:
            # A label ends at the first `;` or blank: where seds differ, reading less than sed
            # means the rest is read as commands, never hidden.
            self.skip(" \t")
            while self.at < len(self.text) and self.text[self.at] not in "; \t\n}":
                self.at += 1
        elif command in _TEXT:
            self.text_argument()
        elif command == "v":
            self.skip(" \t")
            while self.at < len(self.text) and self.text[self.at] not in ";\n}":
                self.at += 1
        elif command == "e":
            self.skip(" \t")
            result.runs.append(self.to_line_end())
        elif command in _FILE:
            name = self.filename(command)
            (result.reads if command in "rR" else result.writes).append(name)
        elif command == "s":
            self.substitute()
        elif command == "y":
            delimiter = self.delimiter("y")
            self.replacement(delimiter)
            self.replacement(delimiter)
        else:
            raise _Unreadable(f"has the command `{command}`, which the policy does not know")
        self.end_of_command(command)

    def text_argument(self) -> None:
        """`a text`, `a\\` + newline + text: to the first line that does not end in a backslash."""
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                self.at += 2
            elif char == "\n":
                return
            else:
                self.at += 1

    def delimiter(self, command: str) -> str:
        delimiter = self.peek()
        if delimiter in ("", "\n", "\\"):
            raise _Unreadable(f"has a `{command}` command the policy cannot read")
        self.at += 1
        return delimiter

    def substitute(self) -> None:
        delimiter = self.delimiter("s")
        self.regex(delimiter)
        self.replacement(delimiter)
        while self.at < len(self.text) and self.text[self.at] in _S_FLAGS:
            if self.text[self.at] == "e":
                self.result.runs.append("")
            self.at += 1
        if self.peek() == "w":
            self.at += 1
            self.result.writes.append(self.filename("w"))

    def end_of_command(self, command: str) -> None:
        """After a command: spaces, then `;`, a newline, `}`, `#` or the end."""
        self.skip(" \t")
        char = self.peek()
        if char in ("", ";", "\n", "}", "#"):
            return
        raise _Unreadable(f"has `{char}` after the `{command}` command, which sed would not accept")


def read_sed(script: str) -> SedScript:
    """Read `script` (every `-e` and `-f` joined with newlines, as sed joins them)."""
    result = SedScript()
    reader = _Reader(script, result)
    try:
        reader.script()
    except _Unreadable as error:
        result.problem = str(error)
    return result
