#!/usr/bin/env python3
import argparse
import json
import sys

parser = argparse.ArgumentParser(prog="needed.py", description="Score needed on the final exam. "
                                 "Graded parts come as a JSON list on standard input.")
parser.add_argument("--target", type=float, default=50.0)
args = parser.parse_args()
if sys.stdin.isatty():
    parser.error("pipe the graded parts in as JSON on standard input")
try:
    parts = json.load(sys.stdin)
except json.JSONDecodeError as exc:
    sys.exit(f"needed.py: standard input is not valid JSON ({exc.msg})")
if isinstance(parts, dict):
    parts = [parts]
earned = weight = 0.0
for p in parts:
    if not isinstance(p, dict) or "score" not in p or "weight" not in p:
        sys.exit(f"needed.py: each part needs \"score\" and \"weight\", got {p!r}")
    earned += p["score"] * p["weight"] / 100
    weight += p["weight"]
final = 100 - weight
if final <= 0:
    sys.exit(f"needed.py: the weights add up to {weight:g}%, leaving nothing for the final")
need = (args.target - earned) / (final / 100)
print(f"so far {earned:.2f} of {weight:g} points; the final is worth {final:g}%")
if need > 100:
    print(f"{args.target:g} overall is out of reach: it would need {need:.1f} on the final")
elif need <= 0:
    print(f"{args.target:g} overall is already safe, even with 0 on the final")
else:
    print(f"you need {need:.1f} on the final for {args.target:g} overall")
