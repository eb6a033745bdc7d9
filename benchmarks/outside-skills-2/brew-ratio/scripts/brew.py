#!/usr/bin/env python3
import argparse
import sys

CUP_ML = 240
# water (ml) per gram of coffee
RATIOS = {
    "v60": 16,
    "chemex": 17,
    "french-press": 12,
    "aeropress": 14,
    "moka-pot": 7,
    "cold-brew": 5,
}

parser = argparse.ArgumentParser(description="Coffee and water for N cups.")
parser.add_argument("--cups", type=float, required=True)
parser.add_argument("--method", required=True, help="brewing method")
args = parser.parse_args()
method = args.method.lower()
if method not in RATIOS:
    sys.exit(f"error: unknown method {args.method!r}; known methods: {', '.join(RATIOS)}")
if not 0 < args.cups <= 20:
    sys.exit("error: --cups must be between 0 and 20")
water = args.cups * CUP_ML
coffee = water / RATIOS[method]
print(f"{args.cups:g} cups, {method} (1:{RATIOS[method]}): {coffee:.0f} g coffee, {water:.0f} ml water")
