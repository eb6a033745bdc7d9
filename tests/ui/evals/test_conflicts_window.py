"""Tools ▸ Routing Conflicts: the library's skills a model will confuse, each conflict naming
both skills and opening either with a click; the descriptions are compared in the window's own
worker thread, and the trigger queries asked of the scripted server picked in the chat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.ui.evals import conflicts
from studio.ui.evals.conflicts import ConflictsModel
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import write_skill

INVOICES = ("Extracts line items and totals from invoice PDF files. Use when the user has an "
            "invoice PDF to read.")
PDF_INVOICES = ("Reads invoice PDF files and extracts their line items and totals. Use for "
                "invoice PDFs.")


@pytest.fixture(autouse=True)
def words_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compare by words: the answers stay the same whether the local embedding model is
    installed on the machine or not."""
    monkeypatch.setattr(conflicts, "local_embedder", lambda: (None, ""))


def test_conflicting_pairs_are_listed_and_each_skill_opens(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_skill(chat_skills, "invoice-pdf", description=INVOICES)
    other = write_skill(chat_skills, "pdf-invoices", description=PDF_INVOICES)
    (other / "evals").mkdir()
    (other / "evals" / "triggers.json").write_text(json.dumps(
        [{"query": "sum up the totals of bill.pdf", "should_trigger": True}]))
    window = chat_window()
    action = window.evals.conflicts_action
    assert action in window.menus.tools.actions()
    action.trigger()
    view = window.evals.conflicts
    assert view is not None and view.isVisible()
    task = view.search()
    assert task is not None
    qtbot.waitUntil(task.done, timeout=10000)
    model = view.model
    assert model.rowCount() == 1
    names = {model.index(0, column).data() for column in (ConflictsModel.FIRST, ConflictsModel.SECOND)}
    assert names == {"invoice-pdf", "pdf-invoices"}
    assert "invoic" in model.index(0, 3).data()
    assert view.status.text().startswith("3 skills: 1 overlapping descriptions")
    view.view.clicked.emit(model.index(0, ConflictsModel.SECOND))
    second = model.skill_at(model.index(0, ConflictsModel.SECOND))
    assert second is not None
    current = window.editors.current_tab()
    assert current is not None and current.path.parent == second.directory

    # Asked of the model, the query of pdf-invoices loads invoice-pdf: a second kind of conflict.
    fake_ollama.script(calls(Call("activate_skill", {"name": "invoice-pdf"})), reply("ok"))
    task = view.search(ask_model=True)
    assert task is not None
    qtbot.waitUntil(task.done, timeout=10000)
    assert model.rowCount() == 2 and len(fake_ollama.chats) == 1
    assert model.index(1, 0).data() == "query loads another"
    owner = model.skill_at(model.index(1, ConflictsModel.FIRST))
    loaded = model.skill_at(model.index(1, ConflictsModel.SECOND))
    assert owner is not None and owner.name == "pdf-invoices"
    assert loaded is not None and loaded.name == "invoice-pdf"
    assert "1 queries that load another skill" in view.status.text()
