"""An author's review notes on each eval, kept beside the evals in the skill's
`evals/feedback.json` in the guide's shape (`{"eval-ID": "what was wrong"}`, empty when the
output was fine), so they travel with the skill and come back at the next run."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from studio.fsutil import atomic_write_bytes
from studio.skills.checks import evalfiles

FEEDBACK_FILE = PurePosixPath("evals/feedback.json")


def key_of(eval_id: str) -> str:
    return f"eval-{eval_id}"


def read_feedback(skill_dir: Path) -> dict[str, str]:
    """The notes by eval id ({} when there are none). EvalFileError when the file is damaged."""
    path = skill_dir / FEEDBACK_FILE
    if not path.exists():
        return {}
    data = evalfiles.load_json(path, str(FEEDBACK_FILE))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise evalfiles.EvalFileError(str(FEEDBACK_FILE), 'it must map each eval ("eval-1") to a note')
    return {key.removeprefix("eval-"): value for key, value in data.items() if value.strip()}


def write_feedback(skill_dir: Path, eval_id: str, note: str) -> None:
    """Set (or, with an empty note, clear) the note on one eval; other keys are kept as they are."""
    path = skill_dir / FEEDBACK_FILE
    data = evalfiles.load_json(path, str(FEEDBACK_FILE)) if path.exists() else {}
    if not isinstance(data, dict):
        raise evalfiles.EvalFileError(str(FEEDBACK_FILE), "it must hold a JSON object; it was left as it is")
    data[key_of(eval_id)] = note.strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode())
