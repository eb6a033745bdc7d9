"""One file of a skill as the rules read it: its path in the skill, its text and its kind.

The kind decides which rules read the file (`registry.rules_for`): "skill" (the skill's own
SKILL.md), "markdown", "python", "shell", "javascript", "package.json", "requirements",
"setup.py", "pyproject" or "text". It comes from the name first
(a manifest's name is exact), then the extension, then a script's `#!` line: a file named `setup`
with `#!/usr/bin/env python3` is Python. Code quoted inside Markdown (a fenced block marked as a
shell, Python or JavaScript) is read as a `Source` of its own whose lines count from the block's
place in the file."""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field

_PLUS_ONE = (1).__add__
_BY_NAME = {
    "SKILL.md": "skill", "package.json": "package.json", "setup.py": "setup.py",
    "pyproject.toml": "pyproject", "setup.cfg": "text",
}
_BY_SUFFIX = {
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".txt": "text",
    ".py": "python", ".pyw": "python",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ksh": "shell", ".command": "shell",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".ts": "javascript",
    ".mts": "javascript", ".cts": "javascript", ".jsx": "javascript", ".tsx": "javascript",
}
_SHEBANG = (("python", "python"), ("node", "javascript"), ("deno", "javascript"), ("bun", "javascript"),
            ("bash", "shell"), ("zsh", "shell"), ("/sh", "shell"), (" sh", "shell"), ("ksh", "shell"))
# Fenced blocks' languages read as code; a block without one is read as shell only when it
# looks like a command line (see `prose.fenced_sources`).
FENCE_KINDS = {
    "sh": "shell", "bash": "shell", "shell": "shell", "zsh": "shell", "console": "shell",
    "shell-session": "shell", "shellsession": "shell", "terminal": "shell",
    "python": "python", "py": "python", "python3": "python",
    "js": "javascript", "javascript": "javascript", "ts": "javascript", "typescript": "javascript",
    "node": "javascript", "mjs": "javascript",
}


def kind_of(relative: str, head: str) -> str:
    name = relative.rpartition("/")[2]
    if name in _BY_NAME and (name != "SKILL.md" or "/" not in relative):
        return _BY_NAME[name] if name != "SKILL.md" else "skill"
    lowered = name.lower()
    if lowered.startswith("requirements") and lowered.endswith((".txt", ".in")):
        return "requirements"
    dot = lowered.rfind(".")
    if dot > 0 and lowered[dot:] in _BY_SUFFIX:
        return _BY_SUFFIX[lowered[dot:]]
    if head.startswith("#!"):
        first = head.split("\n", 1)[0]
        for word, kind in _SHEBANG:
            if word in first:
                return kind
    return "text"


@dataclass
class Source:
    """A text the rules read. `line_base` is the line in `file` where `text` starts (code quoted
    in Markdown); `quoted` says the text is such a quote, not a file of its own."""

    file: str
    text: str
    kind: str
    line_base: int = 1
    quoted: bool = False
    _starts: list[int] | None = field(default=None, repr=False)

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            # Each line starts one past the end of the one before: sums the C loops make.
            lengths = map(_PLUS_ONE, map(len, self.text.split("\n")))
            starts = [0, *itertools.accumulate(lengths)]
            starts.pop()  # one past the end of the last line: no line starts there
            self._starts = starts
        return self._starts

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column in `file` of an offset into `text`."""
        starts = self._line_starts()
        index = bisect.bisect_right(starts, offset) - 1
        return self.line_base + index, offset - starts[index] + 1

    def line_text(self, line: int) -> str:
        """The text of a line of `file` (as `position` numbers it)."""
        starts = self._line_starts()
        index = line - self.line_base
        if not 0 <= index < len(starts):
            return ""
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.text)
        return self.text[starts[index]:end]
