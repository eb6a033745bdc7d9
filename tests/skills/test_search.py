"""The search index: BM25 with field weights, kept up to date by stamps, fused with embeddings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from skills.helpers import frontmatter, write_skill

from studio.agent.embedders import SearchEmbedder
from studio.llm.embeddings import EmbeddingEndpoint
from studio.skills.scan.roots import SkillRoot, scan_library
from studio.skills.search.index import SearchIndex, fts_query
from studio.skills.summary import SkillSummary
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI

MODEL = "fake-embed"


def _summaries(*roots: Path) -> list[SkillSummary]:
    return [s for scan in scan_library([SkillRoot(r) for r in roots]) for s in scan.skills]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write_skill(root, "pdf-forms", frontmatter("pdf-forms", "Fill in PDF forms. Use for PDF paperwork."))
    write_skill(root, "slide-maker", frontmatter(
        "slide-maker", "Builds a keynote deck from an outline. Use when asked for slides."))
    write_skill(root, "csv-profiler", frontmatter(
        "csv-profiler", "Profiles tabular files. Use when the user shares a csv."))
    write_skill(root, "notes", frontmatter("notes", "Keeps meeting notes.").replace(
        "Body.", "Mention pdf once in the body."))
    return root


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    server = FakeOllama({MODEL: []})
    server.start()
    yield server
    server.stop()


def _names(outcome_hits: list[object]) -> list[str]:
    return [hit.name for hit in outcome_hits]  # type: ignore[attr-defined]


def test_a_word_in_the_name_outranks_the_same_word_in_the_body(library: Path) -> None:
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        outcome = index.search("pdf")
    assert _names(outcome.hits) == ["pdf-forms", "notes"]
    assert outcome.hits[0].score > outcome.hits[1].score
    assert outcome.mode == "lexical" and outcome.note is not None
    assert "[pdf]" in outcome.hits[1].snippet.lower()


def test_query_words_are_never_read_as_fts_syntax(library: Path) -> None:
    assert fts_query('pdf" OR name:* NEAR(') == '"pdf" OR "name" OR "near"'
    assert fts_query("  ...  ") is None
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        assert _names(index.search('pdf" AND (').hits)[0] == "pdf-forms"
        assert index.search("!!!").hits == []


def test_update_rereads_only_changed_skills_and_drops_removed_ones(library: Path, tmp_path: Path) -> None:
    path = tmp_path / "cache" / "index.sqlite3"
    with SearchIndex(path) as index:
        assert index.update(_summaries(library)) == 4
    with SearchIndex(path) as index:
        assert index.update(_summaries(library)) == 0
        skill = library / "notes" / "SKILL.md"
        skill.write_text(frontmatter("notes", "Keeps minutes of zeppelin meetings."), encoding="utf-8")
        os.utime(skill, ns=(1, 1))
        (library / "pdf-forms" / "SKILL.md").unlink()
        (library / "pdf-forms").rmdir()
        assert index.update(_summaries(library)) == 1
        assert _names(index.search("zeppelin").hits) == ["notes"]
        assert index.search("paperwork").hits == []


def test_search_is_limited_to_the_skills_last_given(library: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    write_skill(other, "pdf-merge", frontmatter("pdf-merge", "Merges PDF files."))
    with SearchIndex(tmp_path / "index.sqlite3") as index:
        index.update(_summaries(library, other))
        assert "pdf-merge" in _names(index.search("pdf").hits)
        index.update(_summaries(library))
        assert "pdf-merge" not in _names(index.search("pdf").hits)


def test_a_damaged_index_file_is_rebuilt(library: Path, tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with SearchIndex(path) as index:
        index.update(_summaries(library))
        assert _names(index.search("slides").hits) == ["slide-maker"]


def test_embeddings_find_a_paraphrase_that_shares_no_word(library: Path, ollama: FakeOllama) -> None:
    endpoint = SearchEmbedder(EmbeddingEndpoint("ollama", ollama.url, MODEL))
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        assert index.search("presentation").hits == []
        outcome = index.search("presentation", embedder=endpoint)
    assert outcome.mode == "fused" and outcome.note is None
    assert _names(outcome.hits)[0] == "slide-maker"


def test_vectors_are_cached_by_content_and_only_changed_skills_are_embedded_again(
    library: Path, tmp_path: Path, ollama: FakeOllama
) -> None:
    endpoint = SearchEmbedder(EmbeddingEndpoint("ollama", ollama.url, MODEL))
    path = tmp_path / "index.sqlite3"

    def embedded_texts() -> int:
        return sum(len(r.json["input"]) for r in ollama.requests_to("/api/embed"))

    with SearchIndex(path) as index:
        index.update(_summaries(library))
        index.search("deck", embedder=endpoint)
    assert embedded_texts() == 4 + 1
    skill = library / "csv-profiler" / "SKILL.md"
    skill.write_text(frontmatter("csv-profiler", "Profiles spreadsheets."), encoding="utf-8")
    os.utime(skill, ns=(1, 1))
    with SearchIndex(path) as index:
        index.update(_summaries(library))
        outcome = index.search("table", embedder=endpoint)
    assert embedded_texts() == 5 + 1 + 1
    assert _names(outcome.hits)[0] == "csv-profiler"


def test_openai_compatible_embeddings_are_fused_too(library: Path) -> None:
    with FakeOpenAI({MODEL: []}) as server, SearchIndex(None) as index:
        index.update(_summaries(library))
        model = SearchEmbedder(EmbeddingEndpoint("openai", server.url, MODEL))
        outcome = index.search("keynote", embedder=model)
    assert outcome.mode == "fused"
    assert _names(outcome.hits)[0] == "slide-maker"


def test_without_an_embedding_server_it_says_so_and_stays_lexical(library: Path, ollama: FakeOllama) -> None:
    with SearchIndex(None) as index:
        index.update(_summaries(library))
        nope = SearchEmbedder(EmbeddingEndpoint("ollama", ollama.url, "nope"))
        missing = index.search("slides", embedder=nope)
        ollama.stop()
        down = index.search("slides", embedder=SearchEmbedder(EmbeddingEndpoint("ollama", ollama.url, MODEL)))
    for outcome in (missing, down):
        assert outcome.mode == "lexical"
        assert outcome.note is not None and "lexical ranking only" in outcome.note
        assert _names(outcome.hits) == ["slide-maker"]
    assert "nope" in (missing.note or "")


def test_an_index_that_cannot_be_kept_on_disk_is_kept_in_memory(library: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    with SearchIndex(blocker / "index.sqlite3") as index:
        index.update(_summaries(library))
        assert _names(index.search("slides").hits) == ["slide-maker"]


def test_a_search_finds_its_skills_below_many_better_ranked_ones_outside_it(tmp_path: Path) -> None:
    # Another scope's skills share the file and outrank every skill of this one: the ranking
    # read with a LIMIT holds none of this scope's, and the search reads on.
    crowd, mine = tmp_path / "crowd", tmp_path / "mine"
    for number in range(30):
        write_skill(crowd, f"pdf-tool-{number}", frontmatter(f"pdf-tool-{number}", "PDF pdf PDF."))
    write_skill(mine, "notes", frontmatter("notes", "Keeps meeting notes.").replace(
        "Body.", "Mention pdf once in the body."))
    with SearchIndex(tmp_path / "index.sqlite3") as index:
        index.update(_summaries(crowd, mine))
        assert "notes" not in _names(index.search("pdf", limit=2).hits)
        index.update(_summaries(mine), prune=False)
        hits = index.search("pdf", limit=2).hits
    assert _names(hits) == ["notes"] and "[pdf]" in hits[0].snippet.lower()
