#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="pomodoro.py")
parser.add_argument("minutes", type=int)
parser.add_argument("--work", type=int, default=25)
parser.add_argument("--short", type=int, default=5)
parser.add_argument("--long", type=int, default=15)
parser.add_argument("--long-every", type=int, default=4)
args = parser.parse_args()
if args.minutes < args.work:
    parser.error(f"{args.minutes} minutes is shorter than one pomodoro ({args.work} min)")

clock, count, plan = 0, 0, []
while True:
    brk, kind = 0, ""
    if count:
        kind = "long" if count % args.long_every == 0 else "short"
        brk = args.long if kind == "long" else args.short
    if clock + brk + args.work > args.minutes:
        break
    if brk:
        plan.append(f"{clock:>4} min  {kind} break {brk}")
        clock += brk
    count += 1
    plan.append(f"{clock:>4} min  pomodoro {count} ({args.work} min)")
    clock += args.work
print("\n".join(plan))
print(f"{count} pomodoros, {count * args.work} minutes of work; done at {clock} min, "
      f"{args.minutes - clock} min spare")
