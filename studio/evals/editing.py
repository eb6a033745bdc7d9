"""The eval files as the window edits them: the decoded JSON itself, so keys the studio does not
know (skill-creator's own, or the author's) and the file's shape survive every edit.

An outcome eval is edited in four columns (id, prompt, expected output, expectations); its
expectations as lines of text, one each: a sentence for the grader, or `kind: value` for a
structured check (`contains: hello`, `exit_code: 0`). A trigger query in two (query, should
trigger). Each edit changes only the key it is about.
"""

from __future__ import annotations

import copy
import json
import re
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from studio.fsutil import atomic_write_bytes
from studio.skills.checks import evalfiles

EVAL_COLUMNS = ("id", "prompt", "expected_output", "expectations")
TRIGGER_COLUMNS = ("query", "should_trigger")
_CHECK_LINE = re.compile(r"^(" + "|".join(evalfiles.CHECK_KINDS) + r"):\s?(.*)$")


def expectations_text(expectations: Any) -> str:
    """The expectations as the table shows them, one a line."""
    if not isinstance(expectations, list):
        return json.dumps(expectations, ensure_ascii=False)
    lines = []
    for item in expectations:
        if isinstance(item, dict) and len(item) == 1:
            [(kind, value)] = item.items()
            if kind in evalfiles.CHECK_KINDS and isinstance(value, str | int) and "\n" not in str(value):
                lines.append(f"{kind}: {value}")
                continue
        lines.append(item.replace("\n", " ") if isinstance(item, str)
                     else json.dumps(item, ensure_ascii=False))
    return "\n".join(lines)


def parse_expectations_text(text: str) -> list[Any]:
    """The expectations the lines of `text` stand for; a line that looks like a check but has a
    value of the wrong kind is kept as typed, for validation to point at."""
    found: list[Any] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        match = _CHECK_LINE.match(line)
        if match is not None:
            kind, value = match.group(1), match.group(2).strip()
            if kind == "exit_code":
                try:
                    found.append({kind: int(value)})
                except ValueError:
                    found.append({kind: value})
            else:
                found.append({kind: value})
            continue
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
                continue
            except ValueError:
                pass
        found.append(line)
    return found


