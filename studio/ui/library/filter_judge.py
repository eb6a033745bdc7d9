"""Judging the library's skills against the filter typed: each skill's text to search, built once
for each summary it has, and a pass over every skill that yields every STRIDE skills, so the
library filter can spread it over turns of the event loop (see `library_filter`)."""

from __future__ import annotations

from collections.abc import Generator

from PySide6.QtCore import QModelIndex

from studio.skills import SkillSummary
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_nodes import FileNode, Node, SkillNode

ALL, ERRORS, WARNINGS, DRAFTED = "", "errors", "warnings", "drafted"
# A skill no agent can load has errors too.
STATUSES = {ERRORS: ("errors", "not-loadable"), WARNINGS: ("warnings",)}
# How long one turn of the event loop may judge skills against a new filter.
SLICE_S = 0.03
# Skills judged between looks at the clock.
STRIDE = 256

# A filter's verdict on each skill, with the summary it judged.
Verdicts = dict[Node, tuple[SkillSummary | None, bool]]


def accepts(words: list[str], status: str, summary: SkillSummary, text: str) -> bool:
    """Whether the skill `summary` describes, whose text to search is `text`, holds every word
    of `words` and has the status `status` (ALL, ERRORS, WARNINGS or DRAFTED)."""
    if status == DRAFTED:
        if summary.drafted_by is None:
            return False
    elif status and summary.status not in STATUSES[status]:
        return False
    return all(word in text for word in words)


class FilterTexts:
    """Each skill's text to search (`LibraryModel.filter_text_of`), by its node: built once for
    each summary the node has, as building it (the install origin's lookup above all) was most
    of a filter's cost."""

    def __init__(self, model: LibraryModel) -> None:
        self.model = model
        self._texts: dict[Node, tuple[SkillSummary, str]] = {}

    def of(self, node: Node, summary: SkillSummary) -> str:
        known = self._texts.get(node)
        if known is not None and known[0] is summary:
            return known[1]
        text = self.model.filter_text_of(summary)
        self._texts[node] = (summary, text)
        return text

    def forget(self, node: Node) -> None:
        self._texts.pop(node, None)


class Judged:
    """What judging every skill against a filter found.

    Attributes:
        verdicts: each skill's verdict.
        matched: the skills that match.
        counts: how many match under each root and folder.
    """

    def __init__(self) -> None:
        self.verdicts: Verdicts = {}
        self.matched: set[Node] = set()
        self.counts: dict[Node, int] = {}


def judge(texts: FilterTexts, words: list[str], status: str) -> Generator[None, None, Judged]:
    """Every skill's verdict under `words` and `status`, and the matches under every root and
    folder, yielding every STRIDE skills."""
    judged = Judged()
    verdicts, matched, counts = judged.verdicts, judged.matched, judged.counts
    top = texts.model.node(QModelIndex())
    pending: list[Node] = list(top.children)
    seen = 0
    while pending:
        node = pending.pop()
        if isinstance(node, SkillNode):
            summary = node.summary
            verdict = summary is not None and accepts(words, status, summary,
                                                      texts.of(node, summary))
            verdicts[node] = (summary, verdict)
            if verdict:
                matched.add(node)
                parent = node.parent
                while parent is not None and parent is not top:
                    counts[parent] = counts.get(parent, 0) + 1
                    parent = parent.parent
            seen += 1
            if seen % STRIDE == 0:
                yield
        elif not isinstance(node, FileNode):
            pending.extend(node.children)
    return judged
