"""The first half of reading a command line: characters into words and operators, the way bash
does it (quotes, escapes, `$'...'`, expansions, here-documents). Command substitutions are handed
to the parser through `NestedParser`, since they hold whole command lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal, NamedTuple, Protocol

from studio.policy.shell.budget import CHARACTER, TOKEN, tick
from studio.policy.shell.escapes import NAME, decode_escapes
from studio.policy.shell.syntax import Arith, Heredoc, Lit, Param, Script, Subst, Word, WordPart

MAX_DEPTH = 24

_BLANKS = " \t"
_WORD_END = " \t\n;&|<>()"
_NAME = re.compile(NAME)
_FD = re.compile(r"[0-9]+(?=[<>])")
# The characters that end a run a word (or a double-quoted text, or a here-document's body)
# takes as it is: such a run is read at once, each of its characters still spending its step.
_WORD_STOP = re.compile(r"[ \t\n;&|<>()\\'\"$`]")
# A word that is one such run, ended by a blank or an operator (or the text's end): most words.
_PLAIN_WORD = re.compile(r"[^ \t\n;&|<>()\\'\"$`]+")
_DOUBLE_STOP = re.compile(r'["\\$`]')
_BODY_STOP = re.compile(r"[\\$`]")
_NAMED_FD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])")
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

# The operators by their first character, longest first: a word starts with none of them, and
# tries no operator.
_OPERATORS_AT = {first: tuple(op for op in _OPERATORS if op[0] == first) for first in
                 {op[0] for op in _OPERATORS}}


class NestedParser(Protocol):
    """The parser, as the lexer needs it for command substitutions."""

    def parse_until(self, lexer: Lexer, closers: frozenset[str]) -> tuple[Script, str | None]:
        """Parse commands from `lexer` up to one of `closers`; the script and the closer found."""
        ...

    def parse(self, text: str, depth: int) -> Script:
        """Parse a separate piece of text (a backquoted command)."""
        ...


class Token(NamedTuple):
    """A word or an operator (a tuple: the lexer makes one for every token it reads)."""

    kind: Literal["word", "op", "newline", "eof"]
    op: str = ""
    word: Word | None = None
    start: int = 0
    end: int = 0
    fd: str | None = None


@dataclass(slots=True)
class WordBuilder:
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


class Lexer:
    def __init__(self, text: str, depth: int, nested: NestedParser) -> None:
        self.text = text
        self.nested = nested
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
        pos = self.pos
        while pos < len(text):
            char = text[pos]
            if char in _BLANKS:
                pos += 1
            elif char == "\\" and text.startswith("\n", pos + 1):
                pos += 2
            elif char == "#":
                end = text.find("\n", pos)
                pos = len(text) if end < 0 else end
            else:
                break
        self.pos = pos

    def next_token(self) -> Token:
        tick(TOKEN)
        self._skip_blanks()
        text = self.text
        start = self.pos
        if start >= len(text):
            if self.pending:
                for heredoc in self.pending:
                    self.problem(f"the here-document ending in `{heredoc.delimiter}` has no body")
                self.pending.clear()
            return Token("eof", start=start, end=start)
        char = text[start]
        if char == "\n":
            self.pos += 1
            self._read_heredoc_bodies()
            return Token("newline", op="\n", start=start, end=start + 1)
        if char in "<>" and text.startswith("(", start + 1):
            return self._word_token(start)
        fd = None
        named = _NAMED_FD.match(text, start) if char == "{" else None
        if named:
            self.problem(
                f"`{named.group(0)}` at character {start + 1} opens a file descriptor into a "
                "variable, which the policy does not model"
            )
            self.pos += len(named.group(0))
            fd = named.group(0)
        digits = _FD.match(text, start) if "0" <= char <= "9" else None
        if digits:
            fd = digits.group(0)
            self.pos += len(fd)
        for op in _OPERATORS_AT.get(text[self.pos : self.pos + 1], ()):
            if text.startswith(op, self.pos):
                self.pos += len(op)
                return Token("op", op, None, start, self.pos, fd)
        self.pos = start
        return self._word_token(start)

    def _word_token(self, start: int) -> Token:
        word = self.read_word()
        return Token("word", "", word, start, self.pos)

    def read_word(self) -> Word:
        text = self.text
        start = self.pos
        plain = _PLAIN_WORD.match(text, start)
        if plain is not None:
            end = plain.end()
            following = text[end : end + 1]
            if not following or (following in _WORD_END and following != "("):
                # What the loop below makes of it, in one step: each character spends its
                # step, and so does the one ending the word (a `(` may open an array).
                tick(CHARACTER * (end - start + len(following)))
                self.pos = end
                run = text[start:end]
                return Word((Lit(run, False),), run)
        out = WordBuilder()
        while self.pos < len(text):
            tick(CHARACTER)
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
                self._read_run(out, _WORD_STOP, quoted=False)
        return Word(tuple(out.parts), text[start : self.pos])

    def _array_assignment(self, out: WordBuilder) -> bool:
        if len(out.parts) != 1 or not isinstance(out.parts[0], Lit) or out.parts[0].quoted:
            return False
        return re.fullmatch(NAME + r"\+?=", out.parts[0].text) is not None

    def _read_array(self, out: WordBuilder) -> None:
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

    def _read_single(self, out: WordBuilder) -> None:
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

    def _read_double(self, out: WordBuilder) -> None:
        opened = self.pos
        self.pos += 1
        out.lit("", True)
        if not self.read_double_content(out, terminator='"'):
            self.problem(
                f"a double quote at character {opened + 1} is never closed, so the command "
                "cannot be read reliably"
            )

    def _read_run(self, out: WordBuilder, stop: re.Pattern[str], quoted: bool) -> None:
        """The character at `pos` and those after it up to one `stop` matches, as one literal;
        the loop spent the first one's step already."""
        found = stop.search(self.text, self.pos + 1)
        end = found.start() if found is not None else len(self.text)
        tick(CHARACTER * (end - self.pos - 1))
        out.lit(self.text[self.pos : end], quoted)
        self.pos = end

    def read_double_content(self, out: WordBuilder, terminator: Literal['"'] | None) -> bool:
        """Read double-quoted text up to `terminator` (None: to the end); True if it was found."""
        text = self.text
        while self.pos < len(text):
            tick(CHARACTER)
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
                self._read_run(out, _DOUBLE_STOP if terminator else _BODY_STOP, quoted=True)
        return terminator is None

    def _read_dollar(self, out: WordBuilder, quoted: bool) -> None:
        text = self.text
        start = self.pos
        following = text[start + 1] if start + 1 < len(text) else ""
        if following == "(":
            if text.startswith("$((", start) and self._read_arith(out, quoted, skip=3):
                return
            self._read_command_subst(out, quoted, skip=2, kind="command")
        elif following == "{":
            self._read_braced(out, quoted)
        elif following == "[":
            self._read_old_arith(out, quoted)
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

    def _read_command_subst(self, out: WordBuilder, quoted: bool, skip: int, kind: str) -> None:
        start = self.pos
        self.pos += skip
        if self.depth + self.nesting >= MAX_DEPTH:
            self.problem("the command nests shells and substitutions too deeply to check")
            self.pos = len(self.text)
            return
        self.nesting += 1
        inner, closed = self.nested.parse_until(self, frozenset({")"}))
        self.nesting -= 1
        if closed != ")":
            self.problem(f"`{self.text[start : start + skip]}` at character {start + 1} is never closed")
        script = replace(inner, text=self.text[start : self.pos])
        out.add(
            Subst(self.text[start : self.pos], script, quoted, "process" if kind == "process" else "command")
        )

    def _read_arith(self, out: WordBuilder, quoted: bool, skip: int) -> bool:
        """Read `$((...))` (or `((...))`); False, with nothing consumed, if it is not arithmetic."""
        start, problems = self.pos, len(self.problems)
        self.pos += skip
        inner = WordBuilder()
        depth = 0
        text = self.text
        while self.pos < len(text):
            tick(CHARACTER)
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

    def _read_old_arith(self, out: WordBuilder, quoted: bool) -> None:
        """bash's old `$[ ... ]`, arithmetic like `$(( ))`: its variables are evaluated, array
        subscripts and the commands hidden in them too. Read whole, judged as arithmetic."""
        text = self.text
        start = self.pos
        self.pos += 2
        inner = WordBuilder()
        depth = 0
        while self.pos < len(text):
            tick(CHARACTER)
            char = text[self.pos]
            if char == "[":
                depth += 1
            elif char == "]":
                if depth == 0:
                    self.pos += 1
                    out.add(Arith(text[start : self.pos], quoted, inner.scripts()))
                    return
                depth -= 1
            elif char == "$":
                self._read_dollar(inner, quoted=True)
                continue
            elif char == "`":
                self._read_backtick(inner, quoted=True)
                continue
            elif char == "\\":
                self.pos += 1
            self.pos += 1
        self.problem(f"`$[` at character {start + 1} is never closed")
        out.add(Arith(text[start : self.pos], quoted, inner.scripts()))

    def read_arith_command(self) -> Word | None:
        """At `((` of an arithmetic command, read it whole."""
        start = self.pos
        out = WordBuilder()
        if self._read_arith(out, quoted=False, skip=2):
            return Word(tuple(out.parts), self.text[start : self.pos])
        return None

    def _read_braced(self, out: WordBuilder, quoted: bool) -> None:
        text = self.text
        start = self.pos
        self.pos += 2
        inner = WordBuilder()
        while self.pos < len(text) and text[self.pos] != "}":
            tick(CHARACTER)
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
        name_match = re.match(rf"[#!]?({NAME}|[0-9]+|[@*#?$!-])", body)
        name = name_match.group(1) if name_match else ""
        plain = bool(re.fullmatch(rf"{NAME}|[0-9]+|[@*#?$!-]", body))
        out.add(Param(name, source, quoted, plain, inner.scripts()))

    def _read_ansi(self, out: WordBuilder) -> None:
        text = self.text
        start = self.pos
        end = start + 2
        while end < len(text) and text[end] != "'":
            tick(CHARACTER)
            end += 2 if text[end] == "\\" else 1
        if end >= len(text):
            self.problem(f"`$'` at character {start + 1} is never closed")
        self.pos = min(end + 1, len(text))
        out.lit(decode_escapes(text[start + 2 : min(end, len(text))], ansi=True), True)

    def _read_backtick(self, out: WordBuilder, quoted: bool) -> None:
        text = self.text
        start = self.pos
        index = start + 1
        while index < len(text) and text[index] != "`":
            tick(CHARACTER)
            index += 2 if text[index] == "\\" else 1
        if index >= len(text):
            self.problem(f"a backquote at character {start + 1} is never closed")
        inner = text[start + 1 : min(index, len(text))]
        inner = re.sub(r'\\([$`\\"])' if quoted else r"\\([$`\\])", r"\1", inner)
        self.pos = min(index + 1, len(text))
        script = self.nested.parse(inner, self.depth + 1)
        out.add(Subst(text[start : self.pos], script, quoted))

    def _read_heredoc_bodies(self) -> None:
        text = self.text
        for heredoc in self.pending:
            lines: list[str] = []
            while self.pos < len(text):
                tick(CHARACTER)
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


def _expansion_scripts(text: str, depth: int, owner: Lexer) -> tuple[Script, ...]:
    """The command substitutions in text that bash expands as if it were double-quoted."""
    if "$" not in text and "`" not in text:
        return ()
    lexer = Lexer(text, depth, owner.nested)
    out = WordBuilder()
    lexer.read_double_content(out, terminator=None)
    for problem in lexer.problems:
        owner.problem(problem)
    return out.scripts()
