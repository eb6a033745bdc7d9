"""What the search asks of an embedding model, in its own terms: it knows nothing of model
clients. Whoever builds an embedder from a model client (`studio.agent.embedders`) adapts it to
this, turning the client's errors into `EmbeddingError` with the same message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from studio.errors import StudioError


class EmbeddingError(StudioError):
    """The embedding model could not embed: `user_message` says what happened and what to do."""

    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)


class Embedder(Protocol):
    """An embedding model. `key` names the model and how it is run, so that vectors kept from one
    are never compared with another's; `label` names it to a person."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order; EmbeddingError saying what to do when it
        cannot."""
        ...
