"""`studio search`: JSON results, limits, exit codes and what it says about the ranking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from skills.helpers import frontmatter, write_skill

from studio.cli import main
from tests.fakes.ollama import FakeOllama


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    write_skill(root, "slide-maker", frontmatter("slide-maker", "Builds a keynote deck. Use for slides."))
    write_skill(root, "pdf-forms", frontmatter("pdf-forms", "Fills in PDF forms."))
    write_skill(root, "pdf-merge", frontmatter("pdf-merge", "Merges PDF files into one."))
    return root


def test_json_lists_name_path_score_and_snippet(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "merge pdf", "--skills", str(library), "--json", "--limit", "1"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [(r["name"], r["path"]) for r in results] == [("pdf-merge", str(library / "pdf-merge"))]
    assert results[0]["score"] > 0 and "[Merges]" in results[0]["snippet"]


def test_no_match_exits_1_and_a_missing_path_exits_2(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "zeppelin", "--skills", str(library)]) == 1
    assert "no skill matches 'zeppelin'" in capsys.readouterr().err
    assert main(["search", "pdf", "--skills", str(library / "gone")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_it_says_when_the_ranking_stays_lexical(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "pdf", "--skills", str(library)]) == 0
    assert "lexical ranking only: no embedding model is set" in capsys.readouterr().err


def test_an_embedding_model_fuses_a_semantic_ranking(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOllama({"embedder": []}) as server:
        code = main(["search", "presentation", "--skills", str(library), "--json",
                     "--embed-model", "embedder", "--embed-url", server.url])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ranking"] == "fused"
    assert out["results"][0]["name"] == "slide-maker"


def test_a_bad_limit_is_a_usage_error(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["search", "pdf", "--skills", str(library), "--limit", "0"])
    assert exit_info.value.code == 2
    assert "it must be 1 or more" in capsys.readouterr().err