class EditableFile(ABC):
    """One eval file's decoded JSON, its rows, and writing it back.

    Attributes:
        path: the file.
        data: the decoded JSON (the whole file, unknown keys and all).
        problem: why the file could not be read for editing (then it is never written).
    """

    relative: Path = Path()

    def __init__(self, skill_dir: Path) -> None:
        self.path = skill_dir / self.relative
        self.data: Any = self.empty()
        self.problem = ""
        self.disk_text: str | None = None

    @abstractmethod
    def empty(self) -> Any:
        """The data of a file that does not exist yet."""

    @abstractmethod
    def rows(self) -> list[Any]:
        """The list of the file's entries (within `data`, edited in place)."""

    def load(self) -> None:
        """Read the file (a missing one is empty); a file that is not JSON, or not a shape the
        table can show, is left alone and `problem` says why."""
        self.problem = ""
        if not self.path.exists():
            self.data, self.disk_text = self.empty(), None
            return
        try:
            data = evalfiles.load_json(self.path, str(self.relative))
        except evalfiles.EvalFileError as exc:
            self.problem = f"{exc}. Fix it in a text editor; the table shows it again then."
            self.data = self.empty()
            return
        self.data = data
        if not isinstance(self.rows_or_none(), list):
            self.problem = (f"{self.relative} is not in a shape the table can show "
                            "(see the Problems panel); fix it in a text editor.")
            self.data = self.empty()
            return
        self.disk_text = self._disk_text()

    def rows_or_none(self) -> list[Any] | None:
        try:
            rows = self.rows()
        except (KeyError, TypeError, AttributeError):
            return None
        return rows if isinstance(rows, list) else None

    def snapshot(self) -> Any:
        return copy.deepcopy(self.data)

    def restore(self, data: Any) -> None:
        self.data = copy.deepcopy(data)

    def text(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, indent=2) + "\n"

    def save(self) -> None:
        """Write the file whole (temp file and rename); OSError when it cannot be."""
        if self.problem:
            raise OSError(f"{self.relative} was not written: it could not be read")
        text = self.text()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, text.encode("utf-8"))
        self.disk_text = text

    def changed_on_disk(self) -> bool:
        """Whether another program changed the file since it was read or written here."""
        return self._disk_text() != self.disk_text

    def _disk_text(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            return f"unreadable: {exc}"

    def remove_row(self, row: int) -> None:
        del self.rows()[row]


class EvalsFile(EditableFile):
    """evals/evals.json: `{"skill_name", "evals": [...]}` (or a bare list, kept so)."""

    relative = Path(evalfiles.EVALS_FILE)

    def __init__(self, skill_dir: Path, skill_name: str = "") -> None:
        self.skill_name = skill_name
        super().__init__(skill_dir)

    def empty(self) -> Any:
        return {"skill_name": self.skill_name, "evals": []} if self.skill_name else {"evals": []}

    def rows(self) -> list[Any]:
        data = self.data
        rows: list[Any] = data if isinstance(data, list) else data["evals"]
        return rows

    def cell(self, row: int, column: str) -> str:
        item = self.rows()[row]
        if not isinstance(item, dict):
            return json.dumps(item, ensure_ascii=False) if column == "prompt" else ""
        value = item.get(_key(item, column), [] if column == "expectations" else "")
        if column == "expectations":
            return expectations_text(value)
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def set_cell(self, row: int, column: str, text: str) -> bool:
        """Set one column of one eval as typed; False when nothing changed."""
        item = self.rows()[row]
        if not isinstance(item, dict) or self.cell(row, column) == text:
            return False
        value: Any = text
        if column == "expectations":
            value = parse_expectations_text(text)
        elif column == "id":
            value = int(text) if text.strip().isdigit() else text
        item[_key(item, column)] = value
        return True

    def add_row(self, prompt: str = "") -> int:
        rows = self.rows()
        numbers = [int(str(item.get("id"))) for item in rows
                   if isinstance(item, dict) and str(item.get("id")).isdigit()]
        rows.append({"id": max(numbers, default=len(rows)) + 1, "prompt": prompt,
                     "expected_output": "", "files": [], "expectations": []})
        return len(rows) - 1


class TriggersFile(EditableFile):
    """evals/triggers.json: `[{"query", "should_trigger"}]` (or `{"evals": [...]}`, and `prompt`
    for `query`, kept so)."""

    relative = Path(evalfiles.TRIGGERS_FILE)

    def empty(self) -> Any:
        return []

    def rows(self) -> list[Any]:
        data = self.data
        rows: list[Any] = data["evals"] if isinstance(data, dict) else data
        return rows

    def _key(self, item: dict[str, Any]) -> str:
        return "prompt" if "query" not in item and "prompt" in item else "query"

    def query(self, row: int) -> str:
        item = self.rows()[row]
        if not isinstance(item, dict):
            return json.dumps(item, ensure_ascii=False)
        value = item.get(self._key(item), "")
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def should_trigger(self, row: int) -> bool:
        item = self.rows()[row]
        return isinstance(item, dict) and item.get("should_trigger") is True

    def set_query(self, row: int, text: str) -> bool:
        item = self.rows()[row]
        if not isinstance(item, dict) or self.query(row) == text:
            return False
        item[self._key(item)] = text
        return True

    def set_should_trigger(self, row: int, value: bool) -> bool:
        item = self.rows()[row]
        if not isinstance(item, dict) or item.get("should_trigger") is value:
            return False
        item["should_trigger"] = value
        return True

    def add_row(self, query: str = "", should_trigger: bool = True) -> int:
        rows = self.rows()
        rows.append({"query": query, "should_trigger": should_trigger})
        return len(rows) - 1


def _key(item: dict[str, Any], column: str) -> str:
    """The key a column is kept under: an eval written with the agentskills.io guide's
    `assertions` keeps them there, so editing never adds an `expectations` list beside it."""
    if column == "expectations" and "assertions" in item and "expectations" not in item:
        return "assertions"
    return column
