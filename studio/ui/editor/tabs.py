"""The editor tabs: opening skills and files in them, finding them, saving and closing them, and
following their files when another program changes them. An open skill's live problems go to
the core `Library`, where the Problems panel reads them."""

from __future__ import annotations

import itertools
import tempfile
import zipfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QMessageBox, QStackedWidget, QTabWidget, QWidget

from studio.agent import AgentStore
from studio.llm import LLMError
from studio.skills import SKILL_FILE, Skill, SkillSummary, load_skill, load_zip_skills, parse_skill
from studio.skills.library import Library, Problem, events
from studio.skills.scan import enclosing_zip
from studio.textshow import shown
from studio.ui import asyncqt, confirm
from studio.ui.editor.autosaving import Autosaver
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.file_tab import FileTab, decode_text, read_text_file
from studio.ui.editor.form_fold import TabLayout
from studio.ui.editor.target_fields import AGENT_FIELD, MODEL_FIELD
from studio.ui.editor.untitled import write_untitled
from studio.ui.status_messages import Feedback
from studio.ui.tasks import TaskSet
from studio.ui.watcher import FileWatcher

Tab = SkillEditorTab | FileTab
Button = QMessageBox.StandardButton
DIRTY_MARK = " ●"
# Where untitled drafts seem to live until saved: a folder that is never created, so no file of
# theirs can be read or watched before the user picks the real place.
UNTITLED = Path(tempfile.gettempdir()) / "skill-studio-untitled"
_untitled_numbers = itertools.count(1)


