"""Offers back, at start, the unsaved texts that studios closed without saving kept: each opens in
its tab (or as a draft when its folder is gone), with a note saying where it came from. Every other
tab such a studio had open opens again too, in its order, wherever it still is."""

from __future__ import annotations

from PySide6.QtCore import QObject

from studio.editing import DiskState, OpenTab, RecoveredEntry
from studio.skills.checks import names
from studio.ui import asyncqt
from studio.ui.editor.autosaving import Autosaver
from studio.ui.editor.file_tab import FileTab
from studio.ui.editor.recovery_dialog import RecoveryDialog
from studio.ui.editor.tabs import EditorTabs, Tab
from studio.ui.status_messages import Feedback


class Recovery(QObject):
    """Restores autosaved texts into the editor tabs."""

    def __init__(self, editors: EditorTabs, autosaver: Autosaver, feedback: Feedback,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editors = editors
        self._autosaver = autosaver
        self._feedback = feedback

    async def restore_autosaves(self) -> int:
        """Offer back the unsaved texts that studios closed without saving kept (not those of
        one still running); returns how many were restored."""
        claims = self._autosaver.store.claim_orphans()
        try:
            entries = [entry for claim in claims for entry in claim.entries]
            unreadable = [bad for claim in claims for bad in claim.unreadable]
            open_tabs = [path for claim in claims for path in claim.open_tabs]
            if not entries:
                self._reopen(open_tabs)
                if unreadable:
                    self._feedback.tell("Unsaved changes not restored",
                                        "\n\n".join(bad.message for bad in unreadable))
                return 0
            dialog = RecoveryDialog(entries, unreadable, self._feedback.parent)
            answer = await asyncqt.ask(dialog)
            if answer == RecoveryDialog.DialogCode.Rejected:
                return 0
            # Restored or discarded, the tabs come back: first, so they keep their order and the
            # texts restored go into theirs. (Later leaves it all for the next start.)
            self._reopen(open_tabs)
            chosen = dialog.ticked() if answer == RecoveryDialog.DialogCode.Accepted else []
            for entry in chosen:
                self._restore_entry(entry, dialog.states[dialog.entries.index(entry)])
            if chosen and not self._autosaver.flush():
                # The restored texts live only in their tabs: the old copies stay until then.
                return len(chosen)
            for claim in claims:
                for entry in list(claim.entries):
                    claim.remove(entry)
            return len(chosen)
        finally:
            for claim in claims:
                claim.release()

    def _reopen(self, tabs: list[OpenTab]) -> None:
        """Open the tabs a crashed studio had open, in their order, where they still are."""
        for tab in dict.fromkeys(tabs):
            if tab.kind == "skill":
                self._editors.reopen([tab.path])
            elif tab.path.is_file():
                self._editors.open_file(tab.path)

    def _restore_entry(self, entry: RecoveredEntry, state: DiskState) -> None:
        record = entry.record
        note = f"Restored unsaved changes kept {record.when}; save them, or close the tab to " \
               "discard them."
        if state is DiskState.CHANGED:
            note += f" {record.path.name} was changed on disk since: saving replaces that change."
        tab: Tab | None = None
        if record.kind == "file":
            tab = self._editors.open_file(record.path)
            if tab is None:
                tab = FileTab(record.path, "", self._editors.code_font)
                tab.make_folder = True
                self._editors.add_tab(tab, str(record.path))
                note += f" {record.path} no longer exists; saving writes it again."
        elif record.kind == "skill" and record.path.parent.is_dir():
            tab = self._editors.open_skill(record.path.parent)
            if tab is not None and tab.read_only:
                tab = None
        if tab is None:
            name = record.name or record.path.parent.name
            tab = self._editors.open_draft(name if names.is_valid_name(name) else "recovered-skill",
                                  record.text)
            if record.kind == "skill":
                note += (f" Its folder {record.path.parent} is gone or read-only now, so it "
                         "opens as a draft: Save asks where it goes.")
        tab.set_text(record.text)
        tab.show_note(note)
