#!/usr/bin/env python3
"""Body mass index from --weight KG and --height CM."""

import argparse

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--weight", type=float, required=True, help="kilograms")
parser.add_argument("--height", type=float, required=True, help="centimetres")
args = parser.parse_args()
if args.weight <= 0 or args.height <= 0:
    parser.error("weight and height must be positive")
bmi = args.weight / (args.height / 100) ** 2
category = ("underweight" if bmi < 18.5 else "normal weight" if bmi < 25 else "overweight"
            if bmi < 30 else "obesity")
print(f"BMI {bmi:.1f} ({category})")