class EditorTabs(QObject):
    """The tab widget's editors, and what is done to them.

    Attributes:
        model_names: asks the chat's backend which models a skill's `model:` can name (set by
            the window once the chat exists); raises LLMError when the server does not answer.
        agent_names: the saved agents a skill's `agent:` can name.

    Signals:
        skill_opened: (Path) a skill's tab was opened (the library selects it).
        file_saved: (Path) a tab's file was written (its skill is scanned again).
    """

    skill_opened = Signal(Path)
    file_saved = Signal(Path)

    def __init__(self, tabs: QTabWidget, centre: QStackedWidget, welcome: QWidget,
                 library: Library, watcher: FileWatcher, autosaver: Autosaver,
                 feedback: Feedback, tasks: TaskSet, font: QFont,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tabs = tabs
        self.code_font = font
        self._centre = centre
        self._welcome = welcome
        self._library = library
        self._watcher = watcher
        self._autosaver = autosaver
        self._feedback = feedback
        self._tasks = tasks
        self.model_names: Callable[[], Awaitable[list[str]]] | None = None
        self.agent_names: Callable[[], list[str]] = AgentStore().names
        # Where every skill tab's form stands and how its splits are; the window keeps it.
        self.tab_layout = TabLayout(parent=self)
        tabs.setTabsClosable(True)
        tabs.setMovable(True)
        tabs.setDocumentMode(True)
        tabs.setElideMode(Qt.TextElideMode.ElideMiddle)
        tabs.tabCloseRequested.connect(self._on_tabs_tab_close_requested)
        tabs.currentChanged.connect(self._on_tabs_current_changed)
        library.connect(self._on_library_event)

    # -- finding -------------------------------------------------------------------------------------

    def editor_tabs(self) -> list[Tab]:
        found: list[Tab] = []
        for index in range(self.tabs.count()):
            widget = self.tabs.widget(index)
            if isinstance(widget, SkillEditorTab | FileTab):
                found.append(widget)
        return found

    def skill_tab(self, directory: Path) -> SkillEditorTab | None:
        for tab in self.editor_tabs():
            if isinstance(tab, SkillEditorTab) and tab.directory == directory:
                return tab
        return None

    def tab_for_path(self, path: Path) -> Tab | None:
        for tab in self.editor_tabs():
            if tab.path == path:
                return tab
        return None

    def current_tab(self) -> Tab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, SkillEditorTab | FileTab) else None

    def current_skill_tab(self) -> SkillEditorTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, SkillEditorTab) else None

    def summary_of(self, tab: SkillEditorTab) -> SkillSummary:
        """The skill of an editor tab as its text is now, saved or not."""
        known = self._library.summary_for(tab.directory)
        root = known.root if known is not None else tab.directory.parent
        return tab.doc.result.summary(root)

    # -- adding and removing tabs ------------------------------------------------------------------------

    def add_tab(self, tab: Tab, tooltip: str) -> None:
        # A skill's name is its author's: shown, so no bidi override turns the tab's text around.
        index = self.tabs.addTab(tab, shown(tab.title))
        # Moved into the styled window, the editors lose the font set on them (the style sheet
        # resolves their font anew), so it is set again once they are there.
        tab.set_editor_font(self.code_font)
        self.tabs.setTabToolTip(index, tooltip)
        self.tabs.setCurrentIndex(index)
        self._centre.setCurrentWidget(self.tabs)
        tab.dirty_changed.connect(lambda _dirty, which=tab: self.update_tab_title(which))
        if isinstance(tab, SkillEditorTab):
            tab.diagnostics_changed.connect(lambda which=tab: self._on_tab_diagnostics_changed(which))
            tab.file_open_requested.connect(self._on_tab_file_open_requested)
            self._publish(tab)
        self._watcher.watch_file(tab.path)
        self._autosaver.track(tab)

    def remove_tab(self, tab: Tab) -> None:
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.removeTab(index)
        self._watcher.unwatch_file(tab.path)
        self._autosaver.forget(tab)
        if isinstance(tab, SkillEditorTab):
            self._library.stop_editing(tab.directory)
        tab.deleteLater()
        if self.tabs.count() == 0:
            self._centre.setCurrentWidget(self._welcome)

    def update_tab_title(self, tab: Tab) -> None:
        index = self.tabs.indexOf(tab)
        if index < 0:
            return
        self.tabs.setTabText(index, shown(tab.title) + (DIRTY_MARK if tab.dirty else ""))
        self.tabs.setTabToolTip(index, str(tab.path) + ("\nUnsaved changes" if tab.dirty else ""))

    def set_editor_font(self, font: QFont) -> None:
        self.code_font = font
        for tab in self.editor_tabs():
            tab.set_editor_font(font)

    def _publish(self, tab: SkillEditorTab) -> None:
        self._library.set_editing(tab.directory, tab.title, tab.diagnostics)

    def _on_tab_diagnostics_changed(self, tab: SkillEditorTab) -> None:
        self._publish(tab)
        self.update_tab_title(tab)

    def _on_library_event(self, event: events.LibraryEvent) -> None:
        if isinstance(event, events.TargetChanged):
            for tab in self.editor_tabs():
                if isinstance(tab, SkillEditorTab):
                    tab.set_target(self._library.target_of(tab.directory))
                    self._offer_names(tab)

    def _offer_names(self, tab: SkillEditorTab) -> None:
        """Fill the form's `agent:` and `model:` lists, when the tab's target reads them; the
        models are asked for in the background, so a slow or silent server never holds the
        window."""
        fields = tab.form.target_fields
        if AGENT_FIELD in fields.widgets:
            fields.set_agents(self.agent_names())
        if MODEL_FIELD in fields.widgets and self.model_names is not None:
            self._tasks.spawn(self._offer_models(tab, self.model_names))

    async def _offer_models(self, tab: SkillEditorTab,
                            model_names: Callable[[], Awaitable[list[str]]]) -> None:
        try:
            names, note = await model_names(), ""
        except LLMError as exc:
            names, note = [], f"{exc.user_message} Type a model's name meanwhile."
        if tab in self.editor_tabs():
            tab.form.target_fields.set_models(names, note)

    def _on_tab_file_open_requested(self, path: Path, line: int) -> None:
        self.open_file(path, line)

    def _on_tabs_tab_close_requested(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if isinstance(widget, SkillEditorTab | FileTab):
            self._tasks.spawn(self.close_tab(widget))

    def _on_tabs_current_changed(self, _index: int) -> None:
        tab = self.current_tab()
        if tab is not None:
            tab.setFocus()

    # -- opening ---------------------------------------------------------------------------------------

    def open_summary(self, summary: object) -> SkillEditorTab | None:
        if not isinstance(summary, SkillSummary):
            return None
        if summary.read_only:
            return self.open_zip_skill(summary.root, summary.directory)
        return self.open_skill(summary.directory)

    def open_skill(self, directory: Path) -> SkillEditorTab | None:
        """Open (or switch to) the tab of the skill in `directory`."""
        existing = self.skill_tab(directory)
        if existing is not None:
            self.tabs.setCurrentWidget(existing)
            return existing
        if not directory.is_dir():
            parts = enclosing_zip(directory)
            if parts is not None:
                return self.open_zip_skill(parts[0], directory)
            self._feedback.status(f"{directory} no longer exists; rescan the library (F5).")
            return None
        return self.open_parsed(load_skill(directory))

    def open_zip_skill(self, archive: Path, directory: Path) -> SkillEditorTab | None:
        existing = self.skill_tab(directory)
        if existing is not None:
            self.tabs.setCurrentWidget(existing)
            return existing
        try:
            skills = load_zip_skills(archive)
        except (OSError, zipfile.BadZipFile, RuntimeError, ValueError) as exc:
            self._feedback.tell("Cannot open the skill", f"The archive {archive} cannot be read: {exc}")
            return None
        for skill in skills:
            if skill.directory == directory:
                return self.open_parsed(skill)
        self._feedback.status(f"{directory} is no longer in {archive.name}; rescan the library (F5).")
        return None

    def open_parsed(self, skill: Skill) -> SkillEditorTab:
        tab = SkillEditorTab(skill, self.code_font,
                             target=self._library.target_of(skill.directory),
                             tab_layout=self.tab_layout)
        self.add_tab(tab, str(skill.path))
        self._offer_names(tab)
        self.skill_opened.emit(skill.directory)
        return tab

    def open_draft(self, name: str, text: str) -> SkillEditorTab:
        """Open `text` as a new, unsaved skill named `name`: nothing is written until the user
        saves it and picks its folder."""
        directory = UNTITLED / str(next(_untitled_numbers)) / name
        skill = parse_skill(text.encode("utf-8"), directory / SKILL_FILE, directory=directory)
        tab = SkillEditorTab(skill, self.code_font, untitled=True, tab_layout=self.tab_layout)
        self.add_tab(tab, f"{name} (not saved yet)")
        return tab

    def open_library_file(self, summary: object, path: Path) -> None:
        if isinstance(summary, SkillSummary) and path.name == summary.skill_file.name and (
                path.parent == summary.directory):
            self.open_summary(summary)
            return
        self.open_file(path)

    def open_file(self, path: Path, line: int = 1) -> FileTab | SkillEditorTab | None:
        """Open a file of a skill in a plain editor tab (read-only inside a zip)."""
        if path.name in (SKILL_FILE, SKILL_FILE.lower()):
            return self.open_skill(path.parent)
        existing = self.tab_for_path(path)
        if isinstance(existing, FileTab):
            self.tabs.setCurrentWidget(existing)
            existing.go_to(line)
            return existing
        parts = enclosing_zip(path)
        if parts is not None:
            archive, member = parts
            try:
                with zipfile.ZipFile(archive) as opened:
                    data = opened.read(str(member))
            except (OSError, KeyError, zipfile.BadZipFile) as exc:
                self._feedback.tell("Cannot open the file",
                                    f"{member} cannot be read from {archive}: {exc}")
                return None
            text, why = decode_text(path.name, data)
            file_tab = FileTab(path, text, self.code_font, read_only=True, why=why)
        else:
            if not path.is_file():
                self._feedback.status(f"{path} does not exist.")
                return None
            text, why = read_text_file(path)
            file_tab = FileTab(path, text, self.code_font, why=why)
        self.add_tab(file_tab, str(path))
        file_tab.go_to(line)
        return file_tab

    def go_to_problem(self, problem: Problem) -> None:
        tab = self.skill_tab(problem.directory)
        if tab is None:
            summary = self._library.summary_for(problem.directory)
            tab = self.open_summary(summary) if summary is not None else self.open_skill(
                problem.directory)
        if tab is not None:
            self.tabs.setCurrentWidget(tab)
            tab.show_diagnostic(problem.diagnostic)

    def reopen(self, directories: list[Path]) -> None:
        """Open the skills that were open when the studio last closed, where they still are."""
        for directory in directories:
            if self.skill_tab(directory) is None and (
                    directory.is_dir() or enclosing_zip(directory) is not None):
                self.open_skill(directory)

    # -- saving and closing ----------------------------------------------------------------------------

    def save(self, tab: Tab) -> bool:
        """Write the tab's text atomically; a failure is shown, and the edits stay. An untitled
        draft is saved in the background, after asking for its folder (False meanwhile)."""
        if isinstance(tab, SkillEditorTab) and tab.doc.untitled:
            self._tasks.spawn(self.save_untitled(tab))
            return False
        if tab.read_only:
            self._feedback.status(f"{tab.path.name} is read-only and cannot be saved.")
            return False
        try:
            tab.save()
        except OSError as exc:
            self._feedback.tell("Not saved", f"{tab.path} could not be written: "
                                f"{exc.strerror or exc}. Your changes are still in the editor; "
                                "check the folder's permissions and save again.")
            return False
        self._autosaver.forget(tab)
        self._watcher.rearm(tab.path)
        if isinstance(tab, SkillEditorTab):
            tab.doc.validate_now()
            self.show_in_library(tab)
        self.update_tab_title(tab)
        self._feedback.status(f"Saved {tab.path}")
        self.file_saved.emit(tab.path)
        return True

    async def save_untitled(self, tab: SkillEditorTab) -> bool:
        """Ask which folder an untitled draft goes in, and create its skill folder there (named
        as its `name:` says); False when the user cancelled or it could not be written."""
        target = await write_untitled(tab, self._library, self._feedback)
        if target is None:
            return False
        self._library.stop_editing(tab.directory)
        self._watcher.unwatch_file(tab.path)
        self._autosaver.forget(tab)
        tab.doc.saved_as(target)
        tab.retarget(target)
        self._watcher.watch_file(tab.path)
        self._publish(tab)
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.setTabToolTip(index, str(tab.path))
        self.update_tab_title(tab)
        root = self._library.deepest_root(target)
        if root is not None:
            self._library.update_skill(tab.doc.result.summary(root.path))
        self._feedback.status(f"Saved {tab.path}")
        return True

    def show_in_library(self, tab: SkillEditorTab) -> None:
        """The library shows a skill as saved: after a save or a reload from disk."""
        if self._library.summary_for(tab.directory) is not None:
            self._library.update_skill(self.summary_of(tab))

    def save_current(self) -> None:
        tab = self.current_tab()
        if tab is not None:
            self.save(tab)

    async def close_tab(self, tab: Tab) -> bool:
        """Close a tab, asking first when it has unsaved changes; False if the user cancelled."""
        if not await self.confirm_close([tab]):
            return False
        self.remove_tab(tab)
        return True

    def close_current(self) -> None:
        tab = self.current_tab()
        if tab is not None:
            self._tasks.spawn(self.close_tab(tab))

    async def confirm_close(self, tabs: list[Tab]) -> bool:
        """Ask about unsaved changes: Save (all), Discard, or Cancel (False)."""
        dirty = [tab for tab in tabs if tab.dirty]
        if not dirty:
            return True
        self.tabs.setCurrentWidget(dirty[0])
        answer = await asyncqt.answer(
            confirm.unsaved_changes(self._feedback.parent, [shown(tab.title) for tab in dirty]))
        if answer == Button.Save:
            for tab in dirty:
                if isinstance(tab, SkillEditorTab) and tab.doc.untitled:
                    saved = await self.save_untitled(tab)
                else:
                    saved = self.save(tab)
                if not saved:
                    return False
            return True
        if answer == Button.Discard:
            for tab in dirty:
                self._autosaver.forget(tab)
            return True
        return False

    def close_below(self, directory: Path) -> None:
        """Close the tabs of files in a folder that is gone, without asking."""
        for tab in self.editor_tabs():
            if tab.path.is_relative_to(directory):
                self.remove_tab(tab)

    def follow_rename(self, directory: Path, target: Path) -> None:
        """A folder was renamed: the tabs of its files follow it to `target`."""
        for tab in self.editor_tabs():
            if not tab.path.is_relative_to(directory):
                continue
            self._watcher.unwatch_file(tab.path)
            self._autosaver.forget(tab)
            if isinstance(tab, SkillEditorTab):
                self._library.stop_editing(tab.directory)
                tab.retarget(target)
                self._publish(tab)
            else:
                tab.retarget(target / tab.path.relative_to(directory))
            self._watcher.watch_file(tab.path)
            self.update_tab_title(tab)
