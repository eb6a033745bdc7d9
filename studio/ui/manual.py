"""Help ▸ Manual: the pages of `docs/`, rendered in the window by the preview's Markdown renderer,
with their links between pages followed in place and links out opened in the browser.

The pages are the wheel's copy of docs/ or, run from a checkout, docs/ itself (`studio.paths`);
a copy installed some other way without them gets a message saying where to read them.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
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
from studio.ui.links import open_link

PAGE_ROLE = Qt.ItemDataRole.UserRole + 1
FIRST_PAGES = ("editor.md", "chat.md", "evals.md", "cli.md", "settings.md", "security.md")


def page_title(page: Path) -> str:
    for line in page.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem.replace("-", " ").capitalize()


class ManualDialog(QDialog):
    """The manual's pages in a list (the usual first pages first), the one picked rendered."""

    def __init__(self, folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Skill Studio Manual")
        self.folder = folder
        pages = sorted(folder.glob("*.md"),
                       key=lambda p: (FIRST_PAGES.index(p.name) if p.name in FIRST_PAGES
                                      else len(FIRST_PAGES), p.name))
        self.pages = QListWidget()
        self.pages.setAccessibleName("Manual pages")
        for page in pages:
            item = QListWidgetItem(page_title(page))
            item.setData(PAGE_ROLE, str(page))
            item.setToolTip(str(page))
            self.pages.addItem(item)
        self.view = QTextBrowser()
        self.view.setAccessibleName("Manual page")
        self.view.setOpenLinks(False)
        self.view.setSearchPaths([str(folder)])
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
        """Show the page of this file name; False when the manual has none."""
        for row in range(self.pages.count()):
            if Path(self.pages.item(row).data(PAGE_ROLE)).name == name:
                self.pages.setCurrentRow(row)
                return True
        return False

    def _on_pages_current_item_changed(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        page = Path(item.data(PAGE_ROLE))
        rendered = render_markdown(page.read_text(encoding="utf-8", errors="replace"))
        # The pages' screenshots are as wide as a screen: shown at the page's width, they leave
        # no text to scroll sideways to.
        width = max(200, self.view.viewport().width() - 24)
        self.view.setHtml(re.sub(r"<img ", f'<img width="{width}" ', rendered))

    def _on_view_anchor_clicked(self, url: QUrl) -> None:
        if url.isRelative() and url.path().endswith(".md"):
            if self.show_page(Path(url.path()).name):
                return
            QDesktopServices.openUrl(QUrl.fromLocalFile(str((self.folder / url.path()).resolve())))
        elif url.isRelative():
            self.view.scrollToAnchor(url.fragment())
        else:
            open_link(url)


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
