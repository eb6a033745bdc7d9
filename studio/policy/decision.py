"""What the policy says about a command: the verdict, why, and what the approver should be warned of."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from studio.policy.grants import GrantProposal

Verdict = Literal["allow", "ask", "block"]

_RANK: dict[Verdict, int] = {"allow": 0, "ask": 1, "block": 2}

# Warning kinds the approval dialog shows in red; the rest (program, write, network) in amber.
SERIOUS_KINDS = frozenset({"outside", "indirection", "dotfile", "history", "parse", "secrets"})

# Ask-level kinds an "always allow" grant may cover. The others always ask again.
GRANTABLE_KINDS = frozenset({"program", "write", "network"})


def strictest(verdicts: list[Verdict] | tuple[Verdict, ...]) -> Verdict:
    best: Verdict = "allow"
    for verdict in verdicts:
        if _RANK[verdict] > _RANK[best]:
            best = verdict
    return best


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a rule noticed about one part of a command.

    Attributes:
        verdict: what this finding alone would make of the command.
        kind: block kinds are destructive, privilege, credential, exfiltration, allowed-tools
            (the skill's own limit) and parse (could not be checked); ask kinds are
            outside, network, dotfile, history, indirection, parse, secrets, write, program.
        message: for block, a sentence addressed to the model; otherwise to the user.
    """

    verdict: Verdict
    kind: str
    message: str


def blocked(kind: str, part: str, what: str) -> Finding:
    return Finding(
        "block",
        kind,
        f"blocked: `{shorten(part)}` {what}; ask the user to run it themselves if it is really needed",
    )


def asking(kind: str, message: str) -> Finding:
    return Finding("ask", kind, message)


def shorten(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class PolicyWarning:
    """A reason to think twice before approving; `kind` tells the dialog how to colour it."""

    kind: str
    message: str

    @property
    def serious(self) -> bool:
        return self.kind in SERIOUS_KINDS


@dataclass(frozen=True, slots=True)
class PolicyContext:
    """Where a command would run.

    Attributes:
        workspace: the project folder the policy protects; paths outside it are "outside".
        cwd: the folder the command runs in (the skill's folder), inside or equal to workspace.
        home: what `~` and `$HOME` expand to.
        skill: the skill whose command it is, for messages.
        allowed_tools: that skill's `allowed-tools`, when it has them; a command they do not
            cover is blocked.
    """

    workspace: Path
    cwd: Path
    home: Path
    skill: str | None = None
    allowed_tools: tuple[str, ...] | None = None

    @classmethod
    def for_dirs(cls, workspace: Path, cwd: Path | None = None, home: Path | None = None) -> PolicyContext:
        return cls(
            Path(workspace),
            Path(cwd if cwd is not None else workspace),
            Path(home if home is not None else Path.home()),
        )

    def resolved(self) -> PolicyContext:
        """The same context with every folder made absolute and its links followed."""
        return PolicyContext(
            _real(self.workspace), _real(self.cwd), _real(self.home), self.skill, self.allowed_tools
        )


def _real(path: Path) -> Path:
    return Path(os.path.realpath(os.path.expanduser(path)))


@dataclass(frozen=True, slots=True)
class Decision:
    """The policy's answer for one command line.

    Attributes:
        verdict: allow (run it), ask (the user approves first) or block (never; tell the model).
        reasons: why this verdict; for block, sentences meant for the model.
        warnings: every ask-level concern, whatever the verdict, for the approval dialog.
        parts: the simple commands the line was split into, as written.
        grant: what "always allow" would grant, or None when no grant could allow this command.
        blockers: the findings that block it, with their kinds (destructive, privilege,
            credential, exfiltration); empty unless the verdict is block.
    """

    verdict: Verdict
    reasons: tuple[str, ...]
    warnings: tuple[PolicyWarning, ...]
    parts: tuple[str, ...] = ()
    grant: GrantProposal | None = None
    blockers: tuple[PolicyWarning, ...] = ()

    @property
    def allowed(self) -> bool:
        return self.verdict == "allow"

    @property
    def blocked(self) -> bool:
        return self.verdict == "block"

    def warning_pairs(self) -> tuple[tuple[str, str], ...]:
        return tuple((w.kind, w.message) for w in self.warnings)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "decision": self.verdict,
            "reasons": list(self.reasons),
            "warnings": [w.message for w in self.warnings],
            "details": [{"kind": w.kind, "message": w.message} for w in self.warnings],
            "parts": list(self.parts),
            "blocked_by": [{"kind": b.kind, "message": b.message} for b in self.blockers],
        }
        data["grant"] = self.grant.to_json() if self.grant is not None else None
        return data
