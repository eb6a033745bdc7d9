"""Read the metadata at the head of a GGUF model file (name, architecture, chat template) without
loading the model."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, BinaryIO

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


class GGUFError(ValueError):
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


def _string(handle: BinaryIO) -> str:
    length = _unpack(handle, "<Q")
    return _read(handle, length).decode("utf-8", errors="replace")


def _value(handle: BinaryIO, kind: int) -> Any:
    if kind in _SCALARS:
        return _unpack(handle, _SCALARS[kind])
    if kind == _STRING:
        return _string(handle)
    if kind == _ARRAY:
        item_kind = _unpack(handle, "<I")
        count = _unpack(handle, "<Q")
        if count > _MAX_ARRAY:
            _skip_array(handle, item_kind, count)
            return None
        return [_value(handle, item_kind) for _ in range(count)]
    raise GGUFError(f"unknown value type {kind}")


def _skip_array(handle: BinaryIO, kind: int, count: int) -> None:
    if kind in _SCALARS:
        handle.seek(struct.calcsize(_SCALARS[kind]) * count, 1)
    elif kind == _STRING:
        for _ in range(count):
            handle.seek(_unpack(handle, "<Q"), 1)
    else:
        for _ in range(count):
            _value(handle, kind)


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
            count = _unpack(handle, "<Q")
            metadata: dict[str, Any] = {}
            for _ in range(count):
                key = _string(handle)
                value = _value(handle, _unpack(handle, "<I"))
                if value is not None:
                    metadata[key] = value
        except GGUFError as exc:
            raise GGUFError(f"{path}: damaged GGUF header: {exc}") from None
    return metadata
