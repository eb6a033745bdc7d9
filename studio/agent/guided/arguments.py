"""The arguments of a guided run: a script's usage line (`SCHEMA DOCUMENT [DOCUMENT ...]`) filled
with words of the user's message, each placeholder with the words that fit it.

A tiny model given every permutation of the user's words swaps two files as readily as not, so a
placeholder takes, when some words fit it better than the rest, only those: a word naming it
(`service-config.schema.json` for SCHEMA, `sample-git-log.txt` for LOG) fits best, then a word of
the placeholder's kind (a path for FILE, a number for VALUE or N, a date for DATE, a version for
VERSION). An optional part (`[--release VERSION]`) is filled only when the message has a word of
its kind; an optional flag alone (`[--with-hashes]`) is left out: nothing in a message asks for it.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*[A-Z]\Z|[A-Z]\Z|[A-Z]{2,}(?:[:/-][A-Z]{2,})+\Z")
"""A word standing for a value: `VALUE`, `FROM_DATE`, `N`, or a format such as `HH:MM`."""
_FIGURED = re.compile(r"[A-Z][A-Z0-9_]*\d[A-Z0-9_]*\Z")
_CLOSING = re.compile(r"""["']\s*\)+\s*[;,]?\s*$""")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_REDIRECT = "<"
"""Standard input from a file (`script.py < FILE`): kept as written, the file after it filled."""
_BRACED = re.compile(r"\{([\w.+-]+(?:,[\w.+-]+)+)\}\Z")
"""Values listed in place in a usage line, as argparse writes them: `{encode,decode}`."""
_ATTACHED = re.compile(r"(--?[A-Za-z][\w-]*)=([A-Z][A-Z0-9_]*)\Z")
_OPTION = re.compile(r"--?[A-Za-z][\w-]*(=[A-Z][A-Z0-9_]*)?\Z")
_ELLIPSIS = re.compile(r"(?P<head>.+?)(?:\.\.\.|\u2026)(?P<tail>\]*)\Z")
"""A word that says the one before it repeats: `FILE...`, `[N]...`, `[N...]`."""
_REPEAT = ("...", "\u2026")
_USAGE = re.compile(r"^[\s#*/'\"]*(?:(?:sys\.exit|print|echo|die|printf)\(?\s*f?[\"'])?"
                    r"usage:\s*(?P<line>\S.*)$", re.IGNORECASE | re.MULTILINE)
"""A usage line in a script's head, or in the message it exits with (`sys.exit("usage: ...")`)."""
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\Z|\d+/\d+\Z")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_VERSION = re.compile(r"v?\d+(\.\d+){1,3}([-+][\w.]+)?\Z")
_SUFFIX = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}\Z")
_PARTS = re.compile(r"[a-z0-9]+")
_HEAD_CHARS = 4000
"""How much of a script is read for a usage line: its leading docstring or comment."""

_PATH_NAMES = frozenset({
    "file", "files", "path", "paths", "document", "documents", "doc", "docs", "log", "schema",
    "input", "output", "dir", "directory", "folder", "src", "dest", "config", "csv", "json", "md",
    "markdown", "txt", "text", "yaml", "yml", "xml", "html", "toml", "table",
})
_NUMBER_NAMES = frozenset({
    "value", "n", "num", "number", "count", "amount", "quantity", "limit", "size", "digits",
    "level", "top", "max", "min", "seconds", "lines", "words", "width", "height",
})
_DATE_NAMES = frozenset({"date", "day", "since", "until"})
_VERSION_NAMES = frozenset({"version", "release", "tag"})
_URL_NAMES = frozenset({"url", "uri", "link"})
_JSON_NAMES = frozenset({"json"})
_PRODUCT_FACTOR = 50
"""How many assignments may be tried per command kept: most repeat a word and are dropped."""
_NAMED = 2
"""A word naming the placeholder fits it better than a word merely of its kind (1)."""


_KEY = re.compile(r'\s*"(?P<key>[^"\\]{1,40})"\s*:\s*(?P<open>\[?)(?P<quote>"?)(?P<name>[A-Z][A-Z0-9_]*)'
                  r'(?P=quote)(?P<close>\]?)\s*\Z')
