"""Opening a model file the user points at (File ▸ Open Model File…, a file dropped on the
window): is it a chat model the embedded engine can run, and what is it?

Only a whole GGUF file whose header names a chat architecture is accepted: a safetensors or
PyTorch file, a split model's later part, a download cut short, a vision projector or an
embedding model each get a message that says what the file is and what to open instead.
Everything is read from the header and the tensor table (a bounded read, never the weights).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from studio.errors import StudioError
from studio.llm.discovery import GGUFFacts, gguf_facts
from studio.llm.gguf import MAGIC, GGUFError, read_metadata, read_tensor_extent

# Architectures that are not chat models (llama.cpp's names): projectors and encoders.
_NOT_CHAT = {"clip": "a vision projector (an mmproj file that goes beside a chat model)",
             "bert": "an embedding model", "nomic-bert": "an embedding model",
             "jina-bert-v2": "an embedding model", "t5encoder": "a text encoder"}
_SHARD = re.compile(r"^(?P<stem>.*)-(?P<part>\d{5})-of-(?P<parts>\d{5})\.gguf$", re.IGNORECASE)
_SIZE_UNITS = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))


class ModelFileError(StudioError):
    """The file is not a model the embedded engine can chat with; the message says why."""


@dataclass(frozen=True, slots=True)
class ModelFile:
    """A chat model file that passed the checks.

    Attributes:
        path: the file (resolved).
        name: the model's name from its header, else the file's stem.
        size: bytes on disk.
        parameters: how many weights, as a label: the header's ("135M"), else counted from the
            tensor table ("494M").
        facts: architecture, quantization, context length and tool support, from the header.
        notes: what the user should know before chatting (no chat template, more memory than
            this computer has).
    """

    path: Path
    name: str
    size: int
    parameters: str
    facts: GGUFFacts
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line for a status bar or a list: name, parameters, quantization, size."""
        parts = [self.name]
        parts += [part for part in (self.parameters, self.facts.quantization) if part]
        parts.append(f"{self.size / 1e9:.2f} GB" if self.size >= 1e8 else f"{self.size / 1e6:.0f} MB")
        return " · ".join(parts)


def size_label(count: int) -> str:
    """A parameter count as model names write it: 134,515,008 → "135M", 494,032,768 → "494M"."""
    for scale, unit in _SIZE_UNITS:
        if count >= scale:
            value = count / scale
            return f"{value:.1f}{unit}" if value < 10 and unit != "M" else f"{value:.0f}{unit}"
    return str(count)


def _memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _not_gguf(path: Path, head: bytes) -> str:
    if len(head) >= 10 and head[8:10] == b'{"':
        kind = "a safetensors file (Hugging Face's format for training, not for llama.cpp)"
    elif head[:2] == b"PK":
        kind = "a zip archive (PyTorch's .bin or .pt format)"
    elif not head:
        kind = "empty"
    else:
        kind = "not a GGUF model file"
    return (f"{path.name} is {kind}. The studio's engine runs GGUF files (llama.cpp's format): "
            "download the model's GGUF version, e.g. from a “-GGUF” repository on Hugging Face.")


def inspect_model_file(path: Path, memory: int | None = None) -> ModelFile:
    """The model in `path`, checked; `memory` is this computer's (read from the system when
    None). Raises ModelFileError with what the file is and what to do instead."""
    path = path.expanduser()
    if not path.exists():
        raise ModelFileError(f"There is no file at {path}.")
    if not path.is_file():
        raise ModelFileError(f"{path} is a folder: open the .gguf file inside it.")
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
        size = path.stat().st_size
        if head[:4] != MAGIC:
            raise ModelFileError(_not_gguf(path, head))
        shard = _SHARD.match(path.name)
        if shard and int(shard["part"]) > 1:
            first = f"{shard['stem']}-00001-of-{shard['parts']}.gguf"
            raise ModelFileError(
                f"{path.name} is part {int(shard['part'])} of {int(shard['parts'])} of a split "
                f"model: open the first part, {first}, and keep the others beside it.")
        metadata = read_metadata(path)
        parameters, needed = read_tensor_extent(path)
    except GGUFError as exc:
        raise ModelFileError(f"{path.name} cannot be used ({exc}); if it was downloaded, "
                             "download it again.") from None
    except OSError as exc:
        raise ModelFileError(f"{path} cannot be read: {exc.strerror or exc}.") from None
    facts = gguf_facts(metadata)
    if facts.architecture is None:
        raise ModelFileError(f"{path.name} does not say what model it holds (no "
                             "general.architecture in its header): it is not a model to chat with.")
    if facts.architecture in _NOT_CHAT:
        raise ModelFileError(f"{path.name} is {_NOT_CHAT[facts.architecture]}, not a chat model.")
    if not parameters:
        raise ModelFileError(f"{path.name} holds no weights (its tensor table is empty): it is "
                             "not a model to chat with.")
    if size < needed:
        raise ModelFileError(
            f"{path.name} is cut short: its header describes {needed:,} bytes and the file has "
            f"{size:,}. A download that did not finish leaves such a file; download it again.")
    label = metadata.get("general.size_label")
    shown = label if isinstance(label, str) and label else size_label(parameters)
    name = metadata.get("general.name")
    notes = []
    if "tokenizer.chat_template" not in metadata:
        notes.append("It has no chat template: the engine uses a generic one, and the model may "
                     "not follow it or call tools.")
    elif facts.supports_tools is False:
        notes.append("Its chat template offers no tools: the studio guides it with a template "
                     "of its own, which small models follow less well.")
    memory = _memory() if memory is None else memory
    if memory and size > memory * 0.8:
        notes.append(f"It needs about {size / 1e9:.1f} GB of memory and this computer has "
                     f"{memory / 1e9:.1f} GB: it may not load, or load very slowly.")
    return ModelFile(path.resolve(), name if isinstance(name, str) and name else path.stem, size,
                     shown, facts, tuple(notes))
