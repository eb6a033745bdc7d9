"""Turning parsed words into the arguments a program would receive, as far as that can be told
without running anything: tilde, the variables whose values are known, brace expansion, word
splitting and globbing against the real folder. What cannot be known is marked so, never guessed
as harmless.
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import glob
import itertools
import os
import pwd
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from studio.policy.shell.budget import BRACE, FOLDER, WORD, CheckAborted, tick
from studio.policy.shell.escapes import decode_escapes
from studio.policy.shell.syntax import Arith, Lit, Param, Script, SimpleCommand, Subst, Word, WordPart

MAX_ARGS_PER_WORD = 256
MAX_BRACE_GROUPS = 32
MAX_GLOB_MATCHES = 200
# Folder entries one glob may look at: `/*/*/*/*/*/*/*/*/zz` would otherwise walk the whole disk.
MAX_GLOB_SCAN = 5_000
MAX_OUTPUT = 100_000
DEFAULT_IFS = " \t\n"
# Joins the positional parameters in the value of `$@`, which expands to one word per parameter.
POSITIONAL_SEPARATOR = "\x00"


@dataclass(frozen=True, slots=True)
class Value:
    """A variable's value; `exact` is False for values the command line itself assigned, since
    the assignment may sit in a branch that never runs."""

    text: str
    exact: bool


@dataclass(slots=True)
class Env:
    """The variables a command line can see, as far as they are known."""

    home: Path
    values: dict[str, Value] = field(default_factory=dict)
    unknown: set[str] = field(default_factory=set)

    @classmethod
    def initial(cls, home: Path, cwd: Path | None) -> Env:
        values = {"HOME": Value(str(home), True), "IFS": Value(DEFAULT_IFS, True)}
        if cwd is not None:
            values["PWD"] = Value(str(cwd), True)
        return cls(home, values)

    def copy(self) -> Env:
        return Env(self.home, dict(self.values), set(self.unknown))

    def get(self, name: str) -> Value | None:
        return None if name in self.unknown else self.values.get(name)

    def assign(self, name: str, value: Value | None) -> None:
        """Record an assignment made by the line itself. Its value is a guess (the assignment
        may sit in a branch that never runs); a second, different value makes it unknown."""
        previous = self.values.get(name)
        if value is None or (previous is not None and not previous.exact and previous.text != value.text):
            self.unknown.add(name)
            return
        self.values[name] = Value(value.text, False)


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument as the program would see it.

    Attributes:
        text: the value, or the known pieces of it when `known` is False.
        raw: the word as written.
        exact: the value is certain.
        known: the value is at least a good guess (exact, or assigned earlier in the line).
        expanded: it came out of a variable, a substitution, a brace or a glob, not written out.
        quoted: the word used quotes or backslashes.
        glob: the pattern, when the word was an unquoted glob.
    """

    text: str
    raw: str
    exact: bool = True
    known: bool = True
    expanded: bool = False
    quoted: bool = False
    glob: str | None = None


def literal_arg(text: str) -> Arg:
    return Arg(text, text)


# A character atom: (char, quoted, may glob); other word parts stay whole.
_Char = tuple[str, bool, bool]
_Atom = _Char | WordPart


@dataclass(slots=True)
class _Field:
    chars: list[str] = field(default_factory=list)
    globbable: list[bool] = field(default_factory=list)
    exact: bool = True
    known: bool = True
    started: bool = False

    def add(self, text: str, may_glob: bool) -> None:
        self.chars.extend(text)
        self.globbable.extend([may_glob] * len(text))
        self.started = True


def expand_words(words: Sequence[Word], env: Env, cwd: Path | None) -> list[Arg]:
    args: list[Arg] = []
    for word in words:
        args.extend(expand_word(word, env, cwd))
    return args


