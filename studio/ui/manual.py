"""Help ▸ Manual: the pages of `docs/` and the README, rendered in the window by the preview's
Markdown renderer, with their links between pages followed in place and links out opened in the
browser (or a message saying why not, with the address to copy).

The pages are the wheel's copy of docs/ or, run from a checkout, docs/ itself (`studio.paths`);
a copy installed some other way without them gets a message saying where to read them. The
README is the checkout's, or the one the package's metadata carries (a wheel has no README file).
Links are resolved as in the source tree, where the pages sit in docs/ and the README above them:
`../README.md` from a page, `docs/chat.md` from the README.
"""

from __future__ import annotations

import posixpath
import re
from importlib.metadata import PackageNotFoundError, metadata
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.paths import manual_folder
from studio.ui.editor.preview import render_markdown
from studio.ui.links import open_link_or_say

PAGE_ROLE = Qt.ItemDataRole.UserRole + 1
FIRST_PAGES = ("editor.md", "chat.md", "evals.md", "cli.md", "settings.md", "security.md")
README = "README.md"
# Where the pages sit in the source tree, which their links are written for.
PAGES_AT = "docs"
DISTRIBUTION = "skill-studio"
_IMAGE = re.compile(r'<img src="([^"]+)"')


def page_title(page: Path) -> str:
    return text_title(page.read_text(encoding="utf-8", errors="replace"), page.stem)


def text_title(text: str, stem: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return stem.replace("-", " ").capitalize()


def readme_text(folder: Path) -> str | None:
    """The README beside the manual's folder (a checkout), else the one in the package's
    metadata (a wheel), else None."""
    beside = folder.parent / README
    if beside.is_file():
        return beside.read_text(encoding="utf-8", errors="replace")
    try:
        description = metadata(DISTRIBUTION).json.get("description")
    except PackageNotFoundError:
        return None
    return description if isinstance(description, str) and description.strip() else None


class ManualDialog(QDialog):
    """The manual's pages in a list (the usual first pages first), the one picked rendered."""

    def __init__(self, folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Skill Studio Manual")
        self.folder = folder
        pages = sorted(folder.glob("*.md"),
                       key=lambda p: (FIRST_PAGES.index(p.name) if p.name in FIRST_PAGES
                                      else len(FIRST_PAGES), p.name))
        self.readme = readme_text(folder)
        self.pages = QListWidget()
        self.pages.setAccessibleName("Manual pages")
        # Long titles wrap rather than scroll the contents sideways.
        self.pages.setWordWrap(True)
        self.pages.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.pages.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.pages.setResizeMode(QListWidget.ResizeMode.Adjust)
        for page in pages:
            item = QListWidgetItem(page_title(page))
            item.setData(PAGE_ROLE, f"{PAGES_AT}/{page.name}")
            item.setToolTip(str(page))
            self.pages.addItem(item)
        if self.readme is not None:
            item = QListWidgetItem(f"{text_title(self.readme, 'readme')} (README)")
            item.setData(PAGE_ROLE, README)
            item.setToolTip("The README: what Skill Studio is, and its first steps")
            self.pages.addItem(item)
        self.shown = ""
        self.message: QMessageBox | None = None
        self.view = QTextBrowser()
        self.view.setAccessibleName("Manual page")
        self.view.setOpenLinks(False)
        self.view.setSearchPaths([str(folder), str(folder.parent)])
        splitter = QSplitter()
        splitter.addWidget(self.pages)
        splitter.addWidget(self.view)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([280, 720])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        self.pages.currentItemChanged.connect(self._on_pages_current_item_changed)
        self.view.anchorClicked.connect(self._on_view_anchor_clicked)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(1000, 680)
        if pages:
            self.pages.setCurrentRow(0)

    def show_page(self, name: str) -> bool:
        """Show the manual's page of this file name (or the README); False when it has none."""
        where = README if name == README else f"{PAGES_AT}/{name}"
        for row in range(self.pages.count()):
            if self.pages.item(row).data(PAGE_ROLE) == where:
                self.pages.setCurrentRow(row)
                return True
        return False

    def _on_pages_current_item_changed(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self._render(str(item.data(PAGE_ROLE)))

    def _render(self, where: str) -> None:
        """Show the page at `where` in the source tree (README.md, docs/NAME.md)."""
        if where == README:
            text = self.readme or ""
        else:
            text = (self.folder / posixpath.basename(where)).read_text(encoding="utf-8",
                                                                       errors="replace")
        self.shown = where
        here = posixpath.dirname(where)
        # The pages' screenshots are as wide as a screen: shown at the page's width, they leave
        # no text to scroll sideways to. Each is found in the manual's folder, wherever the page
        # that shows it sits (the README's `docs/shot.png` is the manual's `shot.png`).
        width = max(200, self.view.viewport().width() - 24)
        self.view.setHtml(_IMAGE.sub(
            lambda m: f'<img width="{width}" src="{self._image(here, m.group(1))}"',
            render_markdown(text)))

    def _image(self, here: str, source: str) -> str:
        if "://" in source:
            return source
        path = posixpath.normpath(posixpath.join(here, source))
        return posixpath.basename(path) if path.startswith(f"{PAGES_AT}/") else path

    def _on_view_anchor_clicked(self, url: QUrl) -> None:
        if not url.isRelative():
            self.message = open_link_or_say(url, self)
            return
        if not url.path():
            self.view.scrollToAnchor(url.fragment())
            return
        where = posixpath.normpath(posixpath.join(posixpath.dirname(self.shown), url.path()))
        if (where == README or posixpath.dirname(where) == PAGES_AT) and self.show_page(
                posixpath.basename(where)):
            if url.fragment():
                self.view.scrollToAnchor(url.fragment())
            return
        self.message = QMessageBox(
            QMessageBox.Icon.Information, "Not in the manual",
            f"{where} is a file of Skill Studio's source, not a page of the manual. Read it in "
            "a checkout of the source (the folder with docs/ and README.md).",
            QMessageBox.StandardButton.Close, self)
        self.message.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message.open()


def show_manual(parent: QWidget) -> QDialog:
    folder = manual_folder()
    if folder is None:
        box = QMessageBox(QMessageBox.Icon.Information, "Manual not installed",
                          "This copy of Skill Studio was installed without its manual. Read it "
                          "in the docs/ folder of the studio's source, or run `studio --help` "
                          "for the command line.", QMessageBox.StandardButton.Ok, parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return box
    dialog = ManualDialog(folder, parent)
    dialog.open()
    return dialog
