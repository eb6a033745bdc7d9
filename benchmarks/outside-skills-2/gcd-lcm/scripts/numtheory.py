#!/usr/bin/env python3
import argparse
import math
from functools import reduce

parser = argparse.ArgumentParser(description="GCD / LCM of whole numbers")
sub = parser.add_subparsers(dest="command", required=True)
for name, text in (("gcd", "greatest common divisor"), ("lcm", "least common multiple")):
    p = sub.add_parser(name, help=text)
    p.add_argument("numbers", type=int, nargs="+", metavar="N")
args = parser.parse_args()
if len(args.numbers) < 2:
    parser.error(f"{args.command} needs at least two numbers")
if any(n <= 0 for n in args.numbers):
    parser.error("the numbers must be positive whole numbers")
func = math.gcd if args.command == "gcd" else (lambda a, b: a * b // math.gcd(a, b))
result = reduce(func, args.numbers)
print(f"{args.command}({', '.join(map(str, args.numbers))}) = {result}")
