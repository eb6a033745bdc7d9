"""`search_skills` ranks as `studio search` does: by words and meaning fused when the session has
an embedding model, by words otherwise, and its answer says which; a model that fails leaves the
conversation's searches to words, with the reason."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from studio.agent.search_tool import SkillSearch
from studio.agent.session import SessionSettings, make_toolbox
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.search import EmbeddingError, SearchIndex
from studio.skills.summary import SkillSummary
from tests.fakes.embeddings import FakeEmbedder
from tests.skills.helpers import frontmatter, write_skill
from tests.waiting import eventually


@pytest.fixture
def skills(tmp_path: Path) -> list[SkillSummary]:
    root = tmp_path / "skills"
    write_skill(root, "keynote-builder", frontmatter("keynote-builder", "Builds a presentation."))
    write_skill(root, "floor-cleaner", frontmatter("floor-cleaner", "Scrubs wooden floors."))
    write_skill(root, "invoice-totals", frontmatter("invoice-totals", "Adds up invoices."))
    return scan_root(SkillRoot(root)).skills


class BrokenEmbedder(FakeEmbedder):
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise EmbeddingError("The embedding server at http://127.0.0.1:9 is not running.")


def test_with_a_model_the_search_fuses_meaning_and_says_so(skills: list[SkillSummary]) -> None:
    assert SkillSearch(skills, None).find("make slides") == (
        "no skill matches 'make slides'; try other words")
    found = SkillSearch(skills, None, FakeEmbedder()).find("make slides")
    assert found.startswith("- keynote-builder: Builds a presentation.")
    assert found.endswith("(Ranked by words + meaning)")
    lexical = SkillSearch(skills, None).find("invoices")
    assert lexical == ("- invoice-totals: Adds up invoices.\nLoad one with activate_skill. "
                       "(Ranked by words only)")


def test_a_failing_model_leaves_words_with_the_reason(skills: list[SkillSummary]) -> None:
    found = SkillSearch(skills, None, BrokenEmbedder()).find("invoices")
    assert found.startswith("- invoice-totals")
    assert found.endswith("(Ranked by words only; words only: The embedding server at "
                          "http://127.0.0.1:9 is not running.)")


async def test_the_session_s_model_reaches_the_tool_and_runs_off_the_loop(
        skills: list[SkillSummary], tmp_path: Path) -> None:
    model = FakeEmbedder()
    toolbox = make_toolbox(SessionSettings(search_index=tmp_path / "index.sqlite3",
                                           search_embedder=model), skills)
    assert toolbox.search is not None
    found = await toolbox.search.answer("a slide deck for the board")
    assert found.startswith("- keynote-builder") and model.embedded == 4  # three skills, one query


async def test_no_thread_outlives_a_search(skills: list[SkillSummary]) -> None:
    """A thread kept for good would stop the library forking its scan workers (it forks only
    from a process with one thread); the search's thread ends with the search."""
    before = {thread.ident for thread in threading.enumerate()}
    found = await SkillSearch(skills, None).answer("invoices")
    assert found.startswith("- invoice-totals")
    assert await eventually(
        lambda: {thread.ident for thread in threading.enumerate()} <= before)


def test_a_search_over_some_skills_leaves_the_others_in_a_shared_index(
        skills: list[SkillSummary], tmp_path: Path) -> None:
    """The window's search and a chat over some of its skills share one file: the chat's search
    must not drop the rows of the skills it does not see."""
    shared = tmp_path / "index.sqlite3"
    with SearchIndex(shared) as window:
        window.update(skills)
        search = SkillSearch([s for s in skills if s.name == "invoice-totals"], shared)
        assert search.find("floors").startswith("no skill matches")
        search.close()
        assert [hit.name for hit in window.search("floors").hits] == ["floor-cleaner"]
    with SearchIndex(shared) as later:
        later.update(skills)
        assert [hit.name for hit in later.search("floors").hits] == ["floor-cleaner"]
        assert later.update(skills) == 0
