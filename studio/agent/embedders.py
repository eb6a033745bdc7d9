"""The model clients' embedding models, as the skill search takes them. The search knows nothing
of model clients (`studio.skills.search.Embedder`); here the two meet, so that a client's
`LLMError` reaches the search, and whoever catches its errors, as an `EmbeddingError` with the
same message."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studio.llm import Embedder, LLMError, embedder_for, search_embedder
from studio.skills.search import EmbeddingError


@dataclass(frozen=True, slots=True)
class SearchEmbedder:
    """A model client's embedding model, speaking the search's errors."""

    model: Embedder

    @property
    def key(self) -> str:
        return self.model.key

    @property
    def label(self) -> str:
        return self.model.label

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        try:
            return self.model.embed(texts)
        except LLMError as exc:
            raise EmbeddingError(exc.user_message) from exc


def search_embedder_for(backend: str, model: str, url: str, timeout: float = 60.0) -> SearchEmbedder:
    """The embedding model a user picked (`studio.llm.embeddings.embedder_for`: ValueError saying
    what is wrong with the choice), for the search."""
    return SearchEmbedder(embedder_for(backend, model, url, timeout))


def default_search_embedder(server_kind: str = "", server_url: str = "",
                            embed_model: str = "") -> SearchEmbedder | None:
    """The embedding model at hand for search (`studio.llm.embeddings.search_embedder`: the one
    named on the chat's server, else the studio's own when installed), or None: words only."""
    found = search_embedder(server_kind, server_url, embed_model)
    return None if found is None else SearchEmbedder(found)
