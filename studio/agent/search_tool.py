"""`search_skills(query)`: the model looks for a skill by what it needs, over every skill of the
conversation, including those a trimmed catalog left out of the prompt. With an embedding model
the ranking fuses meaning with words, as `studio search` and the window's search do; the answer
says which ranking it used."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from studio.agent.offload import off_loop
from studio.llm import ToolSpec
from studio.skills import SkillSummary
from studio.skills.search import Embedder, EmbeddingError, SearchIndex

SEARCH = "search_skills"
RESULTS = 5


class SkillSearch:
    """The conversation's skills and the index over them, brought up to date on the first search.

    Attributes:
        index_file: the index's SQLite file (None: in memory, rebuilt each conversation).
        embedder: the embedding model fused with the words (None: words only).
    """

    def __init__(self, skills: Sequence[SkillSummary], index_file: Path | None,
                 embedder: Embedder | None = None) -> None:
        self._skills = [s for s in skills if s.loadable and s.name]
        self.index_file = index_file
        self.embedder = embedder
        self._index: SearchIndex | None = None
        self._note: str | None = None

    def spec(self) -> ToolSpec:
        return ToolSpec(
            SEARCH,
            "Search every available skill by what you need (words or a sentence); returns the "
            f"best {RESULTS} with their descriptions. Use it when no skill in the list fits.",
            {"type": "object",
             "properties": {"query": {"type": "string", "description": "what the skill should do"}},
             "required": ["query"]},
        )

    async def answer(self, query: object) -> str:
        """`find`, away from the event loop (embedding a library the first time takes a while), in
        a thread that ends with the search: a thread kept for good would stop the library forking
        its scan workers, which it does only from a process with one thread."""
        return await off_loop(self.find, query)

    def find(self, query: object) -> str:
        if not isinstance(query, str) or not query.strip():
            return "error: `query` must say what the skill should do"
        index = self._ready_index()
        outcome = index.search(query, RESULTS, self.embedder)
        if not outcome.hits:
            return f"no skill matches {query!r}; try other words"
        descriptions = {s.name: (s.description or "").strip() for s in self._skills}
        # Without a model, words are all there is to say; a model that failed says why.
        note = self._note or (outcome.note if self.embedder is not None else None)
        how = "words + meaning" if outcome.mode == "fused" else "words only"
        return "\n".join(
            f"- {hit.name}: {descriptions.get(hit.name, hit.snippet)}" for hit in outcome.hits
        ) + f"\nLoad one with activate_skill. (Ranked by {how}" + (f"; {note})" if note else ")")

    def _ready_index(self) -> SearchIndex:
        """The index, updated and (with a model) embedded on the first search: a model that fails
        then leaves the conversation's searches to words, with the reason."""
        if self._index is None:
            self._index = SearchIndex(self.index_file)
            # Not pruned: the file is shared with `studio search` and the window's search, which
            # hold skills this conversation does not see.
            self._index.update(self._skills, prune=False)
            if self.embedder is not None:
                try:
                    self._index.embed(self.embedder)
                except EmbeddingError as exc:
                    self._note = f"words only: {exc.user_message}"
                    self.embedder = None
        return self._index

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None
