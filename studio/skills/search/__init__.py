"""Finding skills: the full-text and semantic index, and the catalog an agent's prompt carries.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`).

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.search.catalog import (
        STOP_WORDS,
        build_catalog,
        estimate_tokens,
        rank_skills,
        relevance,
        shared_terms,
        terms,
    )
    from studio.skills.search.embedder import Embedder, EmbeddingError
    from studio.skills.search.index import INDEX_FILE, SearchHit, SearchIndex, SearchOutcome, index_path

__all__ = [
    "INDEX_FILE",
    "STOP_WORDS",
    "Embedder",
    "EmbeddingError",
    "SearchHit",
    "SearchIndex",
    "SearchOutcome",
    "build_catalog",
    "estimate_tokens",
    "index_path",
    "rank_skills",
    "relevance",
    "shared_terms",
    "terms",
]


def __getattr__(name: str) -> object:
    # The loader is imported here, not above, so that importing a module inside (as the scan
    # process does) imports nothing more.
    from studio.frontdoor import load

    return load(__name__, name)
