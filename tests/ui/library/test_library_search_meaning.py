"""The window's search ranks by words and meaning, as `studio search` does, when an embedding model
is at hand: the library is embedded in the background with progress, results ranked by words
meanwhile say so, and a model that fails leaves the search to words with the reason."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.skills.search import EmbeddingError
from studio.skills.search.index import SearchIndex
from studio.ui.library.search_results import HIT_ROLE
from studio.ui.mainwindow import MainWindow
from tests.fakes.embeddings import CONCEPTS, FakeEmbedder
from tests.ui.helpers import WindowFactory, write_skill

SHIPPED = Path(__file__).resolve().parents[2] / "skills"
OTHERS = 2000
WORDS = ("invoice", "weather", "recipe", "budget", "poster", "calendar", "router", "backup",
         "sensor", "lyrics", "garden", "ticket", "archive", "render", "portfolio", "survey",
         "podcast", "payroll", "itinerary", "glossary", "inventory", "translate", "diagram")
QUERIES = ("make a slide deck for the board", "convert miles to metric", "profile a spreadsheet",
           "lint my git changeset", "plan a garden budget")


def _others(root: Path) -> None:
    """Skills whose texts mix everyday words with the fake model's concept words, so that words
    and meaning rank them differently."""
    chooser = random.Random(28)
    concept_words = [word for group in CONCEPTS for word in group]
    for number in range(OTHERS):
        words = chooser.sample(WORDS, 3) + chooser.sample(concept_words, chooser.randint(0, 2))
        write_skill(root, f"skill-{number:04d}-{words[0]}",
                    description=f"Works with {' and '.join(words)}. Use when asked about {words[1]}.",
                    body=f"# Steps\n\nRead the {words[2]} first, then the {words[-1]}.\n")


def _search(qtbot: QtBot, window: MainWindow, query: str, expected: str) -> list[tuple[str, Path]]:
    panel = window.library_panel
    # The label is set again with the results it counts: once it says so, the rows are the query's.
    panel.count_label.clear()
    panel.filter_edit.setText(query)
    qtbot.waitUntil(lambda: expected in panel.count_label.text(), timeout=30000)
    return [(hit.name, hit.path) for hit in
            (panel.results.index(row).data(HIT_ROLE) for row in range(panel.results.rowCount()))]


def test_the_window_ranks_like_the_core_s_fused_search(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    others = tmp_path / "others"
    _others(others)
    window = make_window(SHIPPED, others, wait=False)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=120000)
    assert window.library.skill_count == OTHERS + len(list(SHIPPED.glob("*/SKILL.md")))
    model = FakeEmbedder()
    window.search.embedder_source = lambda: model
    window.library_panel.search_button.setChecked(True)
    qtbot.waitUntil(lambda: model.embedded >= window.library.skill_count and not window.search.embedding,
                    timeout=120000)

    differs = 0
    with SearchIndex(None) as core:
        core.update(window.library.summaries())
        core.embed(FakeEmbedder())
        for query in QUERIES:
            shown = _search(qtbot, window, query, "ranked by words + meaning")
            fused = [(hit.name, hit.path) for hit in core.search(query, 50, FakeEmbedder()).hits]
            words = [(hit.name, hit.path) for hit in core.search(query, 50).hits]
            assert shown == fused, query
            differs += shown != words
    assert differs >= 3, "the fused order should differ from the words' for most queries"


class GatedEmbedder(FakeEmbedder):
    """Embeds only once the test opens the gate; raises what it is given instead."""

    def __init__(self, error: EmbeddingError | None = None) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.error = error

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.gate.wait(30)
        if self.error is not None:
            raise self.error
        return super().embed(texts)


def test_words_rank_while_the_library_is_embedded_then_meaning_joins(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    write_skill(skills_root, "keynote-builder", description="Builds keynote presentations.")
    window = make_window(skills_root)
    model = GatedEmbedder()
    window.search.embedder_source = lambda: model
    panel = window.library_panel
    panel.search_button.setChecked(True)
    panel.filter_edit.setText("slide deck csv")
    qtbot.waitUntil(lambda: panel.results.rowCount() == 1, timeout=10000)
    assert panel.count_label.text() == (
        "1 skill found, ranked by words only (embedding for meaning with the fake concepts model…)")
    assert window.search.embedding

    model.gate.set()
    qtbot.waitUntil(lambda: "words + meaning" in panel.count_label.text(), timeout=10000)
    names = [panel.results.index(row).data(HIT_ROLE).name for row in range(panel.results.rowCount())]
    assert names[:2] == ["csv-profiler", "keynote-builder"]
    assert panel.count_label.text() == f"{len(names)} skills found, ranked by words + meaning"


def test_a_model_that_fails_leaves_the_search_to_words_and_says_why(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    model = GatedEmbedder(EmbeddingError("The embedding server at http://127.0.0.1:9 is not running."))
    model.gate.set()
    window.search.embedder_source = lambda: model
    panel = window.library_panel
    panel.search_button.setChecked(True)
    panel.filter_edit.setText("csv columns")
    qtbot.waitUntil(lambda: not window.search.embedding
                    and "is not running" in panel.count_label.toolTip(), timeout=10000)
    assert panel.count_label.text() == "1 skill found, ranked by words only"
    assert panel.count_label.toolTip() == (
        "ranked by words only: The embedding server at http://127.0.0.1:9 is not running.")
