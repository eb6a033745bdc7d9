"""The eval files of a skill, in Anthropic's skill-creator shapes.

`evals/evals.json`: `{"skill_name", "evals": [{"id", "prompt", "expected_output", "files",
"expectations"}]}` (`assertions`, the agentskills.io guide's name, is read the same way),
where an expectation is a sentence for a model to grade or one structured
check (`{"contains": TEXT}`, `{"regex": ...}`, `{"activated": ...}`, `{"ran": ...}`,
`{"read": ...}`, `{"exit_code": N}`). `evals/triggers.json`: `[{"query", "should_trigger"}]`, or
skill-creator's other shape `{"evals": [{"prompt" | "query", "should_trigger"}]}`.

Every problem is an `EvalFileError` naming the file and where in it: a line and column for
JSON that does not parse, a JSON path (`evals[2].prompt`) for a value of the wrong shape.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from studio.errors import StudioError

EVALS_FILE = PurePosixPath("evals/evals.json")
TRIGGERS_FILE = PurePosixPath("evals/triggers.json")
# Eval files are written by hand; one this big is a mistake or an attack on the parser.
MAX_FILE_BYTES = 2_000_000
CHECK_KINDS = ("contains", "regex", "activated", "ran", "read", "exit_code")
# `re` has no timeout: a short pattern over a bounded text keeps a backtracking pattern from
# hanging the run (see checks.py for the text's bound).
MAX_PATTERN = 200


class EvalFileError(StudioError):
    """What is wrong with an eval file, and where."""

    def __init__(self, file: str, message: str, *, where: str = "", line: int = 1,
                 column: int = 1) -> None:
        self.file = file
        self.where = where
        self.line = line
        self.column = column
        self.detail = message
        place = f"{file}:{line}:{column}" if not where else f"{file} at {where}"
        super().__init__(f"{place}: {message}")


@dataclass(frozen=True, slots=True)
class Expectation:
    """A sentence for the grader (`kind` "model") or one structured check."""

    kind: str
    value: str | int

    @property
    def text(self) -> str:
        return str(self.value) if self.kind == "model" else f"{self.kind}: {self.value}"

    def to_json(self) -> str | dict[str, str | int]:
        return str(self.value) if self.kind == "model" else {self.kind: self.value}


@dataclass(frozen=True, slots=True)
class EvalCase:
    id: str
    prompt: str
    expected_output: str
    files: tuple[str, ...]
    expectations: tuple[Expectation, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "prompt": self.prompt, "expected_output": self.expected_output,
                "files": list(self.files), "expectations": [e.to_json() for e in self.expectations]}


@dataclass(frozen=True, slots=True)
class EvalSet:
    skill_name: str | None
    evals: tuple[EvalCase, ...]


@dataclass(frozen=True, slots=True)
class TriggerQuery:
    query: str
    should_trigger: bool


def load_json(path: Path, label: str) -> Any:
    """The decoded JSON of an eval file; EvalFileError says what is wrong and where."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise EvalFileError(label, f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise EvalFileError(label, f"is larger than {MAX_FILE_BYTES // 1_000_000} MB; split it")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EvalFileError(label, f"is not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvalFileError(label, f"is not valid JSON: {exc.msg}", line=exc.lineno,
                            column=exc.colno) from None
    except RecursionError:
        raise EvalFileError(label, "is nested too deeply to read") from None


