"""The manual's links (issue 44): the README opens inside the manual (from a checkout, and from a
wheel, whose README is the package's metadata), links from the README to the pages follow in place,
web links go to the browser through Qt's desktop services and, when there is none, a message says
so with the address to copy; a file of the source that is not a page is said to be one, never handed
to the desktop. The contents' titles wrap instead of scrolling sideways."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.paths import manual_folder
from studio.ui.manual import ManualDialog


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the desktop was asked to open; it has no program for any of it."""
    urls: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: urls.append(url.toString()) and False)
    return urls


def manual(qtbot: QtBot, folder: Path | None = None) -> ManualDialog:
    found = folder or manual_folder()
    assert found is not None
    dialog = ManualDialog(found)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_readme_link_opens_the_readme_in_the_manual(qtbot: QtBot, opened: list[str]) -> None:
    dialog = manual(qtbot)
    assert dialog.show_page("editor.md")
    dialog.view.anchorClicked.emit(QUrl("../README.md"))
    assert dialog.shown == "README.md"
    assert dialog.pages.currentItem().text().endswith("(README)")
    assert "Agent Skills" in dialog.view.toPlainText()
    assert opened == [] and dialog.message is None
    # The README's own links are to docs/: they are the manual's pages.
    dialog.view.anchorClicked.emit(QUrl("docs/chat.md"))
    assert dialog.shown == "docs/chat.md"
    assert Path(dialog.pages.currentItem().toolTip()).name == "chat.md"


def test_a_wheels_readme_comes_from_the_package_metadata(
    qtbot: QtBot, tmp_path: Path, opened: list[str]
) -> None:
    folder = tmp_path / "site" / "manual"
    folder.mkdir(parents=True)
    (folder / "editor.md").write_text("# Browsing\n\nBack to the [README](../README.md).\n",
                                      encoding="utf-8")
    dialog = manual(qtbot, folder)
    assert dialog.pages.count() == 2
    dialog.view.anchorClicked.emit(QUrl("../README.md"))
    assert dialog.shown == "README.md" and "Agent Skills" in dialog.view.toPlainText()
    assert opened == []


def test_a_web_link_goes_to_the_desktop_and_a_message_says_when_nothing_opens_it(
    qtbot: QtBot, opened: list[str]
) -> None:
    dialog = manual(qtbot)
    dialog.view.anchorClicked.emit(QUrl("https://agentskills.io/specification"))
    assert opened == ["https://agentskills.io/specification"]
    box = dialog.message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "https://agentskills.io/specification" in box.text() and "browser" in box.text()
    copy = next(b for b in box.buttons() if b.text() == "Copy Address")
    copy.click()
    assert QGuiApplication.clipboard().text() == "https://agentskills.io/specification"


def test_a_web_link_the_browser_opens_says_nothing(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: True)
    dialog = manual(qtbot)
    dialog.view.anchorClicked.emit(QUrl("https://agentskills.io/"))
    assert dialog.message is None


@pytest.mark.parametrize("link", ["../benchmarks/README.md", "../LICENSE", "file:///etc/passwd"])
def test_a_file_outside_the_manual_is_named_not_handed_to_the_desktop(
    qtbot: QtBot, opened: list[str], link: str
) -> None:
    dialog = manual(qtbot)
    dialog.show_page("evals.md")
    dialog.view.anchorClicked.emit(QUrl(link))
    assert opened == []
    assert dialog.shown == "docs/evals.md"
    box = dialog.message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert link.removeprefix("../") in box.text()


def test_the_contents_titles_wrap_without_a_sideways_scroll_bar(qtbot: QtBot) -> None:
    dialog = manual(qtbot)
    dialog.resize(900, 600)
    splitter = dialog.pages.parentWidget()
    assert splitter is not None
    splitter.setSizes([130, 770])  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: dialog.pages.width() < 160)
    pages = dialog.pages
    assert pages.horizontalScrollBar().maximum() == 0
    line = pages.fontMetrics().height()
    longest = max(range(pages.count()), key=lambda row: len(pages.item(row).text()))
    rect = pages.visualRect(pages.indexFromItem(pages.item(longest)))
    assert rect.right() <= pages.viewport().width()
    assert rect.height() >= 2 * line, "the longest title takes two lines or more"
