"""Reading a command line the way bash reads it: words, quotes, expansions, operators and
redirections (see lexer.py), split into simple commands. Nothing runs and nothing is expanded here (see
`expand.py`); command substitutions, process substitutions and here-document bodies are parsed
into nested scripts so the policy can judge what they would run.

The parser is lenient: what it cannot read it records as a problem (the policy then asks) and
carries on, so that a broken line still has its dangerous parts found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from studio.policy.shell.escapes import NAME
from studio.policy.shell.lexer import MAX_DEPTH, Lexer, Token
from studio.policy.shell.syntax import (
    Assignment,
    Heredoc,
    Lit,
    Redirect,
    Script,
    SimpleCommand,
    Word,
    WordPart,
)

_ASSIGNMENT = re.compile(rf"({NAME})(\+?)=")
REDIRECT_OPS = frozenset({"<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">", "&>>", "&>"})
_SEPARATORS = frozenset({";", "&", "&&", "||", "\n"})
_CASE_ENDS = frozenset({";;", ";&", ";;&"})
# Reserved words that only introduce or continue a compound command: the words after them are a
# command of their own.
_PREFIX_KEYWORDS = frozenset({"!", "time", "then", "else", "do", "if", "elif", "while", "until", "coproc"})
_CLOSING_KEYWORDS = frozenset({"fi", "done", "esac", "}", "]]"})
# The words that start a compound command (or end one): any other word starts a simple command.
_COMPOUND_WORDS = _CLOSING_KEYWORDS | {"{", "[[", "case", "for", "select", "function"}
# `time` followed by an option other than bash's own `-p` and `--`.
_TIME_PROGRAM = re.compile(r"[ \t]+-(?!(?:p|-)(?:[\s;&|)]|$))")


def parse(text: str, depth: int = 0) -> Script:
    """Parse `text` as bash would before running it. Never raises."""
    lexer = Lexer(text, depth, _NESTED)
    if depth > MAX_DEPTH:
        return Script((), ("the command nests shells and substitutions too deeply to check",), (), text)
    parser = _Parser(lexer)
    try:
        parser.parse_list(frozenset())
    except RecursionError:
        lexer.problem("the command nests groups and substitutions too deeply to check")
    if "\x00" in text:
        lexer.problems.append("the command holds a NUL character, which bash cannot pass on")
    return Script(
        tuple(parser.commands),
        tuple(lexer.problems),
        tuple(parser.functions),
        text,
        tuple(parser.recursive),
    )


class _Nested:
    def parse_until(self, lexer: Lexer, closers: frozenset[str]) -> tuple[Script, str | None]:
        parser = _Parser(lexer)
        closed = parser.parse_list(closers)
        script = Script(tuple(parser.commands), (), tuple(parser.functions), "", tuple(parser.recursive))
        return script, closed

    def parse(self, text: str, depth: int) -> Script:
        return parse(text, depth)


_NESTED = _Nested()


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


class _Parser:
    def __init__(self, lexer: Lexer) -> None:
        self.lexer = lexer
        self.commands: list[SimpleCommand] = []
        self.functions: list[str] = []
        self.recursive: list[str] = []
        self._peeked: Token | None = None

    def peek(self) -> Token:
        if self._peeked is None:
            self._peeked = self.lexer.next_token()
        return self._peeked

    def take(self) -> Token:
        token = self.peek()
        self._peeked = None
        return token

    def _closes(self, token: Token, closers: frozenset[str]) -> str | None:
        if not closers:
            return None
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
                self.commands[first] = _changed(self.commands[first], joined=joined)
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
                    self.commands[index] = _changed(self.commands[index], pipe_out=True)
                while self.peek().kind == "newline":
                    self.take()
                pipe_in = True
                continue
            return

    def _mark_pipe_in(self, first: int, pipe_in: bool) -> None:
        if pipe_in:
            for index in range(first, len(self.commands)):
                self.commands[index] = _changed(self.commands[index], pipe_in=True)

    def _parse_command(self, closers: frozenset[str], pipe_in: bool) -> None:
        first = len(self.commands)
        token = self.peek()
        plain = token.word.plain if token.kind == "word" and token.word is not None else None
        while plain in _PREFIX_KEYWORDS:
            keyword = plain
            if keyword == "time" and _TIME_PROGRAM.match(self.lexer.text, token.end):
                # `time -o FILE cmd` is not bash's keyword (which knows only `-p`) but a program,
                # /usr/bin/time, as sh and a `time` not first on the line run it: judged as one.
                break
            if keyword == "coproc":
                self.lexer.problem(
                    "`coproc` runs a command in the background wired to the shell's file "
                    "descriptors, which the policy does not model"
                )
            self.take()
            if keyword == "time" and self._plain(self.peek()) == "-p":
                self.take()
            token = self.peek()
            if token.kind not in ("word", "op") or self._closes(token, closers) is not None:
                return
            plain = token.word.plain if token.kind == "word" and token.word is not None else None
        if token.kind == "op" and token.op == "(":
            self._parse_subshell(token)
        elif plain not in _COMPOUND_WORDS:  # None for an operator or a quoted word
            self._parse_simple(pipe_in)
            return
        elif plain == "{":
            self.take()
            if self._nested_list(frozenset({"}"})) != "}":
                self.lexer.problem(f"the `{{` at character {token.start + 1} is never closed")
            self._trailing_redirects(token.start)
        elif plain in _CLOSING_KEYWORDS:
            self.take()
            self._trailing_redirects(token.start)
        elif plain == "[[":
            self._parse_test(token)
        elif plain == "case":
            self._parse_case(token)
        elif plain == "for" or plain == "select":
            self._parse_for(token, plain)
        else:  # "function"
            self.take()
            name = self.take()
            if name.kind == "word" and name.word is not None:
                self.functions.append(name.word.raw)
            if self.peek().kind == "op" and self.peek().op == "(":
                self.take()
                if self.peek().kind == "op" and self.peek().op == ")":
                    self.take()
            self._skip_newlines()
            self._function_body(name.word.raw if name.word is not None else "")
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

    def _arith_at(self, token: Token) -> Word | None:
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

    def _parse_subshell(self, token: Token) -> None:
        self.take()
        arith = self._arith_at(token)
        if arith is not None:
            self.commands.append(SimpleCommand((arith,), text=arith.raw, keyword="(("))
            return
        first = len(self.commands)
        if self._nested_list(frozenset({")"})) != ")":
            self.lexer.problem(f"the `(` at character {token.start + 1} is never closed")
        for index in range(first, len(self.commands)):
            self.commands[index] = _changed(self.commands[index], subshell=True)
        self._trailing_redirects(token.start)

    def _plain(self, token: Token) -> str | None:
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

    def _redirect(self, token: Token) -> Redirect | None:
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
        self._function_body(name.raw)
        return True

    def _function_body(self, name: str) -> None:
        first = len(self.commands)
        self._parse_command(frozenset(), pipe_in=False)
        if name and _calls(self.commands[first:], name) and name not in self.recursive:
            self.recursive.append(name)

    def _parse_test(self, opening: Token) -> None:
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

    def _parse_for(self, opening: Token, keyword: str) -> None:
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

    def _parse_case(self, opening: Token) -> None:
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
                # A pattern is expanded before it is matched: `$[x]`, `$((x))`, `${!x}` in it
                # are judged as in any word.
                if token.kind == "word" and token.word is not None and token.word.literal is None:
                    self.commands.append(SimpleCommand((token.word,), text=token.word.raw, keyword="case"))
            if self._nested_list(_CASE_ENDS | {"esac"}) in (None, "esac"):
                return


def _changed(command: SimpleCommand, joined: str | None = None, pipe_in: bool = False,
             pipe_out: bool = False, subshell: bool = False) -> SimpleCommand:
    """`command` with `joined` set, or with `pipe_in`, `pipe_out` or `subshell` made true: what
    `dataclasses.replace` makes of it, at a fraction of its cost (the parser does this for most
    commands)."""
    return SimpleCommand(command.words, command.assignments, command.redirects, command.text,
                         command.keyword, command.pipe_in or pipe_in, command.pipe_out or pipe_out,
                         command.joined if joined is None else joined, command.subshell or subshell)


def _calls(commands: Sequence[SimpleCommand], name: str) -> bool:
    """Whether any of `commands`, or a command substituted inside one, runs `name`."""
    for command in commands:
        if command.words and command.words[0].literal == name:
            return True
        if any(_calls(script.commands, name) for script in command.scripts):
            return True
    return False


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
