"""What fitting the skills' catalog to a small model's context saves: the first request's
estimated tokens (system prompt, the question, the tools) with every skill, and fitted to a
quarter of the context, for a library of synthetic skills with one that the question needs.

    python benchmarks/context_fit.py [--skills 400] [--context 4096]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.agent.budget import answer_reserve, request_tokens  # noqa: E402
from studio.agent.prompt import fit_system_prompt, system_prompt  # noqa: E402
from studio.agent.tools import SkillToolbox  # noqa: E402
from studio.llm import Message  # noqa: E402
from studio.skills import SkillSummary  # noqa: E402

QUESTION = "How many kilometres is a marathon of 26.2 miles? Convert it for me."
NEEDED = "unit-converter"
TOPICS = (
    "report", "invoice", "table", "chart", "image", "audio", "video", "email", "calendar",
    "contact", "database", "query", "schema", "deploy", "docker", "cluster", "log", "metric",
    "alert", "ticket", "review", "commit", "branch", "release", "package", "translate", "summary",
    "outline", "slide", "document", "spreadsheet", "budget", "forecast",
)


def _summary(name: str, description: str) -> SkillSummary:
    directory = Path("/skills") / name
    return SkillSummary(Path("/skills"), directory, directory / "SKILL.md", name, description,
                        True, True, ())


def library(count: int) -> list[SkillSummary]:
    rng = random.Random(13)
    skills = []
    for number in range(count - 1):
        a, b, c, d = rng.sample(TOPICS, 4)
        skills.append(_summary(f"{a}-{b}-{number}", f"Create, check and convert {a} and {b} files; "
                               f"build a {c} from {d} data. Use when the user mentions {a} or {c}."))
    skills.insert(count // 2, _summary(NEEDED, "Convert quantities between units of length, mass, "
                                       "volume and temperature. Use when asked to convert a measurement."))
    return skills


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=400)
    parser.add_argument("--context", type=int, default=4096)
    args = parser.parse_args()
    skills = library(args.skills)
    toolbox = SkillToolbox(skills, Path.cwd())
    whole, _ = system_prompt(skills)
    before = request_tokens([Message("system", whole), Message("user", QUESTION)], toolbox.specs())
    fitted = fit_system_prompt(skills, args.context, query=QUESTION)
    kept = [name for name in toolbox.names if name not in set(fitted.left_out)]
    after = request_tokens([Message("system", fitted.text), Message("user", QUESTION)],
                           toolbox.specs(offered=kept))
    print(f"{args.skills} skills, a {args.context:,}-token model "
          f"(room for the request: {args.context - answer_reserve(args.context):,})")
    print(f"  every skill:  {before:>7,} tokens")
    print(f"  fitted:       {after:>7,} tokens, {len(kept)} skills kept, "
          f"{'with' if NEEDED in kept else 'WITHOUT'} {NEEDED}")
    return 0 if NEEDED in kept and after <= args.context - answer_reserve(args.context) else 1


if __name__ == "__main__":
    sys.exit(main())
