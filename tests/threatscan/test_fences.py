"""The prose rule's fenced blocks: found by searching for fences, they must be exactly the blocks
the CommonMark-like pattern the scanner used before finds (that pattern, tried at every line
start, cost more than the rest of the rule; it stays here as the reference)."""

from __future__ import annotations

import random
import re

import pytest

from studio.threatscan.prose import _masked

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
