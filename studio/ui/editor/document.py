"""One open SKILL.md: its text, the single source of truth every view edits, and its diagnostics.

The text lives in a `QTextDocument` (what the raw view shows) so one undo stack covers every
change, whether typed in the raw view, the body editor or the form. The text is kept with `\\n`
line ends; a file that used CRLF gets them back when saved.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QPlainTextDocumentLayout

from studio.editing import changed_range, qt_position
from studio.fsutil import atomic_write_text
from studio.skills import SPEC, Skill, codes, list_skill_files
from studio.skills.checks import ValidationResult, fixes, validate_skill

VALIDATE_DELAY_MS = 250
UNEDITABLE_CODES = frozenset({codes.TOO_LARGE, codes.BINARY, codes.NOT_UTF8})


def plain_text(document: QTextDocument) -> str:
    """The document's text with `\n` between lines and nothing else changed.

    `toPlainText()` would also turn non-breaking spaces and line separators (U+2028, which YAML
    1.2 and Markdown treat as text) into other characters, changing what the user wrote.
    """
    return document.toRawText().replace("\u2029", "\n")


def replace_text(document: QTextDocument, old: str, new: str) -> None:
    """Change the document from `old` to `new` by editing only the characters that differ.

    A pure insertion stays a plain insertion, so typing merges into one undo step as usual.
    """
    start, end, replacement = changed_range(old, new)
    if start == end and not replacement:
        return
    cursor = QTextCursor(document)
    cursor.setPosition(qt_position(old, start))
    if end > start:
        cursor.setPosition(qt_position(old, end), QTextCursor.MoveMode.KeepAnchor)
    cursor.insertText(replacement)


class SkillDocument(QObject):
    """The text of one SKILL.md with its latest parse and (debounced) validation.

    Attributes:
        document: the text; views share it and its undo stack.
        disk_text: the text as last read from or written to disk (`\\n` line ends).
        read_only: the skill is in an archive or its file cannot be edited as text.
        why_read_only: says why, for a banner.
        untitled: a draft not on disk yet (its folder is a placeholder); saving asks where.
        target: the client the skill is judged for (`studio.skills.checks.clients`).

    Signals:
        text_changed: the text changed, from any view.
        validated: a fresh ValidationResult is ready.
        saved: the text was written to disk.
    """

    text_changed = Signal()
    validated = Signal(object)
    saved = Signal()

    def __init__(self, skill: Skill, parent: QObject | None = None, target: str = SPEC, *,
                 untitled: bool = False) -> None:
        super().__init__(parent)
        self._base = skill
        self.target = target
        self.untitled = untitled
        self.newline = "\r\n" if "\r\n" in skill.source else "\n"
        text = skill.source.replace("\r\n", "\n")
        unreadable = [d for d in skill.problems if d.code in UNEDITABLE_CODES]
        self.read_only = skill.read_only or bool(unreadable)
        self.why_read_only = (
            unreadable[0].message + ". It is shown read-only; fix the file in another editor."
            if unreadable else
            "This skill is inside a zip archive and opens read-only."
            if skill.read_only else "")
        self.disk_text = text
        self.document = QTextDocument(self)
        self.document.setDocumentLayout(QPlainTextDocumentLayout(self.document))
        self.document.setPlainText(text)
        self.document.setModified(untitled)
        if untitled:
            self.disk_text = ""
        self._text: str | None = text
        self._skill: Skill | None = None
        self._result: ValidationResult | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(VALIDATE_DELAY_MS)
        self._timer.timeout.connect(self.validate_now)
        self.document.contentsChanged.connect(self._on_document_contents_changed)

    # -- what it holds ------------------------------------------------------------------------------

    @property
    def skill_file(self) -> Path:
        return self._base.path

    @property
    def directory(self) -> Path:
        return self._base.directory

    @property
    def dirty(self) -> bool:
        return self.document.isModified()

    def text(self) -> str:
        if self._text is None:
            self._text = plain_text(self.document)
        return self._text

    @property
    def skill(self) -> Skill:
        """The parse of the current text (computed when first asked for after a change)."""
        if self._skill is None:
            text = self.text()
            if text == self._base.source.replace("\r\n", "\n") and self.newline == "\n":
                self._skill = self._base
            else:
                self._skill = fixes.reparse(self._base, text)
        return self._skill

    @property
    def result(self) -> ValidationResult:
        if self._result is None or self._result.skill is not self.skill:
            self._result = validate_skill(self.skill, self.target)
        return self._result

    # -- changing it -----------------------------------------------------------------------------------

    def set_text(self, text: str) -> None:
        """Replace the text by the smallest edit (one undo step)."""
        replace_text(self.document, self.text(), text)

    def set_target(self, target: str) -> None:
        """Judge the text for another client from now on, and say so at once."""
        if target != self.target:
            self.target = target
            self._result = None
            self.validate_now()

    def validate_now(self) -> ValidationResult:
        self._timer.stop()
        result = self.result
        self.validated.emit(result)
        return result

    def save(self) -> None:
        """Write the text atomically (restoring CRLF line ends if the file had them)."""
        text = self.text()
        data = text.replace("\n", self.newline) if self.newline != "\n" else text
        atomic_write_text(self.skill_file, data)
        self.disk_text = text
        self._base = fixes.reparse(self._base, data)
        self._base.files = list_skill_files(self.directory)
        self._skill = None
        self.document.setModified(False)
        self.saved.emit()

    def saved_as(self, directory: Path) -> None:
        """An untitled draft was written as the skill folder `directory`: it is that skill now."""
        text = self.text()
        self.untitled = False
        self._base = fixes.reparse(self._base, text, directory)
        self._base.files = list_skill_files(directory)
        self.disk_text = text
        self._skill = None
        self._result = None
        self.document.setModified(False)
        self.saved.emit()

    def reload(self, disk_text: str) -> None:
        """Take the text read from disk (the change stays undoable) and mark it clean."""
        text = disk_text.replace("\r\n", "\n")
        self.newline = "\r\n" if "\r\n" in disk_text else "\n"
        self.set_text(text)
        self.disk_text = text
        self._base.files = list_skill_files(self.directory)
        self.document.setModified(False)
        self.validate_now()

    def retarget(self, directory: Path) -> None:
        """Follow the skill to a new folder (after a rename)."""
        self._base = fixes.reparse(self._base, self._base.source, directory)
        self._skill = None
        self._result = None

    def _on_document_contents_changed(self) -> None:
        self._text = None
        self._skill = None
        if self.document.isModified() and self.text() == self.disk_text:
            # Typed back to what is on disk (not via undo): nothing is unsaved any more.
            self.document.setModified(False)
        self._timer.start()
        self.text_changed.emit()
