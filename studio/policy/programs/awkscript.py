"""A reader of awk programs: what a program does beyond reading its input and printing. The
policy allows an awk program only when this reads all of it and finds none of: `system()`,
pipes (`|`, `|&`), output redirection in `print`/`printf` (`>`, `>>`), `getline`, the
variables that choose what awk reads or what it may see (`ARGV`, `ARGC`, `SYMTAB`, `ENVIRON`,
`PROCINFO`),
gawk's `@` syntax (`@load`, `@include`, indirect calls).

The program is split into tokens the way awk's lexer splits it: strings, regular expression
literals (a `/` where an operand may start; a division elsewhere), comments, names and
operators. A `;` or `|` inside a string therefore neither ends a statement nor makes a pipe, and
a `|` in a regular expression is alternation. The tokenizer is a handful of regular expressions
over the text, so a long program costs little; the check's budget is looked at as it goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from studio.policy.shell.budget import PROGRAM_CHUNK, tick

_TOKEN = re.compile(
    r"""
      (?P<space>[ \t\r\f\v]+|\\\r?\n)
    | (?P<newline>\n)
    | (?P<comment>\#[^\n]*)
    | (?P<string>"(?:[^"\\\n]|\\(?:.|\n))*")
    | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|0[xX][0-9a-fA-F]+)
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>\|\||\|&|&&|>>|<=|>=|==|!=|\+\+|--|[-+*/%^!]=|\*\*=?|[-+*/%^!<>=?:,;{}()\[\]$~|&@])
    """,
    re.VERBOSE,
)
# A regular expression literal's body after its `/`: escapes, bracket expressions (where `/`
# is a member), anything but a newline.
_REGEX_BODY = re.compile(r"(?:\\.|\[\^?\]?(?:\[:[a-z]+:\]|[^\]\n])*\]|[^/\\\[\n])*/")
# After these an operand may start, so a `/` begins a regular expression; after anything else
# (a name, a number, a string, `)`, `]`, `$`-less operand ends, `++`, `--`) it divides.
_OPERAND_ENDS = frozenset({")", "]", "++", "--"})
_STATEMENT_KEYWORDS = frozenset({"print", "printf", "return", "else", "do", "case", "exit", "in"})
_HEADERS = frozenset({"if", "while", "for"})
_RUNS = frozenset({"system"})
_READS = frozenset({"getline"})
# gawk's SYMTAB reaches every global by name (`SYMTAB["ARGC"] = 2`), ARGV and ARGC too.
_CHOOSES_FILES = frozenset({"ARGV", "ARGC", "SYMTAB"})
_ENVIRONMENT = frozenset({"ENVIRON", "PROCINFO"})
_TICK_EVERY = 256
_MAX_STRINGS = 16 * 1024


@dataclass(slots=True)
class AwkProgram:
    """What an awk program does beyond reading its input and printing.

    Attributes:
        problem: why the program cannot be read, or None.
        unsafe: what it does that may run commands, write or choose files (one line each).
        environment: it reads environment variables (or process information).
        commands: the command lines given as plain strings to `system(...)` or a pipe.
        outputs: the files `print >` and `print >>` write, when each is one plain string.
        computed_output: some `print >` writes to a file whose name the program computes.
        strings: the program's string literals run together (`"SKI" "LL.md"` is a name too).
    """

    problem: str | None = None
    unsafe: list[str] = field(default_factory=list)
    environment: bool = False
    commands: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    computed_output: bool = False
    strings: str = ""

    def note(self, what: str) -> None:
        if what not in self.unsafe:
            self.unsafe.append(what)


def read_awk(program: str) -> AwkProgram:
    result = AwkProgram()
    tokens: list[tuple[str, str]] = []
    at = 0
    previous = ""
    count = 0
    # For each open `(`: whether it is the header of `if`, `while` or `for`, after whose `)` a
    # statement (and so a regular expression) may start.
    headers: list[bool] = []
    while at < len(program):
        count += 1
        if count % _TICK_EVERY == 0:
            tick(PROGRAM_CHUNK)
        if program[at] == "/" and _starts_operand(previous):
            match = _REGEX_BODY.match(program, at + 1)
            if match is None:
                result.problem = "has a regular expression that is never closed"
                return result
            body = re.sub(r"\\.", "", program[at + 1 : match.end() - 1])
            if "/" in body:
                # A `/` inside `[...]`: gawk keeps it in the expression, other awks end it there.
                result.problem = (
                    "has a regular expression whose `[...]` holds a `/`, which awks read differently"
                )
                return result
            tokens.append(("regex", program[at : match.end()]))
            at = match.end()
            previous = "regex"
            continue
        token = _TOKEN.match(program, at)
        if token is None:
            char = program[at]
            what = "a string that is never closed" if char == '"' else f"`{char}`, which it cannot read"
            result.problem = f"has {what}"
            return result
        kind = token.lastgroup or ""
        text = token.group()
        at = token.end()
        if kind in ("space", "comment"):
            continue
        tokens.append((kind, text))
        if text == "(" and kind == "op":
            headers.append(previous in _HEADERS)
        elif text == ")" and kind == "op" and headers and headers.pop():
            previous = "\n"
            continue
        previous = text if kind in ("op", "newline", "name") else kind
        if kind == "newline":
            previous = "\n"
    _judge(tokens, result)
    return result


def _starts_operand(previous: str) -> bool:
    """Whether a `/` after `previous` (the last token, or its kind) begins a regular expression."""
    if previous in ("", "\n") or previous in _STATEMENT_KEYWORDS:
        return True
    if previous in ("number", "string", "regex") or previous in _OPERAND_ENDS:
        return False
    # A name (variable, function, builtin used without parentheses) ends an operand.
    return not (previous[:1].isalpha() or previous[:1] == "_")


def _judge(tokens: list[tuple[str, str]], result: AwkProgram) -> None:
    depth = 0
    # The bracket depth at which the `print` being read started; None outside a print.
    printing: int | None = None
    for index, (kind, text) in enumerate(tokens):
        if index % _TICK_EVERY == 0:
            tick(PROGRAM_CHUNK)
        if kind == "string" and len(result.strings) < _MAX_STRINGS:
            result.strings += _unescape(text[1:-1])
        if kind == "name":
            if text in _RUNS:
                result.note("runs commands (`system`)")
                command = _plain_call_argument(tokens, index)
                if command is not None:
                    result.commands.append(command)
            elif text in _READS:
                result.note("reads other files or command output (`getline`)")
            elif text in _CHOOSES_FILES:
                result.note(f"uses `{text}`, which decides the files awk reads")
            elif text in _ENVIRONMENT:
                result.environment = True
            elif text in ("print", "printf"):
                printing = depth
            continue
        if kind == "newline":
            printing = None
            continue
        if kind != "op":
            continue
        if text == "@":
            result.note("uses gawk's `@` syntax (`@load`, `@include` or an indirect call)")
        elif text in ("|", "|&"):
            result.note("pipes output to a command or a command's output into it (`|`)")
            # `print | "cmd"` and `"cmd" | getline`: a plain string there is a command line.
            command = _plain_target(tokens, index + 1) if printing is not None else None
            if command is None and index > 0 and tokens[index - 1][0] == "string":
                command = _unescape(tokens[index - 1][1][1:-1])
            if command is not None and command not in result.commands:
                result.commands.append(command)
        elif text in ("(", "["):
            depth += 1
        elif text in (")", "]"):
            depth = max(depth - 1, 0)
        elif text in (";", "{", "}"):
            printing = None
        elif text in (">", ">>") and printing is not None and depth <= printing:
            result.note("writes to a file (`print >`)")
            target = _plain_target(tokens, index + 1)
            if target is None:
                result.computed_output = True
            elif target not in result.outputs:
                result.outputs.append(target)


def _plain_target(tokens: list[tuple[str, str]], index: int) -> str | None:
    """The file after `print >` when it is one plain string that nothing is joined to."""
    if index >= len(tokens) or tokens[index][0] != "string":
        return None
    following = tokens[index + 1] if index + 1 < len(tokens) else ("newline", "\n")
    if following[0] in ("string", "name", "number", "regex") or following[1] in ("(", "$"):
        return None
    return _unescape(tokens[index][1][1:-1])


def _plain_call_argument(tokens: list[tuple[str, str]], index: int) -> str | None:
    """The command in `system("...")` when it is one plain string."""
    window = tokens[index + 1 : index + 4]
    if [kind for kind, _ in window] == ["op", "string", "op"] and window[0][1] == "(" and window[2][1] == ")":
        return _unescape(window[1][1][1:-1])
    return None


def _unescape(text: str) -> str:
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), "\\" + m.group(1)), text)
