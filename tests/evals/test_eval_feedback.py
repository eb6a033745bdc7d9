"""Review notes per eval, kept in the skill's evals/feedback.json and shown at the next run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.evals.feedback import read_feedback, write_feedback
from studio.skills.checks.evalfiles import EvalFileError
from tests.commands.test_eval_command import EVALS, finish, skill_with_evals, studio
from tests.fakes.fixtures import TOOL_MODEL, fake_ollama
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply

__all__ = ["fake_ollama"]


def test_notes_are_kept_in_the_guides_shape_and_cleared(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "feedback.json").write_text(json.dumps({"eval-9": "keep me"}))
    write_feedback(tmp_path, "7", "The greeting ignores the name.")
    assert read_feedback(tmp_path) == {"9": "keep me", "7": "The greeting ignores the name."}
    write_feedback(tmp_path, "7", "")
    assert read_feedback(tmp_path) == {"9": "keep me"}
    assert json.loads((tmp_path / "evals" / "feedback.json").read_text())["eval-7"] == ""


def test_a_damaged_file_is_named_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "feedback.json").write_text("[1, 2]")
    with pytest.raises(EvalFileError, match=r"feedback\.json"):
        write_feedback(tmp_path, "1", "x")
    assert (tmp_path / "evals" / "feedback.json").read_text() == "[1, 2]"


def test_the_note_comes_back_at_the_next_run(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    demo = skill_with_evals(tmp_path, EVALS, [])
    code, out, _ = finish(studio(str(demo), "--feedback", "7", "Too curt; greet by name."))
    assert code == 0 and "note kept" in out
    fake_ollama.script(reply("Hello there!"))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                   "--only", "evals"))
    assert code == 0, err
    assert "your review note: Too curt; greet by name." in out
