"""Reading a command line the way bash reads it: words, quotes, expansions, operators and
redirections, split into simple commands. Nothing runs and nothing is expanded here (see
`expand.py`); command substitutions, process substitutions and here-document bodies are parsed
into nested scripts so the policy can judge what they would run.

The parser is lenient: what it cannot read it records as a problem (the policy then asks) and
carries on, so that a broken line still has its dangerous parts found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

MAX_DEPTH = 24

_BLANKS = " \t"
_WORD_END = " \t\n;&|<>()"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FD = re.compile(r"[0-9]+(?=[<>])")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_OPERATORS = sorted(
    [
        "&&",
        "||",
        ";;&",
        ";;",
        ";&",
        ";",
        "|&",
        "|",
        "&>>",
        "&>",
        "&",
        "(",
        ")",
        "<<<",
        "<<-",
        "<<",
        "<>",
        "<&",
        "<",
        ">>",
        ">&",
        ">|",
        ">",
    ],
    key=len,
    reverse=True,
)
REDIRECT_OPS = frozenset({"<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">", "&>>", "&>"})
_SEPARATORS = frozenset({";", "&", "&&", "||", "\n"})
_CASE_ENDS = frozenset({";;", ";&", ";;&"})
# Reserved words that only introduce or continue a compound command: the words after them are a
# command of their own.
_PREFIX_KEYWORDS = frozenset({"!", "time", "then", "else", "do", "if", "elif", "while", "until", "coproc"})
_CLOSING_KEYWORDS = frozenset({"fi", "done", "esac", "}", "]]"})


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
        if all(isinstance(p, Lit) and not p.quoted for p in self.parts):
            return self.raw
        return None

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
    """A parsed command line: its simple commands in order, and what could not be read."""

    commands: tuple[SimpleCommand, ...]
    problems: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    text: str = ""


def parse(text: str, depth: int = 0) -> Script:
    """Parse `text` as bash would before running it. Never raises."""
    lexer = _Lexer(text, depth)
    if depth > MAX_DEPTH:
        return Script((), ("the command nests shells and substitutions too deeply to check",), (), text)
    parser = _Parser(lexer)
    try:
        parser.parse_list(frozenset())
    except RecursionError:
        lexer.problem("the command nests groups and substitutions too deeply to check")
    if "\x00" in text:
        lexer.problems.append("the command holds a NUL character, which bash cannot pass on")
    return Script(tuple(parser.commands), tuple(lexer.problems), tuple(parser.functions), text)


def split_commands(text: str) -> list[str]:
    """The simple commands of `text` as written, nested ones (in `$(...)` etc.) after their host."""
    found: list[str] = []

    def walk(script: Script) -> None:
        for command in script.commands:
            if command.text.strip():
                found.append(command.text.strip())
            for nested in command.scripts:
                walk(nested)

    walk(parse(text))
    return found


@dataclass(frozen=True, slots=True)
class _Token:
    kind: Literal["word", "op", "newline", "eof"]
    op: str = ""
    word: Word | None = None
    start: int = 0
    end: int = 0
    fd: str | None = None


@dataclass(slots=True)
class _WordBuilder:
    parts: list[WordPart] = field(default_factory=list)

    def lit(self, text: str, quoted: bool) -> None:
        last = self.parts[-1] if self.parts else None
        if isinstance(last, Lit) and last.quoted == quoted:
            self.parts[-1] = Lit(last.text + text, quoted)
        else:
            self.parts.append(Lit(text, quoted))

    def add(self, part: WordPart) -> None:
        self.parts.append(part)

    def scripts(self) -> tuple[Script, ...]:
        return Word(tuple(self.parts), "").scripts


class _Lexer:
    def __init__(self, text: str, depth: int) -> None:
        self.text = text
        self.pos = 0
        self.depth = depth
        self.problems: list[str] = []
        self.pending: list[Heredoc] = []
        self.nesting = 0

    def problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    def at(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.pos)

    def _skip_blanks(self) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in _BLANKS:
                self.pos += 1
            elif text.startswith("\\\n", self.pos):
                self.pos += 2
            elif char == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def next_token(self) -> _Token:
        self._skip_blanks()
        text = self.text
        start = self.pos
        if start >= len(text):
            if self.pending:
                for heredoc in self.pending:
                    self.problem(f"the here-document ending in `{heredoc.delimiter}` has no body")
                self.pending.clear()
            return _Token("eof", start=start, end=start)
        char = text[start]
        if char == "\n":
            self.pos += 1
            self._read_heredoc_bodies()
            return _Token("newline", op="\n", start=start, end=start + 1)
        if char in "<>" and text.startswith("(", start + 1):
            return self._word_token(start)
        fd = None
        digits = _FD.match(text, start)
        if digits:
            fd = digits.group(0)
            self.pos += len(fd)
        for op in _OPERATORS:
            if text.startswith(op, self.pos):
                self.pos += len(op)
                return _Token("op", op=op, start=start, end=self.pos, fd=fd)
        self.pos = start
        return self._word_token(start)

    def _word_token(self, start: int) -> _Token:
        word = self.read_word()
        return _Token("word", word=word, start=start, end=self.pos)

    def read_word(self) -> Word:
        text = self.text
        start = self.pos
        out = _WordBuilder()
        while self.pos < len(text):
            char = text[self.pos]
            if char in "<>" and self.pos == start and text.startswith("(", self.pos + 1):
                self._read_command_subst(out, quoted=False, skip=2, kind="process")
                continue
            if char in _WORD_END:
                if char == "(" and self._array_assignment(out):
                    self._read_array(out)
                    continue
                break
            if char == "\\":
                if text.startswith("\\\n", self.pos):
                    self.pos += 2
                elif self.pos + 1 < len(text):
                    out.lit(text[self.pos + 1], True)
                    self.pos += 2
                else:
                    out.lit("\\", False)
                    self.pos += 1
            elif char == "'":
                self._read_single(out)
            elif char == '"':
                self._read_double(out)
            elif char == "$":
                self._read_dollar(out, quoted=False)
            elif char == "`":
                self._read_backtick(out, quoted=False)
            else:
                out.lit(char, False)
                self.pos += 1
        return Word(tuple(out.parts), text[start : self.pos])

    def _array_assignment(self, out: _WordBuilder) -> bool:
        if len(out.parts) != 1 or not isinstance(out.parts[0], Lit) or out.parts[0].quoted:
            return False
        return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*\+?=", out.parts[0].text) is not None

    def _read_array(self, out: _WordBuilder) -> None:
        """`name=(a b c)`: the elements are words; keep them as one literal-ish word."""
        self.pos += 1
        out.lit("(", False)
        while True:
            self._skip_blanks()
            while self.at("\n"):
                self.pos += 1
                self._skip_blanks()
            if self.pos >= len(self.text):
                self.problem("an array assignment `name=(...)` is never closed")
                return
            if self.at(")"):
                self.pos += 1
                out.lit(")", False)
                return
            element = self.read_word()
            if not element.parts:
                self.problem(f"unexpected `{self.text[self.pos]}` inside an array assignment")
                self.pos += 1
                continue
            for part in element.parts:
                out.add(part)
            out.lit(" ", False)

    def _read_single(self, out: _WordBuilder) -> None:
        end = self.text.find("'", self.pos + 1)
        if end < 0:
            self.problem(
                f"a single quote at character {self.pos + 1} is never closed, so the command "
                "cannot be read reliably"
            )
            out.lit(self.text[self.pos + 1 :], True)
            self.pos = len(self.text)
            return
        out.lit(self.text[self.pos + 1 : end], True)
        self.pos = end + 1

    def _read_double(self, out: _WordBuilder) -> None:
        opened = self.pos
        self.pos += 1
        out.lit("", True)
        if not self.read_double_content(out, terminator='"'):
            self.problem(
                f"a double quote at character {opened + 1} is never closed, so the command "
                "cannot be read reliably"
            )

    def read_double_content(self, out: _WordBuilder, terminator: str | None) -> bool:
        """Read double-quoted text up to `terminator` (None: to the end); True if it was found."""
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if terminator is not None and char == terminator:
                self.pos += 1
                return True
            if char == "\\" and self.pos + 1 < len(text):
                following = text[self.pos + 1]
                if following == "\n":
                    self.pos += 2
                elif following in '$`"\\':
                    out.lit(following, True)
                    self.pos += 2
                else:
                    out.lit("\\", True)
                    self.pos += 1
            elif char == "$":
                self._read_dollar(out, quoted=True)
            elif char == "`":
                self._read_backtick(out, quoted=True)
            else:
                out.lit(char, True)
                self.pos += 1
        return terminator is None

    def _read_dollar(self, out: _WordBuilder, quoted: bool) -> None:
        text = self.text
        start = self.pos
        following = text[start + 1] if start + 1 < len(text) else ""
        if following == "(":
            if text.startswith("$((", start) and self._read_arith(out, quoted, skip=3):
                return
            self._read_command_subst(out, quoted, skip=2, kind="command")
        elif following == "{":
            self._read_braced(out, quoted)
        elif following == "'" and not quoted:
            self._read_ansi(out)
        elif following == '"' and not quoted:
            self.pos += 1
            self._read_double(out)
        else:
            name = _NAME.match(text, start + 1)
            if name:
                self.pos = name.end()
                out.add(Param(name.group(0), text[start : self.pos], quoted, True))
            elif following and following in "0123456789@*#?$!-":
                self.pos += 2
                out.add(Param(following, text[start : self.pos], quoted, True))
            else:
                out.lit("$", quoted)
                self.pos += 1

    def _read_command_subst(self, out: _WordBuilder, quoted: bool, skip: int, kind: str) -> None:
        start = self.pos
        self.pos += skip
        if self.depth + self.nesting >= MAX_DEPTH:
            self.problem("the command nests shells and substitutions too deeply to check")
            self.pos = len(self.text)
            return
        parser = _Parser(self)
        self.nesting += 1
        closed = parser.parse_list(frozenset({")"}))
        self.nesting -= 1
        if closed != ")":
            self.problem(f"`{self.text[start : start + skip]}` at character {start + 1} is never closed")
        script = Script(tuple(parser.commands), (), tuple(parser.functions), self.text[start : self.pos])
        out.add(
            Subst(self.text[start : self.pos], script, quoted, "process" if kind == "process" else "command")
        )

    def _read_arith(self, out: _WordBuilder, quoted: bool, skip: int) -> bool:
        """Read `$((...))` (or `((...))`); False, with nothing consumed, if it is not arithmetic."""
        start, problems = self.pos, len(self.problems)
        self.pos += skip
        inner = _WordBuilder()
        depth = 0
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char == "(":
                depth += 1
                self.pos += 1
            elif char == ")":
                if depth == 0:
                    if text.startswith("))", self.pos):
                        self.pos += 2
                        out.add(Arith(text[start : self.pos], quoted, inner.scripts()))
                        return True
                    break
                depth -= 1
                self.pos += 1
            elif char == "$":
                self._read_dollar(inner, quoted=True)
            elif char == "`":
                self._read_backtick(inner, quoted=True)
            elif char == "\\":
                self.pos += 2
            else:
                self.pos += 1
        self.pos = start
        del self.problems[problems:]
        return False

    def read_arith_command(self) -> Word | None:
        """At `((` of an arithmetic command, read it whole."""
        start = self.pos
        out = _WordBuilder()
        if self._read_arith(out, quoted=False, skip=2):
            return Word(tuple(out.parts), self.text[start : self.pos])
        return None

    def _read_braced(self, out: _WordBuilder, quoted: bool) -> None:
        text = self.text
        start = self.pos
        self.pos += 2
        inner = _WordBuilder()
        while self.pos < len(text) and text[self.pos] != "}":
            char = text[self.pos]
            if char == "\\":
                self.pos += 2
            elif char == "'" and not quoted:
                self._read_single(inner)
            elif char == '"':
                self._read_double(inner)
            elif char == "$":
                self._read_dollar(inner, quoted=True)
            elif char == "`":
                self._read_backtick(inner, quoted=True)
            else:
                self.pos += 1
        if self.pos >= len(text):
            self.problem(f"`${{` at character {start + 1} is never closed")
        self.pos = min(self.pos + 1, len(text))
        source = text[start : self.pos]
        body = source[2:-1] if source.endswith("}") else source[2:]
        name_match = re.match(r"[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])", body)
        name = name_match.group(1) if name_match else ""
        plain = bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-]", body))
        out.add(Param(name, source, quoted, plain, inner.scripts()))

    def _read_ansi(self, out: _WordBuilder) -> None:
        text = self.text
        start = self.pos
        self.pos += 2
        chars: list[str] = []
        while self.pos < len(text) and text[self.pos] != "'":
            if text[self.pos] == "\\" and self.pos + 1 < len(text):
                decoded, length = _ansi_escape(text, self.pos + 1)
                chars.append(decoded)
                self.pos += 1 + length
            else:
                chars.append(text[self.pos])
                self.pos += 1
        if self.pos >= len(text):
            self.problem(f"`$'` at character {start + 1} is never closed")
        self.pos = min(self.pos + 1, len(text))
        out.lit("".join(chars), True)

    def _read_backtick(self, out: _WordBuilder, quoted: bool) -> None:
        text = self.text
        start = self.pos
        index = start + 1
        while index < len(text) and text[index] != "`":
            index += 2 if text[index] == "\\" else 1
        if index >= len(text):
            self.problem(f"a backquote at character {start + 1} is never closed")
        inner = text[start + 1 : min(index, len(text))]
        inner = re.sub(r'\\([$`\\"])' if quoted else r"\\([$`\\])", r"\1", inner)
        self.pos = min(index + 1, len(text))
        script = parse(inner, self.depth + 1)
        out.add(Subst(text[start : self.pos], script, quoted))

    def _read_heredoc_bodies(self) -> None:
        text = self.text
        for heredoc in self.pending:
            lines: list[str] = []
            while self.pos < len(text):
                end = text.find("\n", self.pos)
                line = text[self.pos : len(text) if end < 0 else end]
                self.pos = len(text) if end < 0 else end + 1
                check = line.lstrip("\t") if heredoc.strip_tabs else line
                if check == heredoc.delimiter:
                    heredoc.complete = True
                    break
                lines.append(check)
            if not heredoc.complete:
                self.problem(f"the here-document is never ended by a `{heredoc.delimiter}` line")
            heredoc.body = "\n".join(lines) + ("\n" if lines else "")
            if not heredoc.quoted:
                heredoc.scripts = _expansion_scripts(heredoc.body, self.depth + 1, self)
        self.pending.clear()


def _expansion_scripts(text: str, depth: int, owner: _Lexer) -> tuple[Script, ...]:
    """The command substitutions in text that bash expands as if it were double-quoted."""
    if "$" not in text and "`" not in text:
        return ()
    lexer = _Lexer(text, depth)
    out = _WordBuilder()
    lexer.read_double_content(out, terminator=None)
    for problem in lexer.problems:
        owner.problem(problem)
    return out.scripts()


_SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


def _ansi_escape(text: str, index: int) -> tuple[str, int]:
    """Decode the escape after a backslash in `$'...'`; returns (text, characters consumed)."""
    char = text[index]
    if char in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[char], 1
    for prefix, size, base in (("x", 2, 16), ("u", 4, 16), ("U", 8, 16)):
        if char == prefix:
            digits = re.compile(rf"[0-9A-Fa-f]{{1,{size}}}").match(text, index + 1)
            if digits:
                return chr(min(int(digits.group(0), base), 0x10FFFF)), 1 + len(digits.group(0))
            return "\\" + char, 1
    octal = re.compile(r"[0-7]{1,3}").match(text, index)
    if octal:
        return chr(int(octal.group(0), 8) & 0xFF), len(octal.group(0))
    if char == "c" and index + 1 < len(text):
        return chr(ord(text[index + 1]) & 0x1F), 2
    return "\\" + char, 1


class _Parser:
    def __init__(self, lexer: _Lexer) -> None:
        self.lexer = lexer
        self.commands: list[SimpleCommand] = []
        self.functions: list[str] = []
        self._peeked: _Token | None = None

    def peek(self) -> _Token:
        if self._peeked is None:
            self._peeked = self.lexer.next_token()
        return self._peeked

    def take(self) -> _Token:
        token = self.peek()
        self._peeked = None
        return token

    def _closes(self, token: _Token, closers: frozenset[str]) -> str | None:
        if token.kind == "op" and token.op in closers:
            return token.op
        if token.kind == "word" and token.word is not None and token.word.plain in closers:
            return token.word.plain
        return None

    def parse_list(self, closers: frozenset[str]) -> str | None:
        """Parse commands until one of `closers` (consumed and returned) or the end (None)."""
        joined = ""
        while True:
            token = self.peek()
            if token.kind == "eof":
                return None
            closer = self._closes(token, closers)
            if closer is not None:
                self.take()
                return closer
            if token.kind in ("op", "newline") and (token.op in _SEPARATORS or token.op in _CASE_ENDS):
                self.take()
                if token.op in ("&&", "||"):
                    joined = token.op
                elif not (token.op == "\n" and joined in ("&&", "||")):
                    joined = ";"
                continue
            if token.kind == "op" and token.op in (")", "|", "|&"):
                self.lexer.problem(f"unexpected `{token.op}` at character {token.start + 1}")
                self.take()
                continue
            first = len(self.commands)
            self._parse_pipeline(closers)
            if first < len(self.commands) and joined:
                self.commands[first] = replace(self.commands[first], joined=joined)
            joined = ""

    def _parse_pipeline(self, closers: frozenset[str]) -> None:
        pipe_in = False
        while True:
            first = len(self.commands)
            self._parse_command(closers, pipe_in)
            token = self.peek()
            if token.kind == "op" and token.op in ("|", "|&"):
                self.take()
                for index in range(first, len(self.commands)):
                    self.commands[index] = replace(self.commands[index], pipe_out=True)
                while self.peek().kind == "newline":
                    self.take()
                pipe_in = True
                continue
            return

    def _mark_pipe_in(self, first: int, pipe_in: bool) -> None:
        if pipe_in:
            for index in range(first, len(self.commands)):
                self.commands[index] = replace(self.commands[index], pipe_in=True)

    def _parse_command(self, closers: frozenset[str], pipe_in: bool) -> None:
        first = len(self.commands)
        token = self.peek()
        while token.kind == "word" and token.word is not None and token.word.plain in _PREFIX_KEYWORDS:
            keyword = token.word.plain
            self.take()
            if keyword == "time" and self._plain(self.peek()) == "-p":
                self.take()
            token = self.peek()
            if token.kind not in ("word", "op") or self._closes(token, closers) is not None:
                return
        if token.kind == "op" and token.op == "(":
            self._parse_subshell(token)
        elif token.kind != "word" or token.word is None:
            self._parse_simple(pipe_in)
            return
        elif token.word.plain == "{":
            self.take()
            if self._nested_list(frozenset({"}"})) != "}":
                self.lexer.problem(f"the `{{` at character {token.start + 1} is never closed")
            self._trailing_redirects(token.start)
        elif token.word.plain in _CLOSING_KEYWORDS:
            self.take()
            self._trailing_redirects(token.start)
        elif token.word.plain == "[[":
            self._parse_test(token)
        elif token.word.plain == "case":
            self._parse_case(token)
        elif token.word.plain in ("for", "select"):
            self._parse_for(token, token.word.plain)
        elif token.word.plain == "function":
            self.take()
            name = self.take()
            if name.kind == "word" and name.word is not None:
                self.functions.append(name.word.raw)
            if self.peek().kind == "op" and self.peek().op == "(":
                self.take()
                if self.peek().kind == "op" and self.peek().op == ")":
                    self.take()
            self._skip_newlines()
            self._parse_command(frozenset(), pipe_in=False)
        else:
            self._parse_simple(pipe_in)
            return
        self._mark_pipe_in(first, pipe_in)

    def _nested_list(self, closers: frozenset[str]) -> str | None:
        lexer = self.lexer
        if lexer.depth + lexer.nesting >= MAX_DEPTH:
            lexer.problem("the command nests groups and substitutions too deeply to check")
            lexer.pos = len(lexer.text)
            self._peeked = None
            return None
        lexer.nesting += 1
        try:
            return self.parse_list(closers)
        finally:
            lexer.nesting -= 1

    def _arith_at(self, token: _Token) -> Word | None:
        """At a `(` token: the arithmetic command `((...))` starting there, if it is one."""
        lexer = self.lexer
        if not lexer.text.startswith("((", token.start):
            return None
        lexer.pos = token.start
        self._peeked = None
        arith = lexer.read_arith_command()
        if arith is None:
            lexer.pos = token.start + 1
        return arith

    def _parse_subshell(self, token: _Token) -> None:
        self.take()
        arith = self._arith_at(token)
        if arith is not None:
            self.commands.append(SimpleCommand((arith,), text=arith.raw, keyword="(("))
            return
        if self._nested_list(frozenset({")"})) != ")":
            self.lexer.problem(f"the `(` at character {token.start + 1} is never closed")
        self._trailing_redirects(token.start)

    def _plain(self, token: _Token) -> str | None:
        return token.word.plain if token.word is not None else None

    def _skip_newlines(self) -> None:
        while self.peek().kind == "newline":
            self.take()

    def _trailing_redirects(self, start: int) -> None:
        redirects: list[Redirect] = []
        end = start
        while self.peek().kind == "op" and self.peek().op in REDIRECT_OPS:
            token = self.take()
            redirect = self._redirect(token)
            if redirect is not None:
                redirects.append(redirect)
            end = self.lexer.pos
        if redirects:
            self.commands.append(SimpleCommand((), (), tuple(redirects), self.lexer.text[start:end]))

    def _redirect(self, token: _Token) -> Redirect | None:
        target = self.peek()
        if target.kind != "word" or target.word is None:
            self.lexer.problem(f"the redirection `{token.op}` at character {token.start + 1} has no target")
            return None
        self.take()
        if token.op in ("<<", "<<-"):
            word = target.word
            heredoc = Heredoc(
                word.literal if word.literal is not None else word.raw, word.quoted, token.op == "<<-"
            )
            self.lexer.pending.append(heredoc)
            return Redirect(token.op, token.fd, None, heredoc)
        return Redirect(token.op, token.fd, target.word)

    def _parse_simple(self, pipe_in: bool) -> None:
        words: list[Word] = []
        assignments: list[Assignment] = []
        redirects: list[Redirect] = []
        start = self.peek().start
        end = start
        while True:
            token = self.peek()
            if token.kind == "word" and token.word is not None:
                self.take()
                end = token.end
                assignment = None if words else _assignment(token.word)
                if assignment is not None:
                    assignments.append(assignment)
                    continue
                words.append(token.word)
                if len(words) == 1 and self._function_definition(token.word):
                    return
            elif token.kind == "op" and token.op in REDIRECT_OPS:
                self.take()
                redirect = self._redirect(token)
                if redirect is not None:
                    redirects.append(redirect)
                end = self.lexer.pos
            else:
                break
        if not (words or assignments or redirects):
            token = self.take()
            if token.kind == "op":
                self.lexer.problem(f"unexpected `{token.op}` at character {token.start + 1}")
            return
        self.commands.append(
            SimpleCommand(
                tuple(words),
                tuple(assignments),
                tuple(redirects),
                self.lexer.text[start:end],
                pipe_in=pipe_in,
            )
        )

    def _function_definition(self, name: Word) -> bool:
        """`name() body`: record the name; the body is parsed as ordinary commands."""
        token = self.peek()
        if not (token.kind == "op" and token.op == "("):
            return False
        rest = self.lexer.text[self.lexer.pos :].lstrip(" \t")
        if not rest.startswith(")"):
            return False
        self.take()
        self.take()
        self.functions.append(name.raw)
        self._skip_newlines()
        self._parse_command(frozenset(), pipe_in=False)
        return True

    def _parse_test(self, opening: _Token) -> None:
        """`[[ ... ]]`: inside, `<`, `>`, `&&`, `(` are operands, not shell syntax."""
        self.take()
        words: list[Word] = [opening.word] if opening.word is not None else []
        while True:
            token = self.peek()
            if token.kind in ("eof", "newline"):
                self.lexer.problem(f"the `[[` at character {opening.start + 1} is never closed")
                break
            self.take()
            if token.kind == "word" and token.word is not None:
                words.append(token.word)
                if token.word.plain == "]]":
                    break
            else:
                words.append(Word((Lit(token.op, False),), token.op))
        end = self.lexer.pos
        self.commands.append(
            SimpleCommand(tuple(words), text=self.lexer.text[opening.start : end], keyword="[[")
        )

    def _parse_for(self, opening: _Token, keyword: str) -> None:
        self.take()
        token = self.peek()
        if token.kind == "op" and token.op == "(":
            self.take()
            arith = self._arith_at(token)
            if arith is None:
                self.lexer.problem(f"the `{keyword} ((` at character {opening.start + 1} cannot be read")
                return
            self.commands.append(SimpleCommand((arith,), text=arith.raw, keyword="(("))
            return
        words: list[Word] = []
        end = opening.end
        while self.peek().kind == "word" and self.peek().word is not None:
            token = self.take()
            assert token.word is not None
            words.append(token.word)
            end = token.end
        self.commands.append(
            SimpleCommand(tuple(words), text=self.lexer.text[opening.start : end], keyword=keyword)
        )

    def _parse_case(self, opening: _Token) -> None:
        self.take()
        subject = self.take()
        words = (subject.word,) if subject.word is not None else ()
        self.commands.append(
            SimpleCommand(words, text=self.lexer.text[opening.start : self.lexer.pos], keyword="case")
        )
        self._skip_newlines()
        if self._plain(self.peek()) == "in":
            self.take()
        while True:
            self._skip_newlines()
            token = self.peek()
            if self._plain(token) == "esac":
                self.take()
                return
            while True:
                token = self.take()
                if token.kind == "eof":
                    self.lexer.problem(f"the `case` at character {opening.start + 1} is never closed")
                    return
                if token.kind == "op" and token.op == ")":
                    break
                if token.kind == "word" and token.word is not None and token.word.scripts:
                    self.commands.append(SimpleCommand((token.word,), text=token.word.raw, keyword="case"))
            if self._nested_list(_CASE_ENDS | {"esac"}) in (None, "esac"):
                return


def _assignment(word: Word) -> Assignment | None:
    first = word.parts[0] if word.parts else None
    if not isinstance(first, Lit) or first.quoted:
        return None
    match = _ASSIGNMENT.match(first.text)
    if match is None:
        return None
    rest_text = first.text[match.end() :]
    parts: tuple[WordPart, ...] = ((Lit(rest_text, False),) if rest_text else ()) + word.parts[1:]
    return Assignment(match.group(1), Word(parts, word.raw[match.end() :]), bool(match.group(2)))
