"""The scan process's frames on the wire: a 4-byte big-endian length, then a `marshal`led tuple
(what each tuple holds: `studio.skills.scan.process`). The writer and the reader side by side,
so the format has one owner; `ScanClient` turns the frames into typed events."""

from __future__ import annotations

import marshal
import struct
from typing import Any, BinaryIO

HEADER = struct.Struct(">I")


def write_frame(out: BinaryIO, message: tuple[Any, ...]) -> None:
    data = marshal.dumps(message)
    out.write(HEADER.pack(len(data)) + data)
    out.flush()


def read_frames(buffer: bytearray) -> list[tuple[Any, ...]]:
    """Take every complete frame off the front of `buffer`."""
    frames: list[tuple[Any, ...]] = []
    offset = 0
    while len(buffer) - offset >= HEADER.size:
        (length,) = HEADER.unpack_from(buffer, offset)
        end = offset + HEADER.size + length
        if len(buffer) < end:
            break
        frames.append(marshal.loads(bytes(buffer[offset + HEADER.size:end])))
        offset = end
    del buffer[:offset]
    return frames
