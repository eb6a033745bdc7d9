#!/usr/bin/env python3
import argparse
import sys

SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def rating(text):
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a rating (digits only, e.g. 1850)")
    value = int(text)
    if not 100 <= value <= 3500:
        raise argparse.ArgumentTypeError(f"{value} is outside the Elo range 100-3500")
    return value


parser = argparse.ArgumentParser(prog="elo.py")
parser.add_argument("you", type=rating)
parser.add_argument("opponent", type=rating)
parser.add_argument("result")
parser.add_argument("-k", type=int, default=32)
args = parser.parse_args()
if args.result not in SCORES:
    sys.exit(f"elo.py: RESULT must be win, draw or loss (your result), not {args.result!r}")
expected = 1 / (1 + 10 ** ((args.opponent - args.you) / 400))
change = args.k * (SCORES[args.result] - expected)
print(f"expected score {expected:.3f}; {args.result}: {change:+.1f} -> new rating {round(args.you + change)}")
