"""When to guide: always ("on"), never ("off"), or "auto": when the model is small.

A model of a couple of billion parameters or fewer does not use skills on its own (measured:
SmolLM2-135M answers from its head, names a skill as a tool, or invents a script), and guided it
does. The size comes from what the server says of the model: Ollama's `details.parameter_size`
("135M"); for llama.cpp's server (the embedded engine is one) the GGUF file its `/props` names,
whose `general.size_label` or `general.parameter_count` says it, else its file size gives an
estimate. A model whose size cannot be told is not guided: guiding a large model only holds it
back.
"""

from __future__ import annotations

import math
import re
from pathlib import Path, PurePath
from typing import Any

from studio.llm import GGUFError, ModelInfo, is_gguf, read_metadata
from studio.settings import BACKEND_GROUP, BackendSettings, declared

# How the user turns guiding on or off, by front end: the notice names the one in use.
CLI_HINT = "pass --guided on|off"
_SETTING = next(item.spec for item in declared(BackendSettings) if item.name == "guided")
WINDOW_HINT = f"set \"{_SETTING.label}\" in Settings ▸ {BACKEND_GROUP}"
"""Where the setting is in the Settings dialog, as the notice of "auto" names it."""
SMALL_MODEL = 2_000_000_000
"""Models with fewer parameters than this are guided in "auto"."""
_BITS_PER_WEIGHT = 4.5
"""A typical quantization (Q4_K_M), for a GGUF file whose metadata gives no size: the estimate
is then on the high side for a file of more bits a weight, which leaves such a model unguided."""
_LABEL = re.compile(r"^\s*(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*([KMBT])\s*$", re.IGNORECASE)
_SCALE = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}


def parameters_of_label(label: object) -> int | None:
    """The parameter count a size label gives ("135M", "1.5B", "8x7B"), or a count given as a
    number; None for anything else."""
    if isinstance(label, bool):
        return None
    if isinstance(label, int):
        return label if label > 0 else None
    if not isinstance(label, str):
        return None
    match = _LABEL.match(label)
    if match is None:
        return None
    experts, size, unit = match.groups()
    count = float(size) * _SCALE[unit.lower()] * (int(experts) if experts else 1)
    return int(count) if count > 0 and math.isfinite(count) else None


def gguf_parameters(path: Path) -> tuple[int, str] | None:
    """The parameter count of a GGUF model file and how it was found: its metadata's
    `general.parameter_count` or `general.size_label`, else an estimate from its size; None when
    the file cannot be read as GGUF."""
    try:
        if not is_gguf(path):
            return None
        metadata = read_metadata(path)
        size = path.stat().st_size
    except (GGUFError, OSError):
        return None
    for key in ("general.parameter_count", "general.size_label"):
        if (count := parameters_of_label(metadata.get(key))) is not None:
            return count, f"its GGUF file's {key}"
    if size <= 0:
        return None
    return int(size * 8 / _BITS_PER_WEIGHT), "estimated from its file's size"


def model_parameters(info: ModelInfo) -> tuple[int, str] | None:
    """The parameter count of the model `info` describes, and where it was read; None when the
    server does not tell."""
    details: dict[str, Any] = info.details
    if (count := parameters_of_label(details.get("parameter_size"))) is not None:
        return count, "the server's parameter_size"
    path = details.get("model_path")
    if isinstance(path, str) and path:
        return gguf_parameters(Path(path))
    return None


def label(count: int) -> str:
    """A parameter count as people write it: 135M, 1.5B."""
    for unit, scale in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if count >= scale:
            return f"{count / scale:.3g}{unit}"
    return str(count)


def auto_guided(model: str, info: ModelInfo, hint: str = CLI_HINT) -> str | None:
    """In "auto", whether to guide the model `info` describes: the notice saying so and why,
    ending with `hint` (how to change it), or None (a large model, or one whose size the server
    does not tell)."""
    found = model_parameters(info)
    if found is None or found[0] >= SMALL_MODEL:
        return None
    count, source = found
    # llama.cpp's server names a model by its file's path: its name is enough.
    if model.lower().endswith(".gguf"):
        model = PurePath(model).name
    return (f"{model} has {label(count)} parameters ({source}): too few to use skills on its own, "
            f"so it is guided through them one step at a time. To change that, {hint}.")