def expand_word(word: Word, env: Env, cwd: Path | None) -> list[Arg]:
    """The arguments one word becomes: braces, tilde, variables, splitting, then globbing."""
    literals = [part for part in word.parts if isinstance(part, Lit) and part.quoted]
    if literals and len(literals) == len(word.parts):
        # Quoted text only (a script in quotes): none of the steps applies, and going through
        # them a character at a time would spend the check's budget on a long program.
        return [Arg("".join(part.text for part in literals), word.raw, True, True, False, word.quoted)]
    atoms = _tilde(_atoms(word.parts), env)
    if sum(1 for atom in atoms if atom == ("{", False, True)) > MAX_BRACE_GROUPS:
        raise CheckAborted(f"a word holds more than {MAX_BRACE_GROUPS} brace expansions")
    alternatives = _braces(atoms)
    braced = len(alternatives) > 1 or alternatives[0] is not atoms
    dynamic = braced or any(not isinstance(part, Lit) for part in word.parts)
    quoted = word.quoted
    args: list[Arg] = []
    for sequence in alternatives:
        tick(WORD)
        for item in _fields(sequence, env, cwd):
            args.extend(_glob(item, word.raw, dynamic, quoted, cwd))
            if len(args) >= MAX_ARGS_PER_WORD:
                # The words past the limit are not checked, so they stand as one unknown word.
                return [*args, Arg("", word.raw, False, False, True, quoted)]
    return args


def expand_value(word: Word, env: Env, cwd: Path | None) -> Arg:
    """A word that bash neither splits nor brace-expands: an assignment or a redirection target."""
    item = _Field()
    for atom in _tilde(_atoms(word.parts), env):
        if isinstance(atom, tuple):
            item.add(atom[0], atom[2])
            continue
        value = _part_value(atom, env, cwd)
        if value is None:
            item.known = item.exact = False
        else:
            item.exact = item.exact and value.exact
            item.add(value.text, False)
    dynamic = any(not isinstance(part, Lit) for part in word.parts)
    return Arg("".join(item.chars), word.raw, item.exact, item.known, dynamic, word.quoted)


def _atoms(parts: Sequence[WordPart]) -> list[_Atom]:
    atoms: list[_Atom] = []
    for part in parts:
        if isinstance(part, Lit):
            atoms.extend((char, part.quoted, not part.quoted) for char in part.text)
            if not part.text and part.quoted:
                atoms.append(("", True, False))
        else:
            atoms.append(part)
    return atoms


def _tilde(atoms: list[_Atom], env: Env) -> list[_Atom]:
    if not atoms or atoms[0] != ("~", False, True):
        return atoms
    end = 1
    while end < len(atoms):
        atom = atoms[end]
        if not isinstance(atom, tuple) or atom[1] or atom[0] == "/":
            break
        end += 1
    stop = atoms[end] if end < len(atoms) else None
    if stop is not None and not (isinstance(stop, tuple) and stop[0] == "/"):
        return atoms
    user = "".join(a[0] for a in atoms[1:end] if isinstance(a, tuple))
    if user == "":
        home = env.get("HOME")
        if home is None:
            return atoms
        text = home.text
    elif user in ("+", "-"):
        # `~-` is $OLDPWD: unknown unless the line set it, and then only as well as that is known.
        name = "PWD" if user == "+" else "OLDPWD"
        known = env.get(name)
        if known is None:
            return [Param(name, "~" + user, False, True), *atoms[end:]]
        text = known.text
    elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9._-]*", user):
        text = _user_home(user)
    else:
        return atoms
    replaced: list[_Atom] = [(char, False, False) for char in text]
    return replaced + atoms[end:]


def _user_home(user: str) -> str:
    try:
        return pwd.getpwnam(user).pw_dir
    except KeyError:
        return f"/home/{user}"


def _braces(atoms: list[_Atom], budget: int = MAX_ARGS_PER_WORD) -> list[list[_Atom]]:
    """Bash brace expansion over unquoted `{a,b}` and `{1..3}`; the atoms themselves if none."""
    for start, atom in enumerate(atoms):
        if atom != ("{", False, True):
            continue
        depth, commas, end = 0, [], -1
        for index in range(start, len(atoms)):
            current = atoms[index]
            if current == ("{", False, True):
                depth += 1
            elif current == ("}", False, True):
                depth -= 1
                if depth == 0:
                    end = index
                    break
            elif current == (",", False, True) and depth == 1:
                commas.append(index)
        if end < 0:
            continue
        if commas:
            bounds = [start, *commas, end]
            choices = [atoms[bounds[i] + 1 : bounds[i + 1]] for i in range(len(bounds) - 1)]
        else:
            items = _sequence(atoms[start + 1 : end])
            if items is None:
                continue
            choices = [[(char, False, True) for char in item] for item in items]
        results: list[list[_Atom]] = []
        for choice in choices:
            tick(BRACE)
            results.extend(_braces(atoms[:start] + list(choice) + atoms[end + 1 :], budget))
            if len(results) >= budget:
                return results[:budget]
        return results
    return [atoms]


