"""The studio's first threat rules (SK501 to SK506, `studio.skills.checks`), run on every file
and ranked: those rules give every finding the one severity `warning` (or `info` for a vendor's
own host); here each gets the severity its kind of finding deserves where it was found."""

from __future__ import annotations

from collections.abc import Iterator

from studio.skills import Diagnostic, Severity, codes
from studio.skills.checks import text_threats
from studio.threatscan.findings import Finding
from studio.threatscan.registry import rule
from studio.threatscan.source import Source

_CODE_KINDS = frozenset({"python", "shell", "javascript", "setup.py"})


def _severity(diagnostic: Diagnostic, code_file: bool) -> tuple[str, float] | None:
    message = diagnostic.message
    if diagnostic.code == codes.HIDDEN_INSTRUCTIONS:
        return None  # the prose rule reads comments, with the phrase model
    if diagnostic.severity is Severity.INFO:
        return ("low", 0.4) if diagnostic.code == codes.PIPE_TO_SHELL else ("info", 0.3)
    if diagnostic.code == codes.HIDDEN_UNICODE:
        if "tag character" in message:
            return "high", 0.8
        if "bidirectional" in message:
            return ("high", 0.7) if code_file else ("medium", 0.5)
        return ("medium", 0.4) if code_file else ("low", 0.3)
    if diagnostic.code == codes.PIPE_TO_SHELL:
        return "high", 0.7
    if diagnostic.code == codes.ENCODED_TO_SHELL:
        return "critical", 0.85
    if diagnostic.code == codes.DATA_OUT:
        return ("medium", 0.5) if "webhook" in message or "uploads" in message else ("low", 0.3)
    if diagnostic.code == codes.READS_CREDENTIALS:
        return ("medium", 0.5) if "reads credentials" in message else ("low", 0.3)
    return "medium", 0.4


def _ranked(found: list[Diagnostic], source: Source) -> Iterator[Finding]:
    code_file = source.kind in _CODE_KINDS
    for diagnostic in found:
        ranked = _severity(diagnostic, code_file)
        if ranked is None:
            continue
        line = diagnostic.line + source.line_base - 1
        yield Finding(diagnostic.code, ranked[0], ranked[1], source.file, line, diagnostic.column,
                      diagnostic.message, source.line_text(line).strip()[:120])


@rule("first-rules", ("skill", "markdown", "python", "shell", "javascript", "text", "setup.py",
                      "package.json", "requirements", "pyproject"),
      "hidden characters, pipes into a shell, encoded code run, data sent out and credentials "
      "read, by the validator's SK501-SK506 rules, ranked")
def first_rules(source: Source) -> Iterator[Finding]:
    # The first rules read commands in scripts and references only: every other file is read
    # as one of those, code as a script, prose (SKILL.md too) as a reference.
    as_script = source.kind in _CODE_KINDS or source.kind in ("package.json", "text")
    relative = ("scripts/" if as_script else "references/") + source.file
    yield from _ranked(text_threats(source.text, relative), source)
