"""Write small GGUF files (a header with metadata, no tensors) for tests."""

from __future__ import annotations

import struct
from pathlib import Path


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def _value(value: object) -> bytes:
    if isinstance(value, bool):
        return struct.pack("<I?", 7, value)
    if isinstance(value, int):
        return struct.pack("<Iq", 11, value)
    if isinstance(value, float):
        return struct.pack("<Id", 12, value)
    if isinstance(value, str):
        return struct.pack("<I", 8) + _string(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return struct.pack("<IIQ", 9, 8, len(value)) + b"".join(_string(item) for item in value)
    if isinstance(value, list):
        return struct.pack("<IIQ", 9, 5, len(value)) + b"".join(struct.pack("<i", item) for item in value)
    raise TypeError(value)


def write_gguf(path: Path, metadata: dict[str, object]) -> Path:
    data = b"GGUF" + struct.pack("<IQQ", 3, 0, len(metadata))
    for key, value in metadata.items():
        data += _string(key) + _value(value)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def write_model(path: Path, metadata: dict[str, object], shapes: list[tuple[int, ...]],
                data: int | None = None) -> Path:
    """A GGUF file with a tensor table (F32 tensors of `shapes`) and `data` bytes of weights
    after it (all of them when None; fewer make a download cut short)."""
    write_gguf(path, metadata)
    raw = bytearray(path.read_bytes())
    raw[8:16] = struct.pack("<Q", len(shapes))
    offset = 0
    for number, shape in enumerate(shapes):
        name = f"t{number}".encode()
        raw += struct.pack("<Q", len(name)) + name + struct.pack("<I", len(shape))
        raw += b"".join(struct.pack("<Q", dim) for dim in shape)
        raw += struct.pack("<IQ", 0, offset)
        count = 1
        for dim in shape:
            count *= dim
        offset += count * 4
    raw += b"\0" * (-len(raw) % 32) + b"\0" * (offset if data is None else data)
    path.write_bytes(bytes(raw))
    return path
