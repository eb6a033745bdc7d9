"""GGUF metadata, the models Ollama has pulled, and the chat template chosen for tool use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.llm.chat_templates import CHATML_JSON_TOOLS, CHATML_TOOLS, tool_template_for
from studio.llm.embedded import find_ollama_models, ollama_models_dir
from studio.llm.gguf import GGUFError, is_gguf, read_metadata
from tests.fakes.ggufwriter import write_gguf
from tests.fakes.localmodels import INSTALL_HINT, smollm2_gguf

CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"


def test_metadata_is_read_and_the_vocabulary_skipped(tmp_path: Path) -> None:
    path = write_gguf(
        tmp_path / "m.gguf",
        {
            "general.name": "Tiny",
            "general.architecture": "llama",
            "llama.context_length": 2048,
            "tokenizer.ggml.tokens": [f"tok{i}" for i in range(500)],
            "tokenizer.ggml.token_type": [1] * 500,
            "tokenizer.chat_template": CHATML,
            "general.tags": ["a", "b"],
        },
    )
    metadata = read_metadata(path)
    assert metadata["general.name"] == "Tiny"
    assert metadata["llama.context_length"] == 2048
    assert metadata["tokenizer.chat_template"] == CHATML
    assert metadata["general.tags"] == ["a", "b"]
    assert "tokenizer.ggml.tokens" not in metadata
    assert "tokenizer.ggml.token_type" not in metadata


def test_not_gguf_and_damaged_files_say_which_file(tmp_path: Path) -> None:
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    assert not is_gguf(text)
    with pytest.raises(GGUFError) as not_gguf:
        read_metadata(text)
    assert f"{text} is not a GGUF model file" in str(not_gguf.value)
    whole = write_gguf(tmp_path / "cut.gguf", {"general.name": "Cut short"}).read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(whole[:-4])
    with pytest.raises(GGUFError) as damaged:
        read_metadata(cut)
    assert f"{cut}: damaged GGUF header" in str(damaged.value)


def test_template_choice() -> None:
    assert tool_template_for({"tokenizer.chat_template": CHATML}) == CHATML_TOOLS
    assert tool_template_for({}) == CHATML_TOOLS
    with_tools = CHATML + "{% if tools %}{{ tools | tojson }}{% endif %}"
    assert tool_template_for({"tokenizer.chat_template": with_tools}) is None
    llama3 = "<|start_header_id|>{{ m.role }}<|end_header_id|>"
    assert tool_template_for({"tokenizer.chat_template": llama3}) is None
    for template in (CHATML_TOOLS, CHATML_JSON_TOOLS):
        assert "<|im_start|>" in template
        assert "tools" in template


def test_smollm2_needs_the_tool_template() -> None:
    path = smollm2_gguf()
    if path is None:
        pytest.skip(INSTALL_HINT)
    metadata = read_metadata(path)
    assert "<|im_start|>" in metadata["tokenizer.chat_template"]
    assert tool_template_for(metadata) == CHATML_TOOLS


def _pull(models: Path, host: str, namespace: str, model: str, tag: str, blob: str | None) -> Path:
    digest = "sha256:" + (model + tag).encode().hex().ljust(64, "0")[:64]
    layers = [
        {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "1" * 64},
        {"mediaType": "application/vnd.ollama.image.model", "digest": digest, "size": 10},
    ]
    manifest = models / "manifests" / host / namespace / model / tag
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps({"schemaVersion": 2, "layers": layers}))
    blob_path = models / "blobs" / digest.replace(":", "-")
    if blob == "gguf":
        write_gguf(blob_path, {"general.name": model})
    elif blob is not None:
        blob_path.parent.mkdir(parents=True, exist_ok=True)
        blob_path.write_text(blob)
    return blob_path


def test_pulled_ollama_models_are_found(tmp_path: Path) -> None:
    models = tmp_path / "models"
    qwen = _pull(models, "registry.ollama.ai", "library", "qwen3", "0.6b", "gguf")
    mine = _pull(models, "registry.ollama.ai", "someone", "tiny", "latest", "gguf")
    hf = _pull(models, "hf.co", "bartowski", "smol", "Q4_K_M", "gguf")
    _pull(models, "registry.ollama.ai", "library", "gone", "latest", None)
    _pull(models, "registry.ollama.ai", "library", "weird", "latest", "not a model")
    broken = models / "manifests" / "registry.ollama.ai" / "library" / "broken" / "latest"
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json")
    found = find_ollama_models(models)
    assert [(m.name, m.path) for m in found] == [
        ("hf.co/bartowski/smol:Q4_K_M", hf),
        ("qwen3:0.6b", qwen),
        ("someone/tiny:latest", mine),
    ]
    assert all(m.size == m.path.stat().st_size for m in found)


def test_no_ollama_folder_means_no_models(tmp_path: Path) -> None:
    assert find_ollama_models(tmp_path / "absent") == []


def test_ollama_models_dir_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scratch_home: Path
) -> None:
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    assert ollama_models_dir() == scratch_home / ".ollama" / "models"
    monkeypatch.setenv("OLLAMA_MODELS", str(tmp_path / "elsewhere"))
    assert ollama_models_dir() == tmp_path / "elsewhere"
