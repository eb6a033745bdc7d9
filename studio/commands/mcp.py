"""`studio mcp [--skills PATH]... [--http [--port N]]`: serve the library to MCP clients.

Over stdio by default, the way Claude Desktop, Claude Code, Codex, goose and Cursor start a local
server from their configuration; with `--http`, streamable HTTP on 127.0.0.1, every request
carrying the token printed at start (`--no-auth` serves without one; another address needs
`--allow-remote`). Search is
semantic (fused with words) when the local embedding model is installed, else by words; `--no-embed`
keeps it to words. stdout belongs to the protocol: everything the studio says goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.commands.arguments import port_number
from studio.paths import PrivateFolderError, cache_dir, runtime_dir
from studio.skills.scan import standard_locations
from studio.skills.search import index_path
from studio.textshow import shown

if TYPE_CHECKING:
    from studio.mcp import SkillLibrary

LOOPBACK = "127.0.0.1"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the library to MCP clients (Claude Desktop, Claude Code, Codex, ...)",
        description="Serve skills over the Model Context Protocol: the Skills extension "
        "(skills/list, skills/get, resources/directory/read, each file a skill:// resource with "
        "its SHA-256 in the manifest), and the tools search_skills, load_skill and "
        "read_skill_file for clients without it. Only skills without errors are served; the "
        "others are named on stderr with why. Scripts are never "
        "run. Over stdio (the default: a client starts `studio mcp` itself), or with --http over "
        "streamable HTTP at http://127.0.0.1:PORT/mcp, where every request must carry the token "
        "printed at start as `Authorization: Bearer TOKEN`.",
    )
    parser.add_argument("--skills", action="append", type=Path, default=[], metavar="PATH",
                        help="a skill, a folder of skills or a zip (repeatable; default: the "
                        "standard locations)")
    parser.add_argument("--http", action="store_true",
                        help="serve streamable HTTP on 127.0.0.1 instead of stdio")
    parser.add_argument("--port", type=port_number, default=0, metavar="N",
                        help="the HTTP port (default: a free one, printed at start)")
    parser.add_argument("--host", default=LOOPBACK, metavar="ADDRESS",
                        help="the address to listen on (default: %(default)s); one that is not "
                        "this machine's loopback also needs --allow-remote")
    parser.add_argument("--allow-remote", action="store_true",
                        help="let --host be an address other machines can reach (they still need "
                        "the token)")
    parser.add_argument("--no-auth", action="store_true",
                        help="serve HTTP without a token: then every user of this machine can "
                        "read every skill served (loopback only)")
    parser.add_argument("--no-embed", action="store_true",
                        help="rank searches by words only, even when the local embedding model "
                        "is installed")
    parser.set_defaults(handler=run)


def _refused_address(args: argparse.Namespace) -> str | None:
    """Why `--host` may not be used as given, or None."""
    from studio.mcp import is_loopback

    if is_loopback(args.host):
        return None
    if not args.allow_remote:
        return (f"--host {args.host} is not this machine's loopback, so other machines could "
                "connect; add --allow-remote if that is what you want")
    if args.no_auth:
        return (f"--no-auth with --host {args.host} would let anyone who reaches this machine "
                "read every skill; serve remotely with the token, or on loopback without it")
    return None


def run(args: argparse.Namespace) -> int:
    from studio.agent import search_embedder_for
    from studio.llm import local_model_installed
    from studio.mcp import SkillLibrary, build_server, serve_stdio

    if args.http:
        refused = _refused_address(args)
        if refused is not None:
            print(f"studio mcp: {refused}", file=sys.stderr)
            return 2
    paths = list(args.skills) or [path for path in standard_locations(Path.cwd()) if path.is_dir()]
    missing = [path for path in paths if not path.exists()]
    if missing:
        print(f"studio mcp: {shown(str(missing[0]))} does not exist", file=sys.stderr)
        return 2
    embedder = None if args.no_embed or not local_model_installed() else search_embedder_for("local", "", "")
    library = SkillLibrary(paths, index_file=index_path(cache_dir()), embedder=embedder,
                           report=_report)
    for problem in library.problems:
        print(f"studio mcp: {shown(str(problem))}", file=sys.stderr)
    for folder, why in library.refused:
        print(f"studio mcp: {shown(str(folder))} is not served: {shown(why)}. `studio validate "
              f"{shown(str(folder))}` shows the errors", file=sys.stderr)
    for folder, why in library.threats:
        print(f"studio mcp: {shown(str(folder))} is not served: {shown(why)}. `studio scan "
              f"{shown(str(folder))}` shows every finding", file=sys.stderr)
    for folder in library.shadowed:
        print(f"studio mcp: {shown(str(folder))} is not offered by the tools (an earlier skill "
              "has its name); the Skills extension serves it at a URI of its own",
              file=sys.stderr)
    ranking = "by meaning and words" if embedder is not None else "by words"
    try:
        if not args.http:
            print(f"studio mcp: serving {_count(library)} over stdio (search {ranking})",
                  file=sys.stderr)
            with contextlib.suppress(KeyboardInterrupt):
                asyncio.run(serve_stdio(build_server(library)))
            return 0
        return _serve_http(args, library, ranking)
    finally:
        library.close()


def _count(library: SkillLibrary) -> str:
    served = len(library.served.skills)
    return (f"{served} skills" if served == len(library.names)
            else f"{served} skills ({len(library.names)} by name through the tools)")


def _report(line: str) -> None:
    print(f"studio mcp: {shown(line)}", file=sys.stderr, flush=True)


def _exit_on_terminate() -> None:
    """Make SIGTERM and SIGHUP end the command as an exit, not a kill, so the token file goes
    with the server (uvicorn stops serving, then raises the signal again)."""
    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None:
            signal.signal(signum, stop)


def _serve_http(args: argparse.Namespace, library: SkillLibrary, ranking: str) -> int:
    from studio.mcp import bind_address, build_server, http_url, new_token, serve_http, write_token

    try:
        sock = bind_address(args.host, args.port)
    except OSError as exc:
        print(f"studio mcp: cannot listen on {shown(args.host)}:{args.port}: "
              f"{exc.strerror or exc}. Pick another --port, or leave it out for a free one.",
              file=sys.stderr)
        return 2
    url = http_url(sock)
    # Before the token file exists: a SIGTERM from then on must still remove it.
    _exit_on_terminate()
    token = None if args.no_auth else new_token()
    token_file = None
    try:
        if token is None:
            print("studio mcp: warning: --no-auth: every user of this machine can read every "
                  "skill served", file=sys.stderr)
        else:
            try:
                token_file = runtime_dir() / f"mcp-{sock.getsockname()[1]}.token"
                write_token(token_file, token)
            except (PrivateFolderError, OSError) as exc:
                print(f"studio mcp: the token is not kept in a file: {exc}", file=sys.stderr)
                token_file = None
        print(f"studio mcp: serving {_count(library)} at {url} (search {ranking}); "
              "Ctrl+C stops",
              file=sys.stderr)
        if token is not None:
            kept = f" (also in {token_file}, which only you can read)" if token_file else ""
            print(f"studio mcp: clients send the header `Authorization: Bearer {token}`{kept}, "
                  f"e.g. claude mcp add --transport http skill-studio {url} --header "
                  f"\"Authorization: Bearer {token}\"", file=sys.stderr)
        sys.stderr.flush()
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_http(build_server(library), sock, token))
        return 0
    finally:
        if token_file is not None:
            token_file.unlink(missing_ok=True)