_MAX_KEYS = 12


@dataclass(frozen=True, slots=True)
class Key:
    """A key of a JSON object argument and the placeholder its value stands for: a number
    (`"price": PRICE`) or a string (`"name": "NAME"`), left out when blank if `optional`
    (`"grams": [GRAMS]`)."""

    key: str
    placeholder: str
    number: bool
    optional: bool


def object_keys(word: str) -> tuple[Key, ...] | None:
    """The keys of a usage line's word that is a JSON object with placeholders for its values
    (`{"price": PRICE, "grams": [GRAMS]}`); None for any other word."""
    if not (word.startswith("{") and word.endswith("}")):
        return None
    keys: list[Key] = []
    for part in word[1:-1].split(","):
        match = _KEY.match(part)
        if match is None or not PLACEHOLDER.match(match.group("name")) or \
                bool(match.group("open")) != bool(match.group("close")):
            return None
        keys.append(Key(match.group("key"), match.group("name"), not match.group("quote"),
                        bool(match.group("open"))))
    names = [key.placeholder for key in keys]
    return tuple(keys) if 0 < len(keys) <= _MAX_KEYS and len(set(names)) == len(names) else None


@dataclass(frozen=True, slots=True)
class Usage:
    """A usage line after the script: `required` words (placeholders and options, in order) and
    the optional groups (`[--release VERSION]`) that may follow them."""

    required: tuple[str, ...]
    optional: tuple[tuple[str, ...], ...] = ()
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The values a usage line lists in place (`{upper,lower,title}`), by the placeholder named
    for them (`CHOICE`)."""
    repeated: tuple[str, ...] = ()
    """The placeholders that take one value or more (`N [N ...]`, `FILE...`, `[N]...`), each
    value its own argument."""
    objects: tuple[tuple[str, tuple[Key, ...]], ...] = ()
    """The words of `required` that are a JSON object argument, with its keys."""

    @property
    def placeholders(self) -> list[str]:
        objects = dict(self.objects)
        found: list[str] = []
        for word in (*self.required, *(w for group in self.optional for w in group)):
            names = [key.placeholder for key in objects[word]] if word in objects else \
                [word] if PLACEHOLDER.match(word) else []
            found += [name for name in names if name not in found]
        return found

    @property
    def numbers(self) -> frozenset[str]:
        """The placeholders of a JSON object's keys that take numbers."""
        return frozenset(key.placeholder for _, keys in self.objects for key in keys if key.number)

    @property
    def leavable(self) -> frozenset[str]:
        """The placeholders of a JSON object's keys that may be left out."""
        return frozenset(key.placeholder for _, keys in self.objects for key in keys if key.optional)


_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_MONEY = re.compile(r"[$€£¥](?P<figure>\d[\d.,]*)|(?P<share>-?\d[\d.,]*)%")


def bare(word: str) -> str:
    """A figure without the currency sign or the percent sign written on it (`$84.50`: 84.50,
    `18%`: 18) or its thousands separators (`52,000`: 52000): a script takes the number."""
    match = _MONEY.fullmatch(word)
    figure = (match.group("figure") or match.group("share")) if match else word
    return figure.replace(",", "") if _THOUSANDS.fullmatch(figure) else figure


