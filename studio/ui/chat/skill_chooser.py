"""Which skills the chat's model sees: every loadable skill in the library (its catalog), the few
ticked in the Skills menu, or the skills of the agent picked; each as its open editor has it,
saved or not."""

from __future__ import annotations

from pathlib import Path
from time import perf_counter
from typing import Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QMenu, QSizePolicy, QToolButton

from studio.skills import SkillSummary
from studio.ui.chat.agent_picker import AgentPicker
from studio.ui.numbers import count_text

# How often, at most, the button shows the library's count again while a scan brings skills in
# (a batch many times a second).
REFRESH_LATER_MS = 400
# While a scan brings skills in, refreshes come at most this many times their own cost apart, so
# they take at most about a twentieth of the window's thread whatever listens to them (counting
# the loadable skills here took 58 ms at 100,000: the library keeps that count now).
REFRESH_SPACING = 20


class SkillSource(Protocol):
    """Where the pane finds skills: the library's, and the unsaved text of open editors."""

    def library_skills(self) -> list[SkillSummary]: ...

    def loadable_count(self) -> int:
        """How many of the library's skills a client would load (counted by the library as
        they change: the skills button shows it after every batch of a scan)."""
        ...

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None:
        """The skill as its open editor has it (summary of the unsaved text, and the text), or
        None when it is not open with unsaved changes."""
        ...

    def writable_folders(self) -> list[Path]:
        """The skill folders new skills can be created in, the library's first first."""
        ...


class NoSkills:
    """A source without skills, for a pane shown on its own."""

    def library_skills(self) -> list[SkillSummary]:
        return []

    def loadable_count(self) -> int:
        return 0

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None:
        return None

    def writable_folders(self) -> list[Path]:
        return []


class SkillChooser(QObject):
    """The Skills button and its menu; the pane lays out the button.

    Attributes:
        chosen: the skill names ticked, or None for every loadable skill in the library.
        skills_button, skills_menu: the button showing what the model sees, and its menu.

    Signals:
        chosen_changed: what the model sees changed (skills ticked, an agent picked).
    """

    chosen_changed = Signal()

    def __init__(self, skills: SkillSource, agent_picker: AgentPicker,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._skills = skills
        self._agent_picker = agent_picker
        self.chosen: tuple[str, ...] | None = None
        # Skills tried from an editor stay choosable even where the library does not list them.
        self._tried: dict[Path, SkillSummary] = {}

        self.skills_button = QToolButton()
        self.skills_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        # Ignored: a long list of skill names must not widen the dock; the tooltip has it all.
        self.skills_button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.skills_button.setMinimumWidth(60)
        self.skills_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.skills_menu = QMenu(self.skills_button)
        self.skills_button.setMenu(self.skills_menu)
        self.skills_button.setToolTip("Which skills the model sees")

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(REFRESH_LATER_MS)
        self._refresh_timer.timeout.connect(self.refresh)
        self._refresh_ms = 0.0  # what counting the skills took last time

        self.skills_menu.aboutToShow.connect(self._on_skills_menu_about_to_show)
        agent_picker.agent_changed.connect(self.refresh)

    def _candidates(self) -> list[SkillSummary]:
        found = {s.directory: s for s in self._skills.library_skills()}
        found.update(self._tried)
        return list(found.values())

    def resolve_skills(self) -> tuple[list[SkillSummary], dict[str, str]]:
        """The skills this chat's model gets, as the editors have them now, and the unsaved
        SKILL.md texts that replace the files."""
        skills: list[SkillSummary] = []
        overrides: dict[str, str] = {}
        for summary in self._candidates():
            unsaved = self._skills.unsaved(summary.directory)
            if unsaved is not None:
                summary = unsaved[0]
            if self.chosen is not None and summary.name not in self.chosen:
                continue
            skills.append(summary)
            if unsaved is not None and summary.name:
                overrides[summary.name] = unsaved[1]
        return skills, overrides

    def chosen_folders(self) -> tuple[str, ...]:
        """The folders of the skills ticked; none when the model sees the whole library."""
        if self.chosen is None:
            return ()
        return tuple(str(s.directory) for s in self.resolve_skills()[0])

    def try_skill(self, summary: SkillSummary) -> str:
        """Tick only this skill (as its editor has it); its name."""
        unsaved = self._skills.unsaved(summary.directory)
        name = (unsaved[0] if unsaved is not None else summary).name or summary.display_name
        self._tried[summary.directory] = summary
        self.set_chosen((name,))
        return name

    def seen(self) -> str:
        """What the model sees, in words for the chat's placeholder."""
        chosen = (tuple(self._agent_picker.skill_names())
                  if self._agent_picker.skills is not None else self.chosen)
        if chosen is None:
            return "the catalog of every loadable skill in the library"
        if chosen:
            return "these skills: " + ", ".join(chosen)
        return "no skills"

    def _skills_text(self) -> str:
        if self._agent_picker.skills is not None:
            return ", ".join(self._agent_picker.skill_names()) or "None"
        if self.chosen is None:
            return f"All in the library ({count_text(self._skills.loadable_count())})"
        return ", ".join(self.chosen) if self.chosen else "None"

    def refresh_later(self) -> None:
        """Refresh within REFRESH_LATER_MS, once however often asked meanwhile (while a scan
        brings skills in)."""
        if not self._refresh_timer.isActive():
            spacing = round(REFRESH_SPACING * self._refresh_ms)
            self._refresh_timer.start(max(REFRESH_LATER_MS, spacing))

    def refresh(self) -> None:
        """Show the library's skills again (after a scan, or an agent picked)."""
        self._refresh_timer.stop()
        started = perf_counter()
        text = self._skills_text()
        self._refresh_ms = (perf_counter() - started) * 1000
        self.skills_button.setText(text)
        agent = self._agent_picker.active
        chooses = agent is not None and self._agent_picker.skills is not None
        self.skills_button.setEnabled(not chooses)
        self.skills_button.setToolTip(f"The model sees: {text}" + (
            f" (the agent {agent.name}'s skills)" if chooses and agent is not None else ""))
        self.chosen_changed.emit()

    def set_chosen(self, names: tuple[str, ...] | None) -> None:
        self.chosen = names
        self.refresh()

    def _on_skills_menu_about_to_show(self) -> None:
        menu = self.skills_menu
        menu.clear()
        every = menu.addAction("All loadable skills in the library")
        every.setCheckable(True)
        every.setChecked(self.chosen is None)
        every.triggered.connect(lambda: self.set_chosen(None))
        menu.addSeparator()
        names = sorted({s.name for s in self._candidates() if s.loadable and s.name})
        for name in names:
            action = menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(self.chosen is not None and name in self.chosen)
            action.toggled.connect(lambda on, which=name: self._toggle_skill(which, on))
        if not names:
            menu.addAction("(no loadable skills in the library)").setEnabled(False)

    def _toggle_skill(self, name: str, on: bool) -> None:
        chosen = list(self.chosen or ())
        if on and name not in chosen:
            chosen.append(name)
        elif not on and name in chosen:
            chosen.remove(name)
        self.set_chosen(tuple(chosen))