def _sequence(atoms: list[_Atom]) -> list[str] | None:
    if not all(isinstance(a, tuple) and not a[1] for a in atoms):
        return None
    inner = "".join(a[0] for a in atoms if isinstance(a, tuple))
    numbers = re.fullmatch(r"(-?\d{1,6})\.\.(-?\d{1,6})(?:\.\.(-?\d{1,6}))?", inner)
    if numbers:
        first, last = int(numbers.group(1)), int(numbers.group(2))
        step = abs(int(numbers.group(3) or 1)) or 1
        step = step if last >= first else -step
        return [
            str(n)
            for n in itertools.islice(range(first, last + (1 if step > 0 else -1), step), MAX_ARGS_PER_WORD)
        ]
    letters = re.fullmatch(r"([A-Za-z])\.\.([A-Za-z])", inner)
    if letters:
        first, last = ord(letters.group(1)), ord(letters.group(2))
        step = 1 if last >= first else -1
        return [chr(n) for n in range(first, last + step, step)]
    return None


def _fields(atoms: list[_Atom], env: Env, cwd: Path | None) -> list[_Field]:
    fields: list[_Field] = []
    current = _Field()
    for atom in atoms:
        if isinstance(atom, tuple):
            current.add(atom[0], atom[2])
            continue
        value = _part_value(atom, env, cwd)
        if value is None:
            current.known = current.exact = False
            current.started = True
            continue
        current.exact = current.exact and value.exact
        if isinstance(atom, Param) and atom.name == "@":
            pieces = value.text.split(POSITIONAL_SEPARATOR)
        elif atom.quoted:
            current.add(value.text, False)
            continue
        else:
            pieces = _split(value.text, env)
        for index, piece in enumerate(pieces):
            if index > 0:
                if current.started:
                    fields.append(current)
                current = _Field(exact=current.exact, known=current.known)
            if piece:
                current.add(piece, True)
    if current.started:
        fields.append(current)
    return fields


def _split(text: str, env: Env) -> list[str]:
    """Word splitting by IFS: pieces, where an empty first/last piece marks a leading/trailing break."""
    ifs = env.get("IFS")
    separators = ifs.text if ifs is not None else DEFAULT_IFS
    if not separators:
        return [text]
    return re.split("[" + re.escape(separators) + "]+", text)


def _part_value(part: WordPart, env: Env, cwd: Path | None) -> Value | None:
    if isinstance(part, Param):
        return env.get(part.name) if part.plain else None
    if isinstance(part, Subst) and part.kind == "command":
        output = script_output(part.script, env, cwd)
        return Value(output.rstrip("\n"), False) if output is not None else None
    if isinstance(part, Arith):
        digits = re.fullmatch(r"\$?\(\(\s*(\d+)\s*\)\)", part.source)
        return Value(digits.group(1), True) if digits else None
    return None


def _glob(item: _Field, raw: str, dynamic: bool, quoted: bool, cwd: Path | None) -> list[Arg]:
    text = "".join(item.chars)
    if not _is_glob(item):
        return [Arg(text, raw, item.exact, item.known, dynamic, quoted)]
    pattern = "".join(
        char if may else glob.escape(char) for char, may in zip(item.chars, item.globbable, strict=True)
    )
    matches: list[str] | None = []
    if item.known and (cwd is not None or os.path.isabs(pattern)):
        matches = _bounded_glob(pattern, str(cwd) if cwd is not None else "/")
    if matches is None:
        # Too many to check one by one: the word is as good as unknown.
        return [Arg(text, raw, False, False, True, quoted, glob=text)]
    if not matches:
        return [Arg(text, raw, item.exact, item.known, dynamic, quoted, glob=text)]
    return [Arg(match, raw, item.exact, item.known, True, quoted, glob=text) for match in matches]


def _bounded_glob(pattern: str, root: str) -> list[str] | None:
    """What bash's globbing would match, like `glob.glob`, or None when finding out would look at
    more than MAX_GLOB_SCAN folder entries or match more than MAX_GLOB_MATCHES files."""
    absolute = pattern.startswith("/")
    pieces = [piece for piece in pattern.split("/") if piece]
    found = ["/" if absolute else ""]
    scanned = 0
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        following: list[str] = []
        for base in found:
            tick(FOLDER)
            folder = os.path.join(root, base) if base else root
            if not glob.has_magic(piece):
                candidate = os.path.join(base, piece)
                full = os.path.join(root, candidate)
                if os.path.lexists(full) and (last or os.path.isdir(full)):
                    following.append(candidate)
                continue
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        scanned += 1
                        if scanned > MAX_GLOB_SCAN:
                            return None
                        if entry.name.startswith(".") and not piece.startswith("."):
                            continue
                        if fnmatch.fnmatchcase(entry.name, piece) and (last or entry.is_dir()):
                            following.append(os.path.join(base, entry.name))
            except OSError:
                continue
        found = following
        if len(found) > MAX_GLOB_MATCHES:
            return None
    return sorted(found) if pieces else []


