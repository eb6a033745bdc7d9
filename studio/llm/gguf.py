"""Read the metadata at the head of a GGUF model file (name, architecture, chat template) without
loading the model."""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Any, BinaryIO

from studio.errors import StudioError

MAGIC = b"GGUF"
_SCALARS = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING = 8
_ARRAY = 9
# Arrays longer than this (the tokenizer's vocabulary) are skipped, not kept.
_MAX_ARRAY = 64
# Limits no real model comes near (a vocabulary has some 260,000 entries, a chat template some
# 20 KB); a header past them is damaged or hostile, and reading it would exhaust memory or time.
MAX_KEYS = 65_536
MAX_STRING = 16 * 1024 * 1024
MAX_ITEMS = 16 * 1024 * 1024
_MAX_DEPTH = 4


class GGUFError(ValueError, StudioError):
    """The file is not a GGUF model, or its header is damaged."""


def is_gguf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == MAGIC
    except OSError:
        return False


def _read(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise GGUFError("the header ends early")
    return data


def _unpack(handle: BinaryIO, fmt: str) -> Any:
    return struct.unpack(fmt, _read(handle, struct.calcsize(fmt)))[0]


def _length(handle: BinaryIO, limit: int, what: str) -> int:
    value: int = _unpack(handle, "<Q")
    if value > limit:
        raise GGUFError(f"{what} of {value:,} is more than the {limit:,} a model file can have")
    return value


def _string(handle: BinaryIO) -> str:
    return _read(handle, _length(handle, MAX_STRING, "a string length")).decode("utf-8", errors="replace")


def _value(handle: BinaryIO, kind: int, depth: int = 0) -> Any:
    if depth > _MAX_DEPTH:
        raise GGUFError("arrays are nested too deeply")
    if kind in _SCALARS:
        return _unpack(handle, _SCALARS[kind])
    if kind == _STRING:
        return _string(handle)
    if kind == _ARRAY:
        item_kind = _unpack(handle, "<I")
        count = _length(handle, MAX_ITEMS, "an array length")
        if count > _MAX_ARRAY:
            _skip_array(handle, item_kind, count)
            return None
        return [_value(handle, item_kind, depth + 1) for _ in range(count)]
    raise GGUFError(f"unknown value type {kind}")


def _skip_array(handle: BinaryIO, kind: int, count: int) -> None:
    if kind in _SCALARS:
        # A seek past the end succeeds silently; check, so a damaged count ends the read here.
        if handle.seek(struct.calcsize(_SCALARS[kind]) * count, 1) > os.fstat(handle.fileno()).st_size:
            raise GGUFError("the header ends early")
    elif kind == _STRING:
        # Past the end, the next length cannot be read: a damaged length ends the loop at once.
        for _ in range(count):
            handle.seek(_length(handle, MAX_STRING, "a string length"), 1)
    elif kind == _ARRAY:
        raise GGUFError("an array of arrays is too long")
    else:
        raise GGUFError(f"unknown value type {kind}")


def read_metadata(path: Path) -> dict[str, Any]:
    """The key/value metadata of a GGUF file, e.g. `general.name`, `general.architecture`,
    `tokenizer.chat_template`. Long arrays (the vocabulary) are left out.

    Raises GGUFError (with the path) when the file is not GGUF or is damaged, OSError when it cannot
    be read.
    """
    with path.open("rb") as handle:
        magic = handle.read(4)
        if magic != MAGIC:
            raise GGUFError(f"{path} is not a GGUF model file (it starts with {magic!r})")
        try:
            version = _unpack(handle, "<I")
            if version < 2:
                raise GGUFError(f"GGUF version {version} is too old")
            _unpack(handle, "<Q")  # tensor count
            count = _length(handle, MAX_KEYS, "a key count")
            metadata: dict[str, Any] = {}
            for _ in range(count):
                key = _string(handle)
                value = _value(handle, _unpack(handle, "<I"))
                if value is not None:
                    metadata[key] = value
        except GGUFError as exc:
            raise GGUFError(f"{path}: damaged GGUF header: {exc}") from None
    return metadata


# A model has a few thousand tensors (a 70B Llama some 720); past this the header is damaged.
MAX_TENSORS = 1_000_000
_MAX_DIMS = 8
_ALIGNMENT = 32


def read_tensor_extent(path: Path) -> tuple[int, int]:
    """(parameters, bytes the file must hold at least) from a GGUF file's tensor table: the
    number of weights, and where the last tensor's data starts (so a file shorter than that
    was cut off, a download that did not finish). Raises GGUFError as `read_metadata` does."""
    with path.open("rb") as handle:
        if handle.read(4) != MAGIC:
            raise GGUFError(f"{path} is not a GGUF model file")
        try:
            _unpack(handle, "<I")
            tensors = _length(handle, MAX_TENSORS, "a tensor count")
            count = _length(handle, MAX_KEYS, "a key count")
            alignment = _ALIGNMENT
            for _ in range(count):
                key = _string(handle)
                kind = _unpack(handle, "<I")
                if kind == _ARRAY:
                    _skip_array(handle, _unpack(handle, "<I"), _length(handle, MAX_ITEMS, "an array length"))
                    continue
                value = _value(handle, kind)
                if key == "general.alignment" and isinstance(value, int) and value > 0:
                    alignment = value
            parameters = 0
            last_offset = 0
            for _ in range(tensors):
                _string(handle)
                dims = _unpack(handle, "<I")
                if dims > _MAX_DIMS:
                    raise GGUFError(f"a tensor of {dims} dimensions")
                size = 1
                for _ in range(dims):
                    size *= _unpack(handle, "<Q")
                _unpack(handle, "<I")  # the tensor's type
                last_offset = max(last_offset, _unpack(handle, "<Q"))
                parameters += size
            start = handle.tell()
            data_start = start + (-start % alignment)
        except GGUFError as exc:
            raise GGUFError(f"{path}: damaged GGUF header: {exc}") from None
    return parameters, data_start + last_offset
