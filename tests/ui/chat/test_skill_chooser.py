"""The chat's skill chooser on its own: what the model sees (the library, the skills ticked, a
skill tried from outside it), each as its open editor has it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.agent.agents import AgentSpec, AgentStore
from studio.skills.summary import SkillSummary
from studio.ui.chat import skill_chooser
from studio.ui.chat.agent_picker import AgentPicker
from studio.ui.chat.skill_chooser import SkillChooser
from studio.ui.tasks import TaskSet


def _summary(root: Path, name: str) -> SkillSummary:
    directory = root / name
    return SkillSummary(root, directory, directory / "SKILL.md", name,
                        f"Does {name} things. Use when asked.", True, True, ())


class _Skills:
    def __init__(self, library: list[SkillSummary],
                 unsaved: dict[Path, tuple[SkillSummary, str]]) -> None:
        self._library = library
        self._unsaved = unsaved

    def library_skills(self) -> list[SkillSummary]:
        return self._library

    def loadable_count(self) -> int:
        return sum(1 for summary in self._library if summary.loadable)

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None:
        return self._unsaved.get(directory)

    def writable_folders(self) -> list[Path]:
        return []


def test_the_model_sees_the_library_the_ticked_or_the_tried_as_edited(
        qtbot: QtBot, tmp_path: Path) -> None:
    alpha, beta = _summary(tmp_path, "alpha"), _summary(tmp_path, "beta")
    edited = replace(beta, description="Edited, not saved. Use when asked.")
    skills = _Skills([alpha, beta], {beta.directory: (edited, "EDITED TEXT")})
    picker = AgentPicker(AgentStore(), skills, lambda: AgentSpec("", "", ()), TaskSet())
    qtbot.addWidget(picker)
    chooser = SkillChooser(skills, picker)
    changes: list[None] = []
    chooser.chosen_changed.connect(lambda: changes.append(None))

    chooser.refresh()
    assert chooser.skills_button.text() == "All in the library (2)"
    assert chooser.resolve_skills() == ([alpha, edited], {"beta": "EDITED TEXT"})
    assert chooser.seen() == "the catalog of every loadable skill in the library"
    assert chooser.chosen_folders() == ()

    chooser.set_chosen(("beta",))
    assert chooser.resolve_skills() == ([edited], {"beta": "EDITED TEXT"})
    assert chooser.seen() == "these skills: beta"
    assert chooser.chosen_folders() == (str(beta.directory),)

    elsewhere = _summary(tmp_path / "elsewhere", "gamma")
    assert chooser.try_skill(elsewhere) == "gamma"
    assert chooser.chosen == ("gamma",) and chooser.skills_button.text() == "gamma"
    assert chooser.resolve_skills() == ([elsewhere], {})

    chooser.set_chosen(())
    assert chooser.seen() == "no skills" and chooser.skills_button.text() == "None"
    assert len(changes) == 4


def test_a_costly_count_spaces_the_refreshes_a_scan_asks_for(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skills = _Skills([_summary(tmp_path, "alpha")], {})
    picker = AgentPicker(AgentStore(), skills, lambda: AgentSpec("", "", ()), TaskSet())
    qtbot.addWidget(picker)
    chooser = SkillChooser(skills, picker)
    chooser.refresh_later()
    assert chooser._refresh_timer.interval() == skill_chooser.REFRESH_LATER_MS
    chooser.refresh()
    # Counting a registry-sized library took 50 ms (a clock that says so, not the machine's).
    ticks = iter([10.0, 10.05])
    monkeypatch.setattr(skill_chooser, "perf_counter", lambda: next(ticks))
    chooser.refresh()
    chooser.refresh_later()
    assert chooser._refresh_timer.interval() == skill_chooser.REFRESH_SPACING * 50
    assert chooser.skills_button.text() == "All in the library (1)"
