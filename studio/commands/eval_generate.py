"""`studio eval SKILL --generate-triggers [--count N] [--write]`: trigger queries written by the
model, reviewed before they are saved.

The queries are printed numbered. In a terminal the author answers which to keep (all, none, or
the numbers to drop); `--write` keeps them all without asking (scripts); without a terminal and
without `--write`, nothing is saved. Kept queries are added to evals/triggers.json: what is there
stays, duplicates are left out, and the file is written whole (temp file, then rename).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TextIO

import httpx

from studio.agent import DenyAllApprover
from studio.commands.options import parse_options
from studio.commands.sessions import session_factory
from studio.evals import add_queries, generate_triggers
from studio.llm import LLMError, checked_url
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.skills.scan import scan


def chosen(answer: str, count: int) -> list[int] | None:
    """The indexes to keep from an answer: "" or "all" keeps all, "none" none, numbers drop
    those (1-based). None when the answer cannot be read."""
    text = answer.strip().lower()
    if text in ("", "a", "all", "y", "yes"):
        return list(range(count))
    if text in ("n", "no", "none"):
        return []
    try:
        dropped = {int(word) for word in text.replace(",", " ").split()}
    except ValueError:
        return None
    if any(not 1 <= number <= count for number in dropped):
        return None
    return [index for index in range(count) if index + 1 not in dropped]


async def _generate(args: argparse.Namespace, skill: SkillSummary, library: list[SkillSummary],
                    existing: list[evalfiles.TriggerQuery]) -> list[evalfiles.TriggerQuery]:
    async with httpx.AsyncClient() as http:
        factory = session_factory(DenyAllApprover(), http)
        try:
            factory.server.configure(args.backend, checked_url(args.url) if args.url else "")
            client, model = await factory.server.open(args.grader_model or args.model)
            return await generate_triggers(client, model, skill, library, args.count, existing,
                                           parse_options(args.option))
        finally:
            await factory.close()


def run(args: argparse.Namespace, out: TextIO = sys.stdout, err: TextIO = sys.stderr,
        answer_in: TextIO = sys.stdin) -> int:
    code = 0
    for path in args.skills:
        collected = scan([path])
        for problem in collected.problems:
            err.write(f"studio eval: {problem}\n")
            code = 2
        for skill in (s for s in collected.skills if s.loadable and not s.read_only):
            library = [s for s in scan([skill.directory.parent]).skills if s.loadable]
            try:
                existing = list(evalfiles.read_triggers(skill.directory) or ())
            except evalfiles.EvalFileError as exc:
                err.write(f"studio eval: {exc}; fix it before adding queries\n")
                code = 2
                continue
            try:
                generated = asyncio.run(_generate(args, skill, library, existing))
            except LLMError as exc:
                err.write(f"studio eval: {exc.user_message}\n")
                return 1
            code = max(code, _review(skill, generated, args.write, out, err, answer_in))
    return code


def _review(skill: SkillSummary, generated: list[evalfiles.TriggerQuery], write: bool, out: TextIO,
            err: TextIO, answer_in: TextIO) -> int:
    if not generated:
        err.write(f"studio eval: the model wrote no query that could be read for "
                  f"{skill.display_name}; try again, or a larger model\n")
        return 1
    out.write(f"{skill.display_name}: {len(generated)} queries written by the model\n")
    for number, query in enumerate(generated, 1):
        kind = "should trigger" if query.should_trigger else "should not   "
        out.write(f"  {number:>2}. [{kind}] {query.query}\n")
    keep: list[int] | None = list(range(len(generated))) if write else None
    if keep is None and answer_in.isatty():
        while keep is None:
            out.write("Keep which? Enter for all, 'none', or the numbers to drop: ")
            out.flush()
            line = answer_in.readline()
            if not line:
                out.write("\nNothing saved.\n")
                return 0
            keep = chosen(line, len(generated))
    if keep is None:
        out.write("Nothing saved: run in a terminal to choose, or pass --write to keep them all.\n")
        return 0
    try:
        added = add_queries(skill.directory, [generated[index] for index in keep])
    except OSError as exc:
        err.write(f"studio eval: {skill.directory / 'evals' / 'triggers.json'} was not written: "
                  f"{exc}\n")
        return 2
    out.write(f"{added} queries added to {skill.directory / 'evals' / 'triggers.json'}\n")
    return 0
