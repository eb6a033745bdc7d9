"""Deterministic embeddings for the fake servers: a bag of words in which the words of one
`CONCEPTS` group share a dimension, so that "slide deck" and "presentation" land close together
while sharing no word, as a real embedding model would place them."""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Sequence

CONCEPTS = (
    ("presentation", "slides", "slide", "deck", "keynote"),
    ("spreadsheet", "csv", "table", "columns", "tabular"),
    ("commit", "git", "changeset"),
    ("convert", "conversion", "units", "metric", "imperial"),
)
HASHED = 32
DIMENSIONS = len(CONCEPTS) + HASHED

_GROUP = {word: index for index, group in enumerate(CONCEPTS) for word in group}


def vector_for(text: str) -> list[float]:
    vector = [0.0] * DIMENSIONS
    for word in re.findall(r"[a-z]+", text.lower()):
        group = _GROUP.get(word)
        if group is not None:
            vector[group] += 3.0
        else:
            vector[len(CONCEPTS) + zlib.crc32(word.encode()) % HASHED] += 0.2
    if not any(vector):
        vector[-1] = 1.0
    return vector


def texts_of(body: object) -> list[str] | None:
    """The request's `input` as a list of texts (a single string counts as one), or None."""
    if not isinstance(body, dict):
        return None
    value = body.get("input")
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


class FakeEmbedder:
    """An in-process embedding model over `vector_for` (what search's `Embedder` asks), for tests
    that give the window or the agent a model without a server or real weights.

    Attributes:
        embedded: how many texts it has embedded.
    """

    key = "fake:concepts"
    label = "the fake concepts model"

    def __init__(self) -> None:
        self.embedded = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.embedded += len(texts)
        vectors = []
        for text in texts:
            vector = vector_for(text)
            norm = math.sqrt(sum(x * x for x in vector))
            vectors.append([x / norm for x in vector])
        return vectors
