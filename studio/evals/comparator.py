"""Blind comparison, as skill-creator's comparator does it: a grader model is shown two answers to
the same request as A and B and picks the better, not knowing which came from which version.
Which side each version takes is decided by a hash of the request and run, so a bias for "A" (a
small model's usual bias) falls on both versions alike, and a rerun asks the same question."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from studio.evals.replies import answer_text
from studio.evals.report import EvalResult
from studio.llm import ChatClient, Message

MAX_SHOWN = 4_000
COMPARATOR_SYSTEM = (
    "You compare two answers to the same request and judge which serves the user better: "
    "correct, complete, clear. Answer with a first line that is exactly A, B or TIE, then one "
    "sentence saying why."
)
_CHOICE = re.compile(r"^\W*(A|B|TIE)\b", re.IGNORECASE)

Winner = Literal["new", "old", "tie", "none"]


@dataclass(frozen=True, slots=True)
class Comparison:
    """One blind comparison: which version won ("none": the grader gave no readable choice),
    which side the new version was shown as, and the grader's reason."""

    eval_id: str
    run: int
    winner: Winner
    new_shown_as: str
    reasoning: str

    def to_json(self) -> dict[str, Any]:
        return {"eval_id": self.eval_id, "run": self.run, "winner": self.winner,
                "new_shown_as": self.new_shown_as, "reasoning": self.reasoning}


def new_side(prompt: str, run: int) -> str:
    digest = hashlib.sha256(f"{prompt}\0{run}".encode()).digest()
    return "A" if digest[0] % 2 == 0 else "B"


def comparison_prompt(request: str, first: str, second: str) -> str:
    return (f"The user asked:\n{request[:MAX_SHOWN]}\n\n"
            f"Answer A:\n{first[:MAX_SHOWN] or '(no answer)'}\n\n"
            f"Answer B:\n{second[:MAX_SHOWN] or '(no answer)'}\n\n"
            "Which answer is better? A, B or TIE?")


def read_choice(text: str) -> tuple[str | None, str]:
    stripped = text.strip()
    match = _CHOICE.match(stripped)
    if match is None:
        return None, stripped
    lines = stripped.splitlines()
    rest = " ".join(line.strip() for line in lines[1:] if line.strip())
    return match.group(1).upper(), rest or stripped


async def compare(client: ChatClient, model: str, request: str, new: EvalResult, old: EvalResult,
                  options: dict[str, Any] | None = None) -> Comparison:
    side = new_side(request, new.run)
    new_answer, old_answer = _answer(new), _answer(old)
    first, second = (new_answer, old_answer) if side == "A" else (old_answer, new_answer)
    messages = [Message("system", COMPARATOR_SYSTEM),
                Message("user", comparison_prompt(request, first, second))]
    choice, reason = read_choice(await answer_text(client, model, messages, options))
    winner: Winner
    if choice is None:
        winner = "none"
    elif choice == "TIE":
        winner = "tie"
    else:
        winner = "new" if choice == side else "old"
    return Comparison(new.id, new.run, winner, side, reason[:500])


def _answer(result: EvalResult) -> str:
    answer = result.trace.get("answer", "")
    return answer if isinstance(answer, str) else ""


def pairs(new: Sequence[EvalResult], old: Sequence[EvalResult]) -> list[tuple[EvalResult, EvalResult]]:
    """The runs of the two versions to compare: same eval, same run number."""
    by_key = {(r.id, r.run): r for r in old}
    return [(r, by_key[(r.id, r.run)]) for r in new if (r.id, r.run) in by_key]


def tally(comparisons: Sequence[Comparison]) -> dict[str, int]:
    counts = {"new": 0, "old": 0, "tie": 0, "none": 0}
    for comparison in comparisons:
        counts[comparison.winner] += 1
    return counts
