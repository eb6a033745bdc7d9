"""`search_skills(query)`: the model looks for a skill by what it needs, over every skill of the
conversation, including those a trimmed catalog left out of the prompt."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from studio.llm.types import ToolSpec
from studio.skills.library.summary import SkillSummary
from studio.skills.search.index import SearchIndex

SEARCH = "search_skills"
RESULTS = 5


class SkillSearch:
    """The conversation's skills and the index over them, brought up to date on the first search.

    Attributes:
        index_file: the index's SQLite file (None: in memory, rebuilt each conversation).
    """

    def __init__(self, skills: Sequence[SkillSummary], index_file: Path | None) -> None:
        self._skills = [s for s in skills if s.loadable and s.name]
        self.index_file = index_file
        self._index: SearchIndex | None = None

    def spec(self) -> ToolSpec:
        return ToolSpec(
            SEARCH,
            "Search every available skill by what you need (words or a sentence); returns the "
            f"best {RESULTS} with their descriptions. Use it when no skill in the list fits.",
            {"type": "object",
             "properties": {"query": {"type": "string", "description": "what the skill should do"}},
             "required": ["query"]},
        )

    def find(self, query: object) -> str:
        if not isinstance(query, str) or not query.strip():
            return "error: `query` must say what the skill should do"
        if self._index is None:
            self._index = SearchIndex(self.index_file)
            self._index.update(self._skills)
        hits = self._index.search(query, RESULTS).hits
        if not hits:
            return f"no skill matches {query!r}; try other words"
        descriptions = {s.name: (s.description or "").strip() for s in self._skills}
        return "\n".join(
            f"- {hit.name}: {descriptions.get(hit.name, hit.snippet)}" for hit in hits
        ) + "\nLoad one with activate_skill."

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None