def _text(value: Any, label: str, where: str, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise EvalFileError(label, f"must be a string, not {_kind(value)}", where=where)
    if not empty and not value.strip():
        raise EvalFileError(label, "must not be empty", where=where)
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _expectation(value: Any, label: str, where: str) -> Expectation:
    if isinstance(value, str):
        return Expectation("model", _text(value, label, where))
    if not isinstance(value, dict) or len(value) != 1:
        raise EvalFileError(label, "must be a sentence or an object with one of "
                            + ", ".join(CHECK_KINDS), where=where)
    [(kind, argument)] = value.items()
    if kind not in CHECK_KINDS:
        raise EvalFileError(label, f"unknown check {kind!r}; use one of " + ", ".join(CHECK_KINDS),
                            where=where)
    inner = f"{where}.{kind}"
    if kind == "exit_code":
        if not isinstance(argument, int) or isinstance(argument, bool):
            raise EvalFileError(label, f"must be a whole number, not {_kind(argument)}", where=inner)
        return Expectation(kind, argument)
    text = _text(argument, label, inner)
    if kind == "regex":
        if len(text) > MAX_PATTERN:
            raise EvalFileError(label, f"the pattern is longer than {MAX_PATTERN} characters",
                                where=inner)
        try:
            re.compile(text)
        except re.error as exc:
            raise EvalFileError(label, f"is not a valid regular expression: {exc}",
                                where=inner) from None
    return Expectation(kind, text)


def _file_entry(value: Any, label: str, where: str) -> str:
    text = _text(value, label, where)
    path = PurePosixPath(text.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        raise EvalFileError(label, f"{text!r} must be a path inside the skill's folder", where=where)
    return path.as_posix()


def parse_evals(data: Any, label: str = str(EVALS_FILE)) -> EvalSet:
    """An eval set from the decoded JSON of an evals.json."""
    if isinstance(data, list):
        data = {"evals": data}
    if not isinstance(data, dict):
        raise EvalFileError(label, f"must hold an object with an `evals` list, not {_kind(data)}")
    skill_name = data.get("skill_name")
    if skill_name is not None:
        skill_name = _text(skill_name, label, "skill_name")
    items = data.get("evals")
    if not isinstance(items, list):
        raise EvalFileError(label, "needs an `evals` list" if items is None
                            else f"must be a list, not {_kind(items)}", where="evals")
    cases: list[EvalCase] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        where = f"evals[{index}]"
        if not isinstance(item, dict):
            raise EvalFileError(label, f"must be an object, not {_kind(item)}", where=where)
        raw_id = item.get("id", index + 1)
        if not isinstance(raw_id, int | str) or isinstance(raw_id, bool):
            raise EvalFileError(label, f"must be a number or a string, not {_kind(raw_id)}",
                                where=f"{where}.id")
        case_id = str(raw_id)
        if case_id in seen:
            raise EvalFileError(label, f"id {case_id} is used twice", where=f"{where}.id")
        seen.add(case_id)
        prompt = _text(item.get("prompt"), label, f"{where}.prompt")
        expected = item.get("expected_output", "")
        expected = _text(expected, label, f"{where}.expected_output", empty=True)
        files = _list(item.get("files", []), label, f"{where}.files")
        key = _expectations_key(item, label, where)
        expectations = _list(item.get(key, []), label, f"{where}.{key}")
        cases.append(EvalCase(
            case_id, prompt, expected,
            tuple(_file_entry(f, label, f"{where}.files[{n}]") for n, f in enumerate(files)),
            tuple(_expectation(e, label, f"{where}.{key}[{n}]")
                  for n, e in enumerate(expectations)),
        ))
    return EvalSet(skill_name, tuple(cases))


def _expectations_key(item: dict[str, Any], label: str, where: str) -> str:
    """`expectations` (skill-creator) or `assertions` (the agentskills.io guide,
    docs/skill-creation/evaluating-skills.mdx): the same list under two names. Both in one eval
    is refused, since grading on one would silently drop the other."""
    if "expectations" in item and "assertions" in item:
        raise EvalFileError(label, "has both `expectations` and `assertions`; keep one list",
                            where=where)
    return "assertions" if "assertions" in item else "expectations"


def _list(value: Any, label: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise EvalFileError(label, f"must be a list, not {_kind(value)}", where=where)
    return value


def parse_triggers(data: Any, label: str = str(TRIGGERS_FILE)) -> tuple[TriggerQuery, ...]:
    """Trigger queries from the decoded JSON of a triggers.json, in either of skill-creator's
    shapes."""
    prefix = ""
    if isinstance(data, dict) and "evals" in data:
        data, prefix = data["evals"], "evals"
    if not isinstance(data, list):
        raise EvalFileError(label, "must hold a list of {\"query\", \"should_trigger\"} objects, "
                            f"not {_kind(data)}", where=prefix)
    queries = []
    for index, item in enumerate(data):
        where = f"{prefix}[{index}]"
        if not isinstance(item, dict):
            raise EvalFileError(label, f"must be an object, not {_kind(item)}", where=where)
        key = "query" if "query" in item else "prompt"
        query = _text(item.get(key), label, f"{where}.{key}")
        should = item.get("should_trigger")
        if not isinstance(should, bool):
            raise EvalFileError(label, f"must be true or false, not {_kind(should)}",
                                where=f"{where}.should_trigger")
        queries.append(TriggerQuery(query, should))
    return tuple(queries)


def read_evals(skill_dir: Path) -> EvalSet | None:
    """The skill's evals.json, or None when it has none."""
    path = skill_dir / EVALS_FILE
    if not path.exists():
        return None
    return parse_evals(load_json(path, str(EVALS_FILE)))


def read_triggers(skill_dir: Path) -> tuple[TriggerQuery, ...] | None:
    """The skill's triggers.json, or None when it has none."""
    path = skill_dir / TRIGGERS_FILE
    if not path.exists():
        return None
    return parse_triggers(load_json(path, str(TRIGGERS_FILE)))
