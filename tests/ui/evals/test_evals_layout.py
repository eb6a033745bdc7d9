"""The Evals view at the sizes people have (issue 28): at 1600x1000 with the chat dock open and at
1280x720 without it, the frontmatter form folds away, nothing in the view scrolls sideways and no
button is cut; the form comes back with the Body view, on the side the user picked, and the
choices and split positions are kept with the window's settings."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QScrollArea, QWidget
from pytestqt.exceptions import TimeoutError as WaitTimeout
from pytestqt.qtbot import QtBot

from studio.settings import load_settings
from studio.ui.evals.panel import EvalsPanel
from studio.ui.mainwindow import MainWindow
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.evals.test_evals_tab import ACTIVATE, RUN_HELLO, open_panel, wait_run, write_evals


def sideways(panel: EvalsPanel) -> list[str]:
    """The scroll areas of the view that show a horizontal scroll bar, and the buttons whose
    text does not fit them."""
    found = []
    for area in panel.findChildren(QAbstractScrollArea):
        bar = area.horizontalScrollBar()
        if area.isVisible() and bar.isVisible() and bar.maximum() > 0:
            found.append(f"{type(area).__name__} {area.objectName()} scrolls by {bar.maximum()}")
    for button in panel.findChildren(QAbstractButton):
        if button.isVisible() and button.width() < button.sizeHint().width():
            found.append(f"button {button.text()!r}: {button.width()} < {button.sizeHint().width()}")
    return found


def run_with_results(qtbot: QtBot, window: MainWindow, skills: Path,
                     fake_ollama: FakeOllama) -> EvalsPanel:
    panel = open_panel(window, skills)
    fake_ollama.script(ACTIVATE, reply("no"), ACTIVATE, RUN_HELLO,
                       reply("It says hello from the skill"), reply("Hello!"))
    panel.run(without=True)
    wait_run(qtbot, panel)
    assert panel.report is not None and not panel.report.problems, panel.status.text()
    return panel


def settle(qtbot: QtBot, widget: QWidget) -> None:
    """Let the window lay itself out at its new size."""
    qtbot.waitUntil(lambda: widget.isVisible() and widget.width() > 0)
    for _ in range(3):
        qtbot.wait(0)


@pytest.mark.parametrize(("size", "chat"), [((1600, 1000), True), ((1280, 720), False)])
def test_the_evals_view_fits_without_sideways_scrolling(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot,
    size: tuple[int, int], chat: bool
) -> None:
    write_evals(chat_skills)
    window = chat_window()
    window.chat.dock.setVisible(chat)
    window.resize(*size)
    panel = run_with_results(qtbot, window, chat_skills, fake_ollama)
    settle(qtbot, panel)
    tab = panel.tab
    assert window.size().width() == size[0] and tab.form_pane.isHidden(), "the form folds away"
    assert panel.width() >= tab.width() - 10, "the view takes the tab's whole width"
    assert sideways(panel) == []
    for page in range(panel.results.tables.count()):
        panel.results.tables.setCurrentIndex(page)
        settle(qtbot, panel)
        assert sideways(panel) == [], panel.results.tables.tabText(page)
    tab.views.setCurrentWidget(tab.body_editor)
    settle(qtbot, tab)
    assert tab.form_pane.isVisible() and tab.form_pane.width() >= 300
    for view in (tab.raw_editor, tab.preview, tab.files_view):
        tab.views.setCurrentWidget(view)
        assert tab.form_pane.isHidden(), tab.views.tabText(tab.views.currentIndex())


def test_the_form_follows_the_users_choice_and_side_and_is_kept(
    chat_window: ChatWindowFactory, chat_skills: Path, tmp_path: Path, qtbot: QtBot
) -> None:
    write_evals(chat_skills)
    window = chat_window()
    window.resize(1280, 720)
    panel = open_panel(window, chat_skills)
    tab = panel.tab
    fold = tab.fold
    assert tab.form_pane.isHidden() and not fold.button.isChecked()
    fold.button.click()
    assert tab.form_pane.isVisible() and tab.splitter.indexOf(tab.form_pane) == 0
    fold.layout.set_side("right")
    assert tab.splitter.indexOf(tab.form_pane) == 1
    tab.views.setCurrentWidget(tab.body_editor)
    fold.button.click()
    assert tab.form_pane.isHidden(), "folded beside the Body view too, as asked"
    panel.split.moveSplitter(150, 1)
    moved = panel.split.sizes()
    window.close_without_asking()
    kept = load_settings(tmp_path / "chat-settings.yaml").settings.window.tabs
    assert kept.startswith("body=0;others=1;side=right;") and "split.evals=" in kept
    again = chat_window()
    panel = open_panel(again, chat_skills)
    reopened = panel.tab
    assert reopened.form_pane.isVisible() and reopened.splitter.indexOf(reopened.form_pane) == 1
    assert panel.split.sizes()[0] == moved[0]


# What the view gets at 1600x1000 with the library panel and the chat dock open at their first
# widths (about 700 px, seen on a virtual screen); its options in one row once needed 781.
ROOM_BESIDE_LIBRARY_AND_CHAT = 700


def test_the_evals_view_needs_no_more_room_than_it_gets_beside_library_and_chat(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills)
    window = chat_window()
    panel = run_with_results(qtbot, window, chat_skills, fake_ollama)
    settle(qtbot, panel)
    body = panel.findChild(QScrollArea).widget()

    def fits() -> bool:
        return body.minimumSizeHint().width() <= ROOM_BESIDE_LIBRARY_AND_CHAT

    # In two of five whole runs of the suite the view needed 807 px just after the run (alone,
    # 687 every time; its row of buttons 679 either way), cause not found: its layout gets time
    # to settle, and if it does not, the widest widgets are named.
    if not fits():
        with contextlib.suppress(WaitTimeout):
            qtbot.waitUntil(fits, timeout=5000)
    assert fits(), sorted(
        ((w.minimumSizeHint().width(), type(w).__name__, w.objectName())
         for w in body.findChildren(QWidget) if w.isVisible()), reverse=True)[:6]
