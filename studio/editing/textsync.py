"""Keeping two texts in step with the smallest edits, and converting Python offsets to Qt's.

Python indexes a string by code points; a `QTextDocument` counts UTF-16 units, so every character
outside the Basic Multilingual Plane (most emoji) takes two positions in Qt and one in Python.
"""

from __future__ import annotations


def common_prefix_length(a: str, b: str) -> int:
    """Length of the longest common prefix, by bisection over C-speed slice comparisons."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def changed_range(old: str, new: str) -> tuple[int, int, str]:
    """(start, end, replacement): replacing `old[start:end]` by `replacement` gives `new`."""
    start = common_prefix_length(old, new)
    old_rest, new_rest = old[start:], new[start:]
    tail = common_prefix_length(old_rest[::-1], new_rest[::-1])
    return start, len(old) - tail, new[start : len(new) - tail]


def utf16_length(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def qt_position(text: str, index: int) -> int:
    """The QTextDocument position of the Python offset `index` into `text`."""
    return utf16_length(text[:index])


def python_index(text: str, position: int) -> int:
    """The Python offset of the QTextDocument position `position` in `text`."""
    if text.isascii():
        return min(position, len(text))
    units = 0
    for index, char in enumerate(text):
        if units >= position:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(text)
