"""The bar above the chat where there is no sandbox: it names the real cause and what to do, and
stays; where there is a sandbox, there is no bar."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

import studio.ui.chat.sandbox_bar as sandbox_bar
from studio.agent.sandbox import INSTALL_BWRAP, Support, classify
from tests.ui.chat.chat_helpers import ChatWindowFactory

MISSING = Support(None, problem="bubblewrap (bwrap) is not installed", remedy=INSTALL_BWRAP)


def test_the_bar_names_the_cause_and_what_to_do(
    chat_window: ChatWindowFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox_bar, "detect_sandbox", lambda: MISSING)
    pane = chat_window().chat.pane
    qtbot.waitUntil(pane.sandbox_bar.isVisible, timeout=10000)
    text = pane.sandbox_bar.text()
    assert text.startswith("<b>Commands run without a sandbox:</b> bubblewrap (bwrap) is not "
                           "installed. Every command is asked about")
    assert "automatic approval runs none. <b>To fix:</b> Install it (`sudo apt install bubblewrap`" in text
    assert text.endswith("then restart the studio.")
    # Persistent: a turn, a new chat leave it where it is.
    pane.chat_actions.new_chat()
    assert pane.sandbox_bar.isVisible()


def test_with_a_sandbox_there_is_no_bar(
    chat_window: ChatWindowFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox_bar, "detect_sandbox", lambda: Support("bwrap", "/usr/bin/bwrap"))
    pane = chat_window().chat.pane
    qtbot.waitUntil(lambda: pane.sandbox_bar.support is not None, timeout=10000)
    assert not pane.sandbox_bar.isVisible() and pane.sandbox_bar.text() == ""


def test_the_bar_text_escapes_what_it_quotes() -> None:
    text = sandbox_bar.bar_text(Support(None, problem="bubblewrap cannot <b>start</b>"))
    assert "&lt;b&gt;start&lt;/b&gt;" in text and "<b>start</b>" not in text


def test_bubblewraps_own_words_go_to_the_tooltip(qtbot: QtBot) -> None:
    problem, remedy = classify("bwrap: No permissions to create new namespace, likely because the "
                               "kernel does not allow non-privileged user namespaces. On e.g. "
                               "debian this can be enabled with 'sysctl x=1'.", 1, "/usr/bin/python3")
    bar = sandbox_bar.SandboxBar()
    qtbot.addWidget(bar)
    bar.show_support(Support(None, problem=problem, remedy=remedy))
    assert "No permissions" not in bar.text() and "No permissions" in bar.toolTip()
    assert ("sandbox:</b> bubblewrap cannot create a user namespace here: unprivileged user "
            "namespaces are disabled. Every command") in bar.text()
