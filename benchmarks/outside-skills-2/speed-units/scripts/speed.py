#!/usr/bin/env python3
import argparse

# metres per second in one of each unit
FACTOR = {"kmh": 1000 / 3600, "mph": 1609.344 / 3600, "ms": 1.0, "kn": 1852 / 3600}

parser = argparse.ArgumentParser(description="Convert a speed.")
parser.add_argument("value", type=float)
parser.add_argument("--from", dest="src", required=True, choices=sorted(FACTOR))
parser.add_argument("--to", dest="dst", required=True, choices=sorted(FACTOR))
args = parser.parse_args()
result = args.value * FACTOR[args.src] / FACTOR[args.dst]
print(f"{args.value:g} {args.src} = {result:.2f} {args.dst}")
