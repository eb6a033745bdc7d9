"""How long the tool policy takes to judge one command: over the decision table's commands, and
the worst case over hostile inputs (deep nesting, brace bombs, disk-wide globs, long escapes; the
table's own "limits" rows among them).

Every command is judged `--runs` times in the same fixed world the policy tests use (a skill
project, a home with secrets, a folder outside); a table command's figure is the median of its
runs, and p50/p99 are taken over the commands. A hostile input's figure is its slowest run.

    python benchmarks/policy_check.py [--runs 20] [--no-check]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.policy import PolicyContext, judge  # noqa: E402
from tests.policy.test_decisions_table import LIMIT_ROWS, ROWS  # noqa: E402
from tests.policy.world import World, build_world  # noqa: E402

P99_TARGET_MS = 5.0
Clock = Callable[[], float]
WORST_TARGET_MS = 250.0

HOSTILE = {
    "env x300": "env " * 300 + "ls",
    "{a,b} x1200": "echo " + "{a,b}" * 1200,
    "{a..z} x4": "echo {a..z}{a..z}{a..z}{a..z}",
    "$( x500": "echo " + "$(" * 500 + "ls" + ")" * 500,
    "( x2000": "(" * 2000 + "ls" + ")" * 2000,
    "${ x300": "echo " + "${a:-" * 300 + "}" * 300,
    "disk-wide glob": "cat /*/*/*/*/*/*/*/*/zz",
    "deeper glob": "ls " + "/*" * 14,
    "sed + 40 backslashes": "sed 's/" + "\\" * 40,
    "sed script 20,000 chars": "sed '" + "s/a/b/;" * 3000 + "' README.md",
    "NUL in $'...'": "cat $'\\x00'",
    "99,000 characters": "echo " + "a " * 49_000,
    "10,000 pipes": " | ".join(["cat README.md"] * 10_000),
    "backslashes x10,000": "x=" + "\\" * 10_000,
    "awk 20,000 chars": "awk '" + "{print $1 > 2}" * 1400 + "' README.md",
    "500 cds": "; ".join(["cd references", "cd .."] * 250) + "; cat README.md",
    # Issue 25: embedded programs as big as a command line holds.
    "awk 16,000 prints": "awk 'BEGIN{" + "print;" * 16_000 + "}'",
    "awk 14,000 strings with ; and |": "awk 'BEGIN{" + 'x=";|";' * 14_000 + "}' README.md",
    "awk 16 KB of strings": "awk 'BEGIN{" + 'x=";|";' * 2_300 + "}' README.md",
    "awk 6,000 system() calls": "awk 'BEGIN{" + 'system("ls");' * 6_000 + "}'",
    "sed 14,000 commands": "sed '" + "s/a/b/;" * 14_000 + "' README.md",
    "sed 16 KB of brackets": "sed '" + "s/[a]/b/;" * 1_800 + "' README.md",
    "sed 19,000 e commands": "sed '" + "e ls\n" * 19_000 + "' README.md",
    "jq 4,000 env": "jq -n '" + "env|" * 4_000 + ".'",
}


def _time(command: str, context: PolicyContext, runs: int, clock: Clock = time.perf_counter) -> list[float]:
    times: list[float] = []
    for _ in range(runs):
        started = clock()
        judge(command, context)
        times.append((clock() - started) * 1000)
    return times


def _command(row: str, world: World) -> str:
    return row.replace("{ws}", str(world.workspace)).replace("{home}", str(world.home)).replace(
        "{out}", str(world.outside)
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-check", action="store_true", help="print the figures only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        world = build_world(Path(folder))
        context = world.context
        # Each command's median over its runs: one figure per command, steady under other load.
        rows = [row for row in ROWS if row not in LIMIT_ROWS]
        table = [statistics.median(_time(_command(row[0], world), context, args.runs)) for row in rows]
        hostile = dict(HOSTILE)
        hostile.update({f"table: {row[0][:24]!r}": _command(row[0], world) for row in LIMIT_ROWS})
        worst: dict[str, tuple[float, float, str]] = {}
        for name, command in hostile.items():
            count = max(args.runs // 4, 1)
            walls = _time(command, context, count)
            cpus = _time(command, context, count, time.thread_time)
            worst[name] = (max(walls), max(cpus), judge(command, context).verdict)
    ordered = sorted(table)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    print(f"policy check, {len(rows)} table commands, median of {args.runs} runs each")
    print(f"  p50   {statistics.median(table):7.3f} ms")
    print(f"  p99   {p99:7.3f} ms   (target under {P99_TARGET_MS:.0f} ms)")
    print(f"  max   {max(table):7.3f} ms")
    print("hostile inputs, slowest of their runs (wall, and the checker thread's CPU):")
    for name, (slowest, cpu_ms, verdict) in sorted(worst.items(), key=lambda item: -item[1][0]):
        print(f"  {slowest:8.2f} ms  {cpu_ms:8.2f} ms cpu  {verdict:5}  {name}")
    slowest_hostile = max(t for t, _, _ in worst.values())
    print(f"  worst {slowest_hostile:.2f} ms   (target under {WORST_TARGET_MS:.0f} ms)")
    if not args.no_check and (p99 >= P99_TARGET_MS or slowest_hostile >= WORST_TARGET_MS):
        print("MISSED a target", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
