"""Quick Open (Ctrl+P: go to a skill by a few letters of its name) and the command palette
(Ctrl+Shift+P: run any action of the window by its name), as in VS Code: one box, and a `>` in
front of the text makes it the palette.

The skills are read from the library when the box opens after the library changed, and the
matcher searches them per keystroke (`fuzzy`); a burst of keystrokes is searched once, on the
event loop's next turn. The window's actions are read afresh each time the palette opens, so
actions added by any feature, and their enabled state, are always current."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu

from studio.skills import SkillSummary
from studio.skills.library import Library, events
from studio.ui.menus import make_action
from studio.ui.quickopen.entries import Entry, action_entries, skill_entries
from studio.ui.quickopen.fuzzy import Matcher
from studio.ui.quickopen.popup import QuickOpenPopup

COMMANDS = ">"
SKILLS_PLACEHOLDER = "Go to a skill by name (type > for commands)"
COMMANDS_PLACEHOLDER = "Run a command by name"


class QuickOpen(QObject):
    """Quick Open and the command palette of a window.

    Attributes:
        go_to_action, palette_action: the window's actions that open them (Ctrl+P,
            Ctrl+Shift+P).
        popup: the box.
    """

    def __init__(self, window: QMainWindow, library: Library,
                 open_skill: Callable[[SkillSummary], object], menu: QMenu,
                 status: Callable[[str], None]) -> None:
        super().__init__(window)
        self._window = window
        self._library = library
        self._open_skill = open_skill
        self._status = status
        self._skills: tuple[list[Entry], Matcher] | None = None
        self._commands: tuple[list[Entry], Matcher] | None = None
        self._query = ""
        self.popup = QuickOpenPopup(window)
        self.go_to_action = make_action(window, "&Go to Skill…", self.open_skills, "Ctrl+P",
                                        "Open a skill of the library by a few letters of its name")
        self.palette_action = make_action(window, "Command &Palette…", self.open_commands,
                                          "Ctrl+Shift+P", "Run any command of the window by name")
        menu.addSeparator()
        menu.addAction(self.go_to_action)
        menu.addAction(self.palette_action)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(0)
        self._search_timer.timeout.connect(self._search)
        self.popup.text_edited.connect(self._on_popup_text_edited)
        self.popup.entry_chosen.connect(self._on_popup_entry_chosen)
        library.connect(self._on_library_event)

    def open_skills(self) -> None:
        self.popup.open_with("", SKILLS_PLACEHOLDER)

    def open_commands(self) -> None:
        self._commands = None
        self.popup.open_with(COMMANDS, COMMANDS_PLACEHOLDER)

    def _on_library_event(self, event: events.LibraryEvent) -> None:
        if not isinstance(event, events.EditingChanged):
            self._skills = None

    def _on_popup_text_edited(self, text: str) -> None:
        self._query = text
        self._search_timer.start()

    def _source(self, commands: bool) -> tuple[list[Entry], Matcher]:
        if commands:
            if self._commands is None:
                found = action_entries(self._window, (self.palette_action,))
                self._commands = (found, Matcher([e.name for e in found], [e.hint for e in found]))
            return self._commands
        if self._skills is None:
            found = skill_entries(self._library)
            self._skills = (found, Matcher([e.name for e in found], [e.hint for e in found]))
        return self._skills

    def _search(self) -> None:
        if not self.popup.isVisible():
            return
        commands = self._query.startswith(COMMANDS)
        self.popup.line.setPlaceholderText(COMMANDS_PLACEHOLDER if commands
                                           else SKILLS_PLACEHOLDER)
        entries, matcher = self._source(commands)
        query = self._query[len(COMMANDS):] if commands else self._query
        found = matcher.search(query)
        kind = "command" if commands else "skill"
        if not len(matcher):
            count = ("No skills in the library yet: add a folder of skills (Ctrl+O)."
                     if not commands else "No commands.")
        elif not found.matched:
            count = f"No {kind} matches “{query.strip()}”."
        elif found.matched > len(found.rows):
            count = f"The best {len(found.rows):,} of {found.matched:,} {kind}s"
        else:
            count = f"{found.matched:,} {kind}{'s' * (found.matched != 1)}"
        self.popup.show_entries([entries[row] for row in found.rows], count)

    def _on_popup_entry_chosen(self, entry: Entry) -> None:
        target = entry.target
        if isinstance(target, QAction) and not target.isEnabled():
            self._status(f"“{entry.name}” is not available now.")
            return
        self.popup.close_box()
        if isinstance(target, QAction):
            # After the box is gone: the command may open a dialog, or move the focus itself.
            QTimer.singleShot(0, self, target.trigger)
        else:
            self._open_skill(target)
