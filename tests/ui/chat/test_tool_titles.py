"""Every tool in the agent's registry is titled on its chat card by its record."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from studio.agent import TOOL_BOOK
from studio.chats import ToolRecord
from studio.ui.chat.cards import ToolCard


@pytest.mark.parametrize("name", list(TOOL_BOOK))
def test_every_tool_is_titled_on_its_card(name: str, qtbot: QtBot) -> None:
    card = ToolCard(ToolRecord("c1", name, "demo", "summary"))
    qtbot.addWidget(card)
    assert card.title.text() == f"<b>{TOOL_BOOK[name].title}</b> · demo"


def test_a_tool_outside_the_registry_is_titled_by_its_name(qtbot: QtBot) -> None:
    card = ToolCard(ToolRecord("c1", "old_tool", None, "summary"))
    qtbot.addWidget(card)
    assert card.title.text() == "<b>old_tool</b>"


@pytest.mark.parametrize("name", list(TOOL_BOOK))
def test_a_card_title_is_words_a_person_reads_not_the_tools_name(name: str) -> None:
    title = TOOL_BOOK[name].title
    assert "_" not in title and title[0].isupper() and title != name
