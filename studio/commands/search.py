"""`studio search QUERY [--skills PATH]... [--json] [--limit N]`: find skills by what they do.

Lexical (BM25 over name, description and body) always; fused with a semantic ranking when
`--embed-model` names an embedding model on an Ollama or OpenAI-compatible server, or with
`--embed-backend local` (all-MiniLM-L6-v2 run in this process, the `embed` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.agent import search_embedder_for
from studio.commands.arguments import positive
from studio.commands.options import SKILL_SOURCE_HELP, served_consent_flag, skill_source
from studio.commands.served import skill_paths
from studio.paths import cache_dir
from studio.skills.scan import ScanCache, scan, standard_locations
from studio.skills.search import Embedder, EmbeddingError, SearchIndex, index_path
from studio.textshow import shown, shown_json

SCAN_CACHE_FILE = "validate-cache.marshal"
DEFAULT_EMBED_URLS = {"ollama": "http://127.0.0.1:11434", "openai": "http://127.0.0.1:8080"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "search",
        help="find skills by what they do",
        description="Rank skills by how well their name, description and instructions match "
        "QUERY. With --embed-model, rank by meaning too (an embedding model on Ollama or an "
        "OpenAI-compatible server), or with --embed-backend local (all-MiniLM-L6-v2 in this "
        "process), and fuse both rankings.",
    )
    parser.add_argument("query", metavar="QUERY")
    parser.add_argument("--skills", action="append", type=skill_source, default=[],
                        metavar="PATH", help=f"{SKILL_SOURCE_HELP} (repeatable; default: the "
                        "standard locations)")
    served_consent_flag(parser)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--limit", type=positive, default=10, metavar="N",
                        help="at most N results (default: 10)")
    parser.add_argument("--embed-model", default="", metavar="MODEL",
                        help="an embedding model for semantic ranking (e.g. nomic-embed-text)")
    parser.add_argument("--embed-backend", choices=("ollama", "openai", "local"), default="ollama",
                        help="the kind of server the embedding model is on (default: ollama), or "
                        "local: all-MiniLM-L6-v2 in this process, no server and no --embed-model")
    parser.add_argument("--embed-url", default="", metavar="URL",
                        help="the embedding server's URL (default: the backend's usual local one)")
    parser.set_defaults(handler=run)



def run(args: argparse.Namespace) -> int:
    given = list(args.skills) or [path for path in standard_locations(Path.cwd()) if path.is_dir()]
    roots = skill_paths("search", args, given)
    collected = scan(roots.paths, ScanCache(cache_dir() / SCAN_CACHE_FILE))
    collected.skills, shadowed = roots.drop_shadowed(collected.skills)
    for shadow in shadowed:
        print(f"studio search: {shown(shadow)}", file=sys.stderr)
    for problem in collected.problems:
        print(f"studio search: {shown(str(problem))}", file=sys.stderr)
    embedder = None
    if args.embed_model or args.embed_backend == "local":
        url = args.embed_url or DEFAULT_EMBED_URLS.get(args.embed_backend, "")
        try:
            embedder = search_embedder_for(args.embed_backend, args.embed_model, url)
        except ValueError as exc:
            print(f"studio search: {exc}", file=sys.stderr)
            return 2
    with SearchIndex(index_path(cache_dir())) as index:
        index.update(collected.skills)
        failed = None if embedder is None else _embed(index, embedder)
        outcome = index.search(args.query, args.limit, None if failed else embedder)
    note = failed or outcome.note
    if note is not None and (embedder is not None or not args.json):
        print(f"studio search: {note}", file=sys.stderr)
    if args.json:
        print(shown_json(json.dumps(
            {"results": [hit.to_json() for hit in outcome.hits], "ranking": outcome.mode},
            ensure_ascii=False,
        )))
    elif not outcome.hits:
        print(f"no skill matches {args.query!r}", file=sys.stderr)
    else:
        for hit in outcome.hits:
            print(f"{shown(hit.name)}  ({shown(str(hit.path))})  {hit.score:.3f}\n"
                  f"    {shown(_one_line(hit.snippet))}")
    if collected.problems:
        return 2
    return 0 if outcome.hits else 1


def _embed(index: SearchIndex, embedder: Embedder) -> str | None:
    """Embed the skills the model has not seen, with progress on stderr (the first time over a
    large library takes minutes); None when done, else why the search stays lexical."""
    end = "\r" if sys.stderr.isatty() else "\n"
    shown = False

    def progress(done: int, total: int) -> None:
        nonlocal shown
        shown = True
        print(f"studio search: embedding skills with {embedder.label}: {done}/{total}",
              end=end, file=sys.stderr, flush=True)

    try:
        index.embed(embedder, progress)
    except EmbeddingError as exc:
        return f"lexical ranking only: {exc.user_message}"
    finally:
        if shown and end == "\r":
            print(file=sys.stderr)
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split())
