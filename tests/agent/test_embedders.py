"""A model client's embedding model, adapted for the skill search: the same model and vectors,
and its failures as the search's EmbeddingError with the client's message."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from studio.agent.embedders import SearchEmbedder
from studio.llm import ServerNotRunning
from studio.skills.search import EmbeddingError
from tests.fakes.embeddings import FakeEmbedder


class DownEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise ServerNotRunning("http://127.0.0.1:9", "Start the embedding server.")


def test_the_adapter_passes_the_model_through() -> None:
    model = FakeEmbedder()
    adapted = SearchEmbedder(model)
    assert (adapted.key, adapted.label) == (model.key, model.label)
    assert adapted.embed(["slides"]) == FakeEmbedder().embed(["slides"])


def test_a_client_error_reaches_the_search_as_its_own_with_the_same_message() -> None:
    with pytest.raises(EmbeddingError) as caught:
        SearchEmbedder(DownEmbedder()).embed(["slides"])
    assert caught.value.user_message == (
        "No model server is answering at http://127.0.0.1:9. Start the embedding server.")
    assert isinstance(caught.value.__cause__, ServerNotRunning)
