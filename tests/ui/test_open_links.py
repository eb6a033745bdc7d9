"""Links in the window's text (the manual, a model's answer) open in the browser only when they
are http, https or mailto: any other scheme would start whatever program claims it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from studio.ui.chat.transcript import MessageView
from studio.ui.links import open_link


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    urls: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: urls.append(url.toString()) or True)
    return urls


@pytest.mark.parametrize(("url", "opens"), [
    ("https://example.org/x", True), ("http://example.org/", True), ("mailto:a@example.org", True),
    ("file:///tmp/run.desktop", False), ("vscode://vscode.git/clone?url=x", False),
    ("ssh://-oProxyCommand=id/x", False), ("javascript:alert(1)", False), ("smb://host/s", False),
])
def test_only_web_and_mail_links_open(opened: list[str], url: str, opens: bool) -> None:
    assert open_link(QUrl(url)) is opens
    assert opened == ([QUrl(url).toString()] if opens else [])


def test_a_link_in_a_models_answer_goes_through_the_same_check(
    qtbot: QtBot, opened: list[str]
) -> None:
    view = MessageView("[docs](https://example.org/) and [run](file:///tmp/run.desktop)")
    qtbot.addWidget(view)
    (segment,) = view.segments
    assert not segment.openExternalLinks()
    segment.anchorClicked.emit(QUrl("file:///tmp/run.desktop"))
    segment.anchorClicked.emit(QUrl("https://example.org/"))
    assert opened == ["https://example.org/"]
