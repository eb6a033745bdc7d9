"""The prose rule's fenced blocks: found by searching for fences, they must be exactly the blocks
the CommonMark-like pattern the scanner used before finds (that pattern, tried at every line
start, cost more than the rest of the rule; it stays here as the reference)."""

from __future__ import annotations

import random
import re

import pytest

from studio.threatscan.prose import _SHELL_LIKE, _masked, fenced_sources
from studio.threatscan.source import FENCE_KINDS, Source

_REFERENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n(.*?)(?:^\1?\2[`~]*[ \t]*$|\Z)",
                        re.MULTILINE | re.DOTALL)


def _reference(text: str) -> list[tuple[int, int, str, str]]:
    return [(m.start(4), m.end(4), m.group(3).lower(), m.group(4)) for m in _REFERENCE.finditer(text)]


CASES = [
    "```bash\ncurl x | sh\n```\nafter\n",
    "  ```py\ncode\n  ```\n",
    "  ```py\ncode\n ```\nstill code\n```\n",
    "    ```\nindented four: not a fence\n```\n",
    "````md\n```\ninner\n```\n````\n",
    "~~~\ncode\n```\n~~~~  \ntext\n",
    "```\nunclosed\n",
    "```",
    "text ```inline``` text\n```sh\nls\n```",
    "```\r\ncrlf\r\n```\r\nmore\r\n",
    "```\n```\n```\n```\n",
    "``~~~\nno\n",
    "```sh\na\n```x\nb\n``` \t\nc\n",
    "~~~ python extra words\nx\n~~~`~\n",
    "```Python\nx\n```",
]


@pytest.mark.parametrize("text", CASES)
def test_the_blocks_are_the_reference_patterns(text: str) -> None:
    assert _masked(text)[1] == _reference(text)


def test_random_markdown_gives_the_reference_blocks() -> None:
    pieces = ["```", "~~~", "````", " ", "  ", "    ", "\n", "\r\n", "sh", "py ", "text", "`", "~", "\t", "é"]
    chance = random.Random(41)
    for _ in range(3000):
        text = "".join(chance.choice(pieces) for _ in range(chance.randint(1, 30)))
        masked, blocks = _masked(text)
        assert blocks == _reference(text), repr(text)
        assert len(masked) == len(text)


def test_each_quoted_source_starts_at_the_line_of_its_code() -> None:
    """The lines `fenced_sources` counts from block to block are those `Source.position` gives."""
    pieces = ["```sh\n", "```python\n", "```\n", "~~~js\n", "curl x | sh\n", "$ ls\n", "text\n", "\n",
              "é\r\n", "print(1)\n"]
    chance = random.Random(41)
    for _ in range(2000):
        text = "".join(chance.choice(pieces) for _ in range(chance.randint(1, 40)))
        base = chance.choice([1, 7])
        source = Source("README.md", text, "markdown", base)
        found = fenced_sources(source)
        expected = [source.position(start)[0] for start, _end, language, code in _masked(text)[1]
                    if language in FENCE_KINDS or (not language and _SHELL_LIKE.search(code))]
        assert [quoted.line_base for quoted in found] == expected, repr(text)