def split(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def parse_usage(command: str, start: str) -> Usage | None:
    """The usage of the script `start` runs, when `command` (from its last `|` on) is a usage
    line of it: `start` followed by placeholders and options, at least one placeholder among
    the required words. An example (`convert.py 1.5 GiB MB`) is not one."""
    segment = command.rsplit("|", 1)[-1].strip()
    if not segment.startswith(start + " "):
        return None
    required: list[str] = []
    optional: list[tuple[str, ...]] = []
    group: list[str] | None = None
    opened = closed = 0
    words: list[str] = []
    choices: list[tuple[str, tuple[str, ...]]] = []
    objects: dict[str, tuple[Key, ...]] = {}
    for word in split(segment[len(start):]):
        if (keys := object_keys(word)) is not None:
            objects[word] = keys
            words.append(word)
            continue
        # `--width=N` is `--width N` to the script (argparse takes both): N is filled alone.
        attached = _ATTACHED.match(word)
        braced = _BRACED.match(word)
        dots = _ELLIPSIS.match(word)
        if braced:
            name = "CHOICE" if not choices else f"CHOICE_{_LETTERS[len(choices)]}"
            choices.append((name, tuple(braced.group(1).split(","))))
            words.append(name)
        elif dots and word not in _REPEAT:
            words += [dots.group("head"), "..." + dots.group("tail")]
        else:
            words += [attached.group(1), attached.group(2)] if attached else [word]
        if len(words) > 1 and _OPTION.match(words[-2].strip("[]")) and _FIGURED.match(words[-1].strip("[]")):
            # After an option, capitals with figures name its value (`--consumption L100`).
            words[-1] = words[-1].replace(words[-1].strip("[]"), words[-1].strip("[]") + "_VALUE")
    repeated: list[str] = []
    for word in words:
        if group is not None or word.startswith("["):
            group = [] if group is None else group
            opened, closed = opened + word.count("["), closed + word.count("]")
            inner = word.strip("[]")
            if inner:
                group.append(inner)
            if closed >= opened:
                if opened == 1 and len(group) == 2 and group[1] in _REPEAT and PLACEHOLDER.match(group[0]):
                    # `N [N ...]`: N repeats; `[FILE ...]` alone: none or more files.
                    repeated.append(group[0])
                    if group[0] not in required:
                        optional.append((group[0],))
                # A nested group is not filled.
                elif opened == 1 and group and all(PLACEHOLDER.match(w) or _OPTION.match(w)
                                                   for w in group):
                    optional.append(tuple(group))
                group, opened, closed = None, 0, 0
            continue
        if word in _REPEAT:
            # `FILE ...`, `[N]...`: the placeholder just before repeats.
            last = optional[-1] if optional else required
            if last and PLACEHOLDER.match(last[-1]):
                repeated.append(last[-1])
            continue
        # An operand after the optional groups (`[--mode MODE] TEXT`) is still required.
        if not (PLACEHOLDER.match(word) or _OPTION.match(word) or word == _REDIRECT or word in objects):
            break
        required.append(word)
    # A line of options alone is no usage line; one whose only value repeats (`[N]...`) is.
    if not any(PLACEHOLDER.match(word) or word in objects for word in required) and not repeated:
        return None
    # `--from UNIT --to UNIT`: two values of one kind; each its own placeholder (UNIT, UNIT_B).
    seen: dict[str, int] = {}

    def distinct(word: str) -> str:
        if not PLACEHOLDER.match(word):
            return word
        seen[word] = seen.get(word, 0) + 1
        return word if seen[word] == 1 else f"{word}_{_LETTERS[seen[word] - 1]}"
    return Usage(tuple(map(distinct, required)),
                 tuple(tuple(map(distinct, group)) for group in optional), tuple(choices),
                 tuple(dict.fromkeys(repeated)),
                 tuple((word, keys) for word, keys in objects.items() if word in required))


def script_usage(text: str, script: str, start: str) -> str | None:
    """The usage line a script's own leading docstring or comment gives (`usage: convert.py VALUE
    FROM TO`), as a command that starts as `start`; None when its head has none. The script is
    read, never run."""
    for match in _USAGE.finditer(text[:_HEAD_CHARS]):
        # The message's own closing quote and bracket (`sys.exit("usage: x.py TEXT")`) are not
        # the usage line's.
        line = _CLOSING.sub("", match.group("line").rstrip().removesuffix("*/"))
        words = split(line.rstrip("\"' "))
        name = PurePosixPath(script).name
        at = next((i for i, word in enumerate(words) if PurePosixPath(word).name == name
                   or word in ("%(prog)s", "$0")), None)
        if at is None or at > 1:
            continue
        # What follows the usage in the same message ("e.g. total.py 1h20m") is no part of it.
        rest = list(itertools.takewhile(_in_usage, words[at + 1:]))
        return " ".join([start, *rest])
    return None


def _in_usage(word: str) -> bool:
    """Whether a word after the script's name is of its usage line: a placeholder, an option, a
    bracket, a list of values; not prose."""
    inner = word.strip("[]().")
    return not re.search(r"[a-z]", inner) or inner.startswith("-") or _BRACED.match(inner) is not None \
        or inner in ("%(prog)s", "$0")


def affinity(placeholder: str, word: str) -> int:
    """How well `word` fits `placeholder`: `_NAMED` plus its kind's point when the word names it
    (a part of a longer word: `schema` in `a.schema.json`, not the word `schema` itself), 1 when
    it is of the placeholder's kind (for a format, `HH:MM`, when it matches it), else 0."""
    format_ = _format_of(placeholder)
    if format_ is not None:
        return 1 if format_.match(word) else 0
    names = set(placeholder.lower().split("_"))
    parts = _PARTS.findall(word.lower())
    score = _NAMED if len(parts) > 1 and names & set(parts) else 0
    if _of_kind(names, word):
        score += 1
    return score


def is_json(word: str) -> bool:
    """Whether `word` is a JSON list or object (`[{"qty": 1}]`)."""
    if not word.startswith(("[", "{")):
        return False
    try:
        return isinstance(json.loads(word), list | dict)
    except ValueError:
        return False


def json_values(request: str) -> list[str]:
    """The JSON lists and objects the message writes (`[{"price": 3}, {"price": 4.5}]`), as
    written: each is one argument."""
    decoder = json.JSONDecoder()
    found: list[str] = []
    at = 0
    while (start := min((i for i in (request.find("[", at), request.find("{", at)) if i >= 0),
                        default=-1)) >= 0:
        try:
            value, end = decoder.raw_decode(request, start)
        except ValueError:
            at = start + 1
            continue
        if isinstance(value, list | dict):
            found.append(request[start:end])
        at = end
    return found


def _format_of(placeholder: str) -> re.Pattern[str] | None:
    """What a placeholder written as a date or time format (`HH:MM`, `YYYY-MM-DD`) matches: a
    digit for each letter, its separators as written; None for any other placeholder."""
    if not re.fullmatch(r"[YMDHS]{1,4}(?:[:/.-][YMDHS]{1,4})+", placeholder):
        return None
    parts = re.split(r"([:/.-])", placeholder)
    return re.compile("".join(re.escape(part) if i % 2 else rf"\d{{1,{len(part)}}}"
                              for i, part in enumerate(parts)) + r"\Z")


def _of_kind(names: set[str], word: str) -> bool:
    if names & _JSON_NAMES and is_json(word):
        return True
    if names & _NUMBER_NAMES and _NUMBER.match(word):
        return True
    if names & _DATE_NAMES and _DATE.match(word):
        return True
    if names & _VERSION_NAMES and _VERSION.match(word):
        return True
    if names & _URL_NAMES:
        return word.startswith(("http://", "https://"))
    if names & _PATH_NAMES:
        is_url = "://" in word
        return not is_url and not _NUMBER.match(word) and ("/" in word or bool(_SUFFIX.search(word)))
    return False


def fill(usage: Usage, words: Sequence[str], limit: int) -> list[str] | None:
    """The argument strings that fill `usage` with distinct `words` (each placeholder with the
    words that fit it best, all of them when none fits), the optional groups whose placeholders
    some word fits; None when there would be more than `limit` of them or none (and for a JSON
    object argument, which words do not make)."""
    if usage.objects:
        return None
    groups = [group for group in usage.optional
              if any(PLACEHOLDER.match(w) for w in group)
              and all(any(affinity(w, word) for word in words) for w in group if PLACEHOLDER.match(w))]
    template = [*usage.required, *(w for group in groups for w in group)]
    slots = [w for w in dict.fromkeys(template) if PLACEHOLDER.match(w)]
    best = [max((affinity(slot, word) for word in words), default=0) for slot in slots]
    fitting = [[word for word in words if affinity(slot, word) == top]
               for slot, top in zip(slots, best, strict=True)]
    # Two placeholders may fit only the same word: then any distinct words will do.
    for choices in (fitting, [list(words)] * len(slots)):
        if math.prod(len(c) for c in choices) > _PRODUCT_FACTOR * limit:
            return None
        filled = [" ".join(dict(zip(slots, values, strict=True)).get(w, w) for w in template)
                  for values in itertools.product(*choices) if len(set(values)) == len(values)]
        if len(filled) > limit:
            return None
        if filled:
            return filled
    return None