def _is_glob(item: _Field) -> bool:
    """An unquoted `*` or `?`, or a `[` closed by a later `]`, makes a word a pattern."""
    for index, (char, may) in enumerate(zip(item.chars, item.globbable, strict=True)):
        if may and char in "*?":
            return True
        if may and char == "[" and "]" in item.chars[index + 2 :]:
            return True
    return False


def script_output(script: Script, env: Env, cwd: Path | None) -> str | None:
    """What a command substitution prints, when it is a literal `echo`/`printf`/`pwd`, possibly
    piped through `base64 -d`, `rev` or `xxd -r -p`; None for anything else."""
    if script.problems or not script.commands:
        return None
    commands = script.commands
    if any(c.pipe_in for c in commands[:1]) or not all(c.pipe_out for c in commands[:-1]):
        return None
    return pipeline_output(commands, env, cwd, None)


def pipeline_output(
    commands: Sequence[SimpleCommand], env: Env, cwd: Path | None, stdin: str | None
) -> str | None:
    text = stdin
    for command in commands:
        if command.assignments or command.keyword or not command.words:
            return None
        for redirect in command.redirects:
            if redirect.heredoc is not None and (redirect.heredoc.quoted or "$" not in redirect.heredoc.body):
                text = redirect.heredoc.body
            elif redirect.op == "<<<" and redirect.target is not None:
                value = expand_value(redirect.target, env, cwd)
                if not value.known:
                    return None
                text = value.text + "\n"
            elif not (
                redirect.op in (">&", "<&")
                and redirect.target is not None
                and redirect.target.literal in ("1", "2")
            ):
                return None
        args = expand_words(command.words, env, cwd)
        if not args or not all(arg.known for arg in args):
            return None
        text = _filter(os.path.basename(args[0].text), [a.text for a in args[1:]], text, cwd)
        if text is None or len(text) > MAX_OUTPUT:
            return None
    return text


def _filter(program: str, args: list[str], stdin: str | None, cwd: Path | None) -> str | None:
    if program == "echo":
        newline = "\n"
        interpret = False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            newline = "" if "n" in args[0] else newline
            interpret = "e" in args[0] or interpret
            args = args[1:]
        joined = " ".join(args)
        return (decode_escapes(joined, ansi=False) if interpret else joined) + newline
    if program == "printf":
        return _printf(args)
    if program == "pwd":
        return f"{cwd}\n" if cwd is not None else None
    if stdin is None:
        return None
    if program == "cat" and not args:
        return stdin
    if program in ("base64", "base32") and args and set(args) <= {"-d", "--decode", "-D", "-i", "-di", "-id"}:
        try:
            raw = (
                base64.b64decode(stdin.encode(), validate=False)
                if program == "base64"
                else base64.b32decode("".join(stdin.split()).encode())
            )
            return raw.decode("utf-8")
        except (binascii.Error, ValueError):
            return None
    if program == "rev" and not args:
        return "\n".join(line[::-1] for line in stdin.split("\n"))
    if program == "xxd" and sorted(args) in (["-p", "-r"], ["-r", "-p"], ["-rp"], ["-pr"]):
        try:
            return bytes.fromhex("".join(stdin.split())).decode("utf-8")
        except ValueError:
            return None
    return None


def _printf(args: list[str]) -> str | None:
    if not args:
        return None
    fmt, values = decode_escapes(args[0], ansi=False), args[1:]
    if re.search(r"%[^s%]", fmt):
        return None
    slots = fmt.count("%s")
    if slots == 0:
        return fmt.replace("%%", "%")
    out: list[str] = []
    while True:
        chunk, values = values[:slots], values[slots:]
        chunk += [""] * (slots - len(chunk))
        out.append(fmt.replace("%%", "\x00").replace("%s", "{}").format(*chunk).replace("\x00", "%"))
        if not values:
            return "".join(out)
