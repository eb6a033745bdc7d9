"""Unsaved edits kept beside the settings, so a crash never loses what the user typed.

One JSON file per edited file, named by a hash of its path, holding the path, the text and the
time. Written atomically every few seconds while a tab is dirty; deleted when the tab is saved or
its changes are discarded; offered back at the next start if it is still there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from studio import paths
from studio.fsutil import atomic_write_text

log = logging.getLogger(__name__)

AUTOSAVE_FOLDER = "autosave"


def autosave_dir() -> Path:
    return paths.data_dir() / AUTOSAVE_FOLDER


@dataclass(frozen=True, slots=True)
class AutosaveEntry:
    path: Path
    text: str
    saved_at: float
    kind: str
    file: Path

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.saved_at))


class AutosaveStore:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else autosave_dir()

    def file_for(self, path: Path) -> Path:
        digest = hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.folder / f"{digest}.json"

    def write(self, path: Path, text: str, kind: str = "skill") -> None:
        """Keep `text` as the unsaved content of `path` (a SKILL.md or another file)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        record = {"path": str(path), "text": text, "saved_at": time.time(), "kind": kind}
        atomic_write_text(self.file_for(path), json.dumps(record, ensure_ascii=False))

    def discard(self, path: Path) -> None:
        try:
            self.file_for(path).unlink()
        except FileNotFoundError:
            return

    def entries(self) -> list[AutosaveEntry]:
        """Every autosave left behind, oldest first; unreadable ones are logged and skipped."""
        found: list[AutosaveEntry] = []
        try:
            files = sorted(self.folder.glob("*.json"))
        except OSError:
            return []
        for file in files:
            try:
                record = json.loads(file.read_text(encoding="utf-8"))
                entry = AutosaveEntry(Path(record["path"]), str(record["text"]),
                                      float(record["saved_at"]), str(record.get("kind", "skill")),
                                      file)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("skipping the unreadable autosave %s: %s", file, exc)
                continue
            found.append(entry)
        found.sort(key=lambda entry: entry.saved_at)
        return found
