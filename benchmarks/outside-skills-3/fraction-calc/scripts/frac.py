#!/usr/bin/env python3
import argparse
from fractions import Fraction

OPS = {
    "add": ("+", lambda a, b: a + b),
    "sub": ("-", lambda a, b: a - b),
    "mul": ("x", lambda a, b: a * b),
    "div": ("/", lambda a, b: a / b),
}


def fraction(text):
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a fraction, whole number or decimal (for 2 1/4 write 9/4)") from None


parser = argparse.ArgumentParser(prog="frac.py", description="Fraction arithmetic: A op B.")
parser.add_argument("op", choices=list(OPS))
parser.add_argument("a", type=fraction)
parser.add_argument("b", type=fraction)
args = parser.parse_args()
symbol, func = OPS[args.op]
if args.op == "div" and args.b == 0:
    parser.error("cannot divide by zero")
result = func(args.a, args.b)
print(f"{args.a} {symbol} {args.b} = {result} ({float(result):.4f})")
