"""`studio mcp [--skills PATH]... [--http [--port N]]`: serve the library to MCP clients.

Over stdio by default, the way Claude Desktop, Claude Code, Codex, goose and Cursor start a local
server from their configuration; with `--http`, streamable HTTP on 127.0.0.1 only. Search is
semantic (fused with words) when the local embedding model is installed, else by words; `--no-embed`
keeps it to words. stdout belongs to the protocol: everything the studio says goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any

from studio.commands.arguments import port_number
from studio.paths import cache_dir
from studio.skills.library import standard_locations
from studio.skills.search import index_path
from studio.textshow import shown


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the library to MCP clients (Claude Desktop, Claude Code, Codex, ...)",
        description="Serve skills over the Model Context Protocol: the tools search_skills, "
        "load_skill and read_skill_file, and each skill's files as resources. Scripts are never "
        "run. Over stdio (the default: a client starts `studio mcp` itself), or with --http over "
        "streamable HTTP at http://127.0.0.1:PORT/mcp.",
    )
    parser.add_argument("--skills", action="append", type=Path, default=[], metavar="PATH",
                        help="a skill, a folder of skills or a zip (repeatable; default: the "
                        "standard locations)")
    parser.add_argument("--http", action="store_true",
                        help="serve streamable HTTP on 127.0.0.1 instead of stdio")
    parser.add_argument("--port", type=port_number, default=0, metavar="N",
                        help="the HTTP port (default: a free one, printed at start)")
    parser.add_argument("--no-embed", action="store_true",
                        help="rank searches by words only, even when the local embedding model "
                        "is installed")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from studio.agent import search_embedder_for
    from studio.llm import local_model_installed
    from studio.mcp import SkillLibrary, bind_loopback, build_server, http_url, serve_http, serve_stdio

    paths = list(args.skills) or [path for path in standard_locations(Path.cwd()) if path.is_dir()]
    missing = [path for path in paths if not path.exists()]
    if missing:
        print(f"studio mcp: {missing[0]} does not exist", file=sys.stderr)
        return 2
    embedder = None if args.no_embed or not local_model_installed() else search_embedder_for("local", "", "")
    library = SkillLibrary(paths, index_file=index_path(cache_dir()), embedder=embedder)
    for problem in library.problems:
        print(f"studio mcp: {shown(str(problem))}", file=sys.stderr)
    for folder in library.shadowed:
        print(f"studio mcp: {shown(str(folder))} is not served: an earlier skill has its name",
              file=sys.stderr)
    ranking = "by meaning and words" if embedder is not None else "by words"
    server = build_server(library)
    try:
        if not args.http:
            print(f"studio mcp: serving {len(library.names)} skills over stdio (search {ranking})",
                  file=sys.stderr)
            with contextlib.suppress(KeyboardInterrupt):
                asyncio.run(serve_stdio(server))
            return 0
        try:
            sock = bind_loopback(args.port)
        except OSError as exc:
            print(f"studio mcp: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}. "
                  "Pick another --port, or leave it out for a free one.", file=sys.stderr)
            return 2
        print(f"studio mcp: serving {len(library.names)} skills at {http_url(sock)} "
              f"(search {ranking}); Ctrl+C stops", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_http(server, sock))
        return 0
    finally:
        library.close()
