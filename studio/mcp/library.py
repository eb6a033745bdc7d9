"""The library as an MCP server offers it: found by need, loaded whole, read file by file. No MCP
and no Qt here, so the same calls serve the server, its tests and anything else that wants them.

Reading goes through the chat's own toolbox (`SkillToolbox`): a path that leaves the skill's folder,
a link out of it, a device or a file over the cap is refused here exactly as it is to a model in the
chat. Running a skill's scripts is not offered at all: a client that wants that has the files and
its own approval flow.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from studio.agent import SkillToolbox, ToolError
from studio.errors import StudioError
from studio.mcp.served import ServedSkills, threat_refusal
from studio.skills import Severity, SkillSummary, list_skill_files
from studio.skills.scan import scan
from studio.skills.search import Embedder, EmbeddingError, SearchIndex

MAX_RESULTS = 20


class SkillNotFound(LookupError, StudioError):
    """A name or path the library does not have; the message says what it does have."""


@dataclass(frozen=True, slots=True)
class Found:
    name: str
    description: str
    score: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The hits, best first, and how they were ranked ("lexical", "semantic" or "fused"), with why
    not semantically when it is not."""

    hits: list[Found]
    ranking: str
    note: str | None


class SkillLibrary:
    """The skills under some paths, searchable and readable by name.

    Only skills the validator finds no error in, and the scanner no threat at high or above in,
    are served; `refused` and `threats` say which others were found and why not.

    Attributes:
        skills: the skills the tools load by name (the first of two with one name wins, and
            `shadowed` lists the folders of the others).
        served: every valid skill, same-name and nested ones too, each at its own `skill://`
            path, for clients of the Skills extension.
        problems: what was wrong with the paths (unreadable, missing).
        shadowed: folders of skills whose name an earlier skill already has (the tools do not
            offer them; the Skills extension serves them at paths of their own).
        refused: (folder, why) of each skill not served because the validator found an error.
        threats: (folder, why) of each valid skill not served because the scanner found a threat
            at high or above in its files (`served.threat_refusal`).
    """

    def __init__(
        self,
        paths: Sequence[Path],
        *,
        index_file: Path | None = None,
        embedder: Embedder | None = None,
        report: Callable[[str], None] = lambda _line: None,
    ) -> None:
        collected = scan(list(paths))
        self.problems = list(collected.problems)
        self.skills: list[SkillSummary] = []
        self.shadowed: list[Path] = []
        self.refused: list[tuple[Path, str]] = []
        self.threats: list[tuple[Path, str]] = []
        valid: list[SkillSummary] = []
        names: set[str] = set()
        for summary in collected.skills:
            if not summary.valid or not summary.name:
                self.refused.append((summary.directory, _first_error(summary)))
                continue
            threat = threat_refusal(summary)
            if threat is not None:
                self.threats.append((summary.directory, threat))
                continue
            valid.append(summary)
            if summary.name in names:
                self.shadowed.append(summary.directory)
                continue
            names.add(summary.name)
            self.skills.append(summary)
        # `report` hears of the skills the extension finds it cannot serve while serving (a
        # SKILL.md changed on disk, a skill over the size limits).
        self.served = ServedSkills(valid, report)
        self.refused.extend(self.served.refused)
        workspace = Path(paths[0]) if paths else Path.cwd()
        self._toolbox = SkillToolbox(self.skills, workspace)
        self._descriptions = {s.name: (s.description or "").strip() for s in self.skills if s.name}
        self._index = SearchIndex(index_file)
        self._index.update(self.skills)
        self._embedder = embedder
        self._embedded = False
        self._embed_note: str | None = None
        self._lock = threading.Lock()

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.skills if s.name]

    def close(self) -> None:
        self._index.close()

    def search(self, query: str, limit: int = 5) -> SearchResult:
        """The skills that best fit `query` (words or a sentence of what the client needs). With
        an embedding model the ranking fuses meaning with words; the library is embedded on the
        first search (once: later searches reuse the vectors the index keeps)."""
        if not query.strip():
            raise ValueError("the query is empty: say what the skill should do")
        limit = max(1, min(limit, MAX_RESULTS))
        embedder = self._ready_embedder()
        outcome = self._index.search(query, limit, embedder)
        hits = [Found(hit.name, self._descriptions.get(hit.name, hit.snippet), hit.score)
                for hit in outcome.hits]
        return SearchResult(hits, outcome.mode, self._embed_note or outcome.note)

    def _ready_embedder(self) -> Embedder | None:
        if self._embedder is None:
            return None
        with self._lock:
            if not self._embedded:
                self._embedded = True
                try:
                    self._index.embed(self._embedder)
                except EmbeddingError as exc:
                    self._embed_note = f"lexical ranking only: {exc.user_message}"
                    self._embedder = None
            return self._embedder

    def load(self, name: str) -> str:
        """The skill's SKILL.md as it is on disk (frontmatter and body), then its files."""
        entry = self._entry(name)
        skill = self._toolbox.load(entry)
        files = "\n".join(f"- {file.path}" for file in skill.files) or "(none)"
        return (f"{skill.source.rstrip()}\n\n---\nThe skill's folder holds these files (read them "
                f"with read_skill_file, paths relative to the folder):\n{files}\n")

    def read(self, name: str, path: str) -> str:
        """A file inside the skill's folder, by its path relative to it."""
        entry = self._entry(name)
        try:
            return self._toolbox.read_file(entry, path)
        except ToolError as exc:
            raise SkillNotFound(str(exc)) from None

    def files(self, name: str) -> list[str]:
        """The skill's files (SKILL.md first), as paths relative to its folder."""
        summary = self._summary(name)
        files = (self._toolbox.load(name).files if summary.read_only
                 else list_skill_files(summary.directory))
        listed = [str(f.path) for f in files]
        return ["SKILL.md", *(path for path in listed if path != "SKILL.md")]

    def description(self, name: str) -> str:
        return self._descriptions.get(self._entry(name), "")

    def _summary(self, name: str) -> SkillSummary:
        for summary in self.skills:
            if summary.name == name:
                return summary
        raise SkillNotFound(self._unknown(name))

    def _entry(self, name: str) -> str:
        if name not in self._descriptions:
            raise SkillNotFound(self._unknown(name))
        return name

    def _unknown(self, name: str) -> str:
        known = ", ".join(sorted(self._descriptions)[:50]) or "none"
        more = "" if len(self._descriptions) <= 50 else f" and {len(self._descriptions) - 50} more"
        return f"there is no skill named {name!r}; search_skills finds one by need. The skills: {known}{more}"


def _first_error(summary: SkillSummary) -> str:
    errors = [d for d in summary.diagnostics if d.severity is Severity.ERROR]
    if not errors:
        return "it has no name"
    more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
    return f"{errors[0].code}: {errors[0].message}{more}"
