"""Finding skills: the full-text and semantic index, and the catalog an agent's prompt carries (or
a project's AGENTS.md, for agents that load no skills).

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.search import catalog
    from studio.skills.search.agentsmd import splice_skills_block
    from studio.skills.search.catalog import build_catalog
    from studio.skills.search.embedder import Embedder, EmbeddingError
    from studio.skills.search.index import INDEX_FILE, SearchHit, SearchIndex, SearchOutcome, index_path

__all__ = [
    "INDEX_FILE",
    "Embedder",
    "EmbeddingError",
    "SearchHit",
    "SearchIndex",
    "SearchOutcome",
    "build_catalog",
    "catalog",
    "index_path",
    "splice_skills_block",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
