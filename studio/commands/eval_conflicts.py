"""`studio eval --conflicts DIR...`: skills of a library that a model will confuse.

Descriptions that overlap (rare terms shared, and meaning when the local embedding model is
installed), then, unless `--descriptions-only`, each skill's should-trigger queries asked with
the whole library in the catalog: those answered by loading another skill. Prints one line per
conflict naming both skills and their folders (or JSON with --json); exit 0 when there are none,
1 when there are, 2 when a folder cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

import httpx

from studio.agent import DenyAllApprover, SessionSettings
from studio.commands.options import parse_options
from studio.commands.sessions import session_factory
from studio.evals import (
    CrossTrigger,
    EvalError,
    EvalRunner,
    Overlap,
    SkillReport,
    cross_triggers,
    description_overlaps,
    local_embedder,
    trigger_sets,
)
from studio.llm import Embedder, LLMError, checked_url
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.skills.scan import scan


async def conflicts(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    collected = scan(list(args.skills))
    for problem in collected.problems:
        err.write(f"studio eval: {problem}\n")
    library = [s for s in collected.skills if s.loadable and s.name]
    embedder = _embedder(args.no_embed, err)
    overlaps = description_overlaps(library, embedder)
    crossed: list[CrossTrigger] = []
    note = ""
    queries = _queries(library, err)
    if queries and not args.descriptions_only:
        try:
            crossed = await _ask(args, library, queries, err)
        except (EvalError, LLMError) as exc:
            note = ("the trigger queries were not asked: "
                    + (exc.user_message if isinstance(exc, LLMError) else str(exc)))
    elif not queries and not args.descriptions_only:
        note = "no skill here has evals/triggers.json, so only the descriptions were compared"
    if args.json:
        out.write(json.dumps({"overlaps": [_overlap_json(o) for o in overlaps],
                              "cross_triggers": [_cross_json(c) for c in crossed],
                              "skills": len(library), "note": note}) + "\n")
    else:
        _render(overlaps, crossed, len(library), note, out)
    if collected.problems:
        return 2
    return 1 if overlaps or crossed else 0


def _embedder(no_embed: bool, err: TextIO) -> Embedder | None:
    if no_embed:
        return None
    embedder, why = local_embedder()
    if why:
        err.write(f"studio eval: {why}; comparing words only\n")
    return embedder


def _queries(library: list[SkillSummary], err: TextIO) -> dict[str, list[evalfiles.TriggerQuery]]:
    found, problems = trigger_sets(library)
    for problem in problems:
        err.write(f"studio eval: {problem}\n")
    return found


async def _ask(args: argparse.Namespace, library: list[SkillSummary],
               queries: dict[str, list[evalfiles.TriggerQuery]], err: TextIO) -> list[CrossTrigger]:
    settings = SessionSettings(backend=args.backend, url=checked_url(args.url) if args.url else "",
                               model=args.model, max_rounds=args.max_rounds,
                               options=parse_options(args.option), guided=args.guided)

    def progress(message: str) -> None:
        err.write(f"studio eval: {message}\n")

    async with httpx.AsyncClient() as http:
        factory = session_factory(DenyAllApprover(), http)
        try:
            runner = EvalRunner(factory, settings, progress=progress)
            report = SkillReport("library", "conflicts", runner.model_id)
            return await cross_triggers(runner, library, queries, report)
        finally:
            await factory.close()


def _render(overlaps: list[Overlap], crossed: list[CrossTrigger], count: int, note: str,
            out: TextIO) -> None:
    out.write(f"{count:,} skills: {len(overlaps)} overlapping descriptions, {len(crossed)} trigger "
              "queries that load another skill\n")
    for overlap in overlaps:
        how = f"shared terms {', '.join(overlap.shared) or '-'}, word overlap {overlap.lexical:.2f}"
        if overlap.semantic is not None:
            how += f", meaning {overlap.semantic:.2f}"
        out.write(f"  overlap: {overlap.first.display_name} ({overlap.first.directory}) and "
                  f"{overlap.second.display_name} ({overlap.second.directory}): {how}\n")
    for cross in crossed:
        out.write(f"  a query of {cross.owner.display_name} ({cross.owner.directory}) loads "
                  f"{cross.loaded}: {cross.query!r}\n")
    if note:
        out.write(f"  note: {note}\n")


def _overlap_json(overlap: Overlap) -> dict[str, object]:
    return {"first": {"name": overlap.first.display_name, "path": str(overlap.first.directory)},
            "second": {"name": overlap.second.display_name, "path": str(overlap.second.directory)},
            "shared_terms": list(overlap.shared), "lexical": overlap.lexical,
            "semantic": overlap.semantic}


def _cross_json(cross: CrossTrigger) -> dict[str, object]:
    return {"skill": cross.owner.display_name, "path": str(cross.owner.directory),
            "loaded": cross.loaded, "query": cross.query}


def run(args: argparse.Namespace) -> int:
    import asyncio

    for path in args.skills:
        if not Path(path).exists():
            print(f"studio eval: {path} does not exist", file=sys.stderr)
            return 2
    return asyncio.run(conflicts(args, sys.stdout, sys.stderr))
