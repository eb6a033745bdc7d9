"""Eval results kept by the skill's content hash, the model and the eval, so an unchanged eval
is not run again."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from studio.paths import cache_dir

# The eval files are part of each result's key already; leaving them out of the skill's hash
# keeps a new trigger query from invalidating every outcome eval.
_NOT_THE_SKILL = {"evals", ".git", "__pycache__"}


def skill_hash(directory: Path) -> str:
    """A hash of the skill's files (names and contents; links are not followed)."""
    digest = hashlib.sha256()
    for path in sorted(_files(directory, directory)):
        relative = path.relative_to(directory).as_posix()
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError as exc:
            digest.update(f"unreadable: {exc.errno}".encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def _files(top: Path, folder: Path) -> list[Path]:
    found: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if folder == top and entry.name in _NOT_THE_SKILL:
                continue
            if entry.name not in _NOT_THE_SKILL:
                found.extend(_files(top, Path(entry.path)))
        elif entry.is_file(follow_symlinks=False):
            found.append(Path(entry.path))
    return found


def key_of(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class ResultCache:
    """One JSON file per result under the cache dir's `evals/` folder."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else cache_dir() / "evals"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, data: dict[str, Any]) -> None:
        """Write the result whole or not at all; a cache that cannot be written only costs a rerun."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".json")
        except OSError:
            return
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False)
            os.replace(temp, self.folder / f"{key}.json")
        except OSError:
            Path(temp).unlink(missing_ok=True)
