"""A plain editor tab for one file of a skill (a script, a reference), saved atomically."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import QLabel, QPlainTextDocumentLayout, QVBoxLayout, QWidget

from studio.fsutil import atomic_write_text
from studio.ui.editor.code_editor import CodeEditor
from studio.ui.editor.document import plain_text, replace_text
from studio.ui.editor.highlighter import MarkdownHighlighter

MAX_EDITABLE_BYTES = 4 * 1024 * 1024


def read_text_file(path: Path) -> tuple[str, str]:
    """(text, why it cannot be edited or ""): binary, too large and non-UTF-8 files are refused."""
    try:
        size = path.stat().st_size
        if size > MAX_EDITABLE_BYTES:
            return "", f"{path.name} is {size / 1048576:.1f} MiB; files over 4 MiB are not opened."
        data = path.read_bytes()
    except OSError as exc:
        return "", f"{path} cannot be read: {exc.strerror or exc}."
    return decode_text(path.name, data)


def decode_text(name: str, data: bytes) -> tuple[str, str]:
    if b"\x00" in data[:8192]:
        return "", f"{name} is a binary file; open it with another program."
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        return "", f"{name} is not UTF-8 text (byte {exc.start}); open it with another program."


class FileTab(QWidget):
    """One file of a skill in a plain editor.

    Attributes:
        make_folder: saving makes the file's folder when it is missing (a restored file).

    Signals:
        dirty_changed: (bool) the text now differs (or no longer differs) from the file.
    """

    dirty_changed = Signal(bool)

    def __init__(self, path: Path, text: str, font: QFont, *, read_only: bool = False,
                 why: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._path = path
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.disk_text = text.replace("\r\n", "\n")
        self.read_only = read_only or bool(why)
        # A file restored after a crash whose folder went meanwhile (an eval file in evals/):
        # saving makes that one folder again.
        self.make_folder = False
        self.document = QTextDocument(self)
        self.document.setDocumentLayout(QPlainTextDocumentLayout(self.document))
        self.document.setPlainText(self.disk_text)
        self.document.setModified(False)
        self.editor = CodeEditor()
        self.editor.setDocument(self.document)
        self.editor.setReadOnly(self.read_only)
        self.editor.setFont(font)
        self.editor.setLineWrapMode(CodeEditor.LineWrapMode.NoWrap)
        self._highlighter = (MarkdownHighlighter(self.document)
                             if path.suffix.lower() in (".md", ".markdown") else None)
        self.banner = banner = QLabel(why or ("This file is inside a zip archive and opens "
                                              "read-only." if read_only else ""))
        banner.setObjectName("banner")
        banner.setWordWrap(True)
        banner.setVisible(self.read_only)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(banner)
        layout.addWidget(self.editor, 1)
        self.document.modificationChanged.connect(self._on_document_modification_changed)
        self.document.contentsChanged.connect(self._on_document_contents_changed)

    @property
    def path(self) -> Path:
        return self._path

    @property
    def title(self) -> str:
        return self._path.name

    @property
    def dirty(self) -> bool:
        return self.document.isModified()

    def text(self) -> str:
        return plain_text(self.document)

    def set_text(self, text: str) -> None:
        replace_text(self.document, self.text(), text)

    def refresh_colors(self) -> None:
        if self._highlighter is not None:
            self._highlighter.refresh_colors()

    def undo(self) -> None:
        self.document.undo()

    def redo(self) -> None:
        self.document.redo()

    def set_editor_font(self, font: QFont) -> None:
        self.editor.setFont(font)

    def save(self) -> None:
        text = self.text()
        if self.make_folder and not self._path.parent.is_dir():
            self._path.parent.mkdir()
        atomic_write_text(self._path, text.replace("\n", self.newline) if self.newline != "\n"
                          else text)
        self.disk_text = text
        self.document.setModified(False)
        self.banner.hide()

    def show_note(self, text: str) -> None:
        """Say something about the tab above it (it goes once the tab is saved)."""
        self.banner.setText(text)
        self.banner.show()

    def reload(self, disk_text: str) -> None:
        self.newline = "\r\n" if "\r\n" in disk_text else "\n"
        text = disk_text.replace("\r\n", "\n")
        self.set_text(text)
        self.disk_text = text
        self.document.setModified(False)

    def retarget(self, path: Path) -> None:
        """Follow the file to its new place (after its skill folder was renamed)."""
        self._path = path

    def go_to(self, line: int) -> None:
        self.editor.go_to(line)

    def _on_document_contents_changed(self) -> None:
        if self.document.isModified() and self.text() == self.disk_text:
            self.document.setModified(False)

    def _on_document_modification_changed(self, dirty: bool) -> None:
        self.dirty_changed.emit(dirty)
