"""`studio policy check|grants|revoke|log`: how the tool policy judges a command, the grants the
user made, and the audit log."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.policy import AuditError, AuditLog, Decision, Grants, GrantsError, PolicyContext, judge
from studio.textshow import shown, shown_json

EXIT_USAGE = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "policy",
        help="how the tool policy judges a command; grants and the audit log",
        description="The policy judges every command a skill would run: allow, ask or block.",
    )
    parser.set_defaults(handler=lambda args: _usage(parser))
    actions = parser.add_subparsers(dest="policy_action", metavar="ACTION")

    check = actions.add_parser(
        "check",
        help="print the decision for a command",
        description="Print the policy's decision for COMMAND (several words joined with spaces, or "
        "one quoted string). Exit 0 whatever the decision, 2 for usage errors.",
    )
    check.add_argument(
        "--workspace", type=Path, metavar="DIR", help="the project folder the policy protects (default: here)"
    )
    check.add_argument(
        "--skill-dir",
        type=Path,
        metavar="DIR",
        help="where the command runs, inside the workspace (default: the workspace)",
    )
    check.add_argument("--json", action="store_true", help="print the decision as JSON")
    check.add_argument(
        "--no-grants", action="store_true", help="ignore the commands you chose to always allow"
    )
    check.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND")
    check.set_defaults(handler=run_check)

    grants = actions.add_parser("grants", help="list the commands you chose to always allow")
    grants.add_argument("--workspace", type=Path, metavar="DIR", help="only this workspace's grants")
    grants.add_argument("--json", action="store_true")
    grants.set_defaults(handler=run_grants)

    revoke = actions.add_parser(
        "revoke",
        help="remove a remembered grant",
        description="Remove the grant KEY (as `studio policy grants` lists it, e.g. cat:references/).",
    )
    revoke.add_argument("key", metavar="KEY")
    revoke.add_argument("--workspace", type=Path, metavar="DIR", help="only in this workspace")
    revoke.set_defaults(handler=run_revoke)

    log = actions.add_parser("log", help="show the last entries of the audit log")
    log.add_argument("-n", type=int, default=20, metavar="N", help="how many (default 20)")
    log.add_argument("--json", action="store_true", help="one JSON object per line")
    log.set_defaults(handler=run_log)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("studio policy: choose an action: check, grants, revoke or log", file=sys.stderr)
    return EXIT_USAGE


def _folder(option: str, value: Path | None, default: Path) -> Path | None:
    folder = (value or default).expanduser()
    if not folder.is_dir():
        print(f"studio policy check: {option} {folder} is not a folder", file=sys.stderr)
        return None
    return folder.resolve()


def run_check(args: argparse.Namespace) -> int:
    words = list(args.command)
    if words and words[0] == "--":
        words = words[1:]
    command = " ".join(words)
    if not command.strip():
        print(
            "studio policy check: give the command after --, e.g. studio policy check -- ls -la",
            file=sys.stderr,
        )
        return EXIT_USAGE
    workspace = _folder("--workspace", args.workspace, Path.cwd())
    if workspace is None:
        return EXIT_USAGE
    skill_dir = _folder("--skill-dir", args.skill_dir, workspace)
    if skill_dir is None:
        return EXIT_USAGE
    if not skill_dir.is_relative_to(workspace):
        print(
            f"studio policy check: --skill-dir {skill_dir} is not inside the workspace {workspace}; "
            "pass a --workspace that contains it",
            file=sys.stderr,
        )
        return EXIT_USAGE
    grants = None
    if not args.no_grants:
        grants = Grants()
        if grants.problem:
            print(f"studio policy check: {grants.problem}", file=sys.stderr)
    context = PolicyContext.for_dirs(workspace, skill_dir)
    decision = judge(command, context, grants)
    try:
        AuditLog().record_decision(command, skill_dir, decision, event="check", workspace=workspace)
    except AuditError as exc:
        print(f"studio policy check: {exc}", file=sys.stderr)
    if args.json:
        json.dump(decision.to_json(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        _print_decision(decision)
    return 0


def _print_decision(decision: Decision) -> None:
    # Reasons quote the command's words: shown, so an escape in them cannot act on the terminal.
    print(decision.verdict)
    messages = {w.message for w in decision.warnings}
    for reason in decision.reasons:
        if reason not in messages:
            print(f"  reason: {shown(reason)}")
    for warning in decision.warnings:
        print(f"  warning ({warning.kind}): {shown(warning.message)}")
    if decision.grant is not None:
        print(f'  "always allow" would allow: {shown(decision.grant.description)}')


def run_grants(args: argparse.Namespace) -> int:
    grants = Grants()
    listed = grants.for_workspace(args.workspace) if args.workspace else grants.all()
    if args.json:
        json.dump(
            {"file": str(grants.path), "problem": grants.problem, "grants": [g.to_json() for g in listed]},
            sys.stdout,
            ensure_ascii=False,
        )
        sys.stdout.write("\n")
    elif not listed:
        print(f"no grants (they are kept in {grants.path})")
    else:
        for grant in listed:
            print(shown(f"{grant.key}\t{grant.workspace}\t{grant.describe()}"))
    if grants.problem:
        print(f"studio policy grants: {grants.problem}", file=sys.stderr)
        return 1
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    grants = Grants()
    try:
        removed = grants.revoke(args.key, args.workspace)
    except GrantsError as exc:
        print(f"studio policy revoke: {exc}", file=sys.stderr)
        return 1
    if not removed:
        where = f" in {args.workspace}" if args.workspace else ""
        print(
            f"studio policy revoke: there is no grant {args.key}{where}; `studio policy grants` lists them",
            file=sys.stderr,
        )
        return 1
    for grant in removed:
        print(shown(f"revoked {grant.key} in {grant.workspace}"))
    return 0


def run_log(args: argparse.Namespace) -> int:
    if args.n < 1:
        print("studio policy log: -n must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    log = AuditLog()
    entries = log.tail(args.n)
    for entry in entries:
        if args.json:
            print(shown_json(json.dumps(entry.to_json(), ensure_ascii=False)))
        else:
            outcome = entry.decision or entry.writes_outcome()
            if entry.exit_code is not None:
                outcome += f" exit {entry.exit_code}"
            # A model wrote most of these commands.
            print(f"{entry.timestamp}  {entry.event:8} {outcome:12} {shown(entry.command)}")
    if log.skipped:
        print(f"studio policy log: skipped {log.skipped} unreadable lines in {log.path}", file=sys.stderr)
    return 0
