#!/usr/bin/env python3
import argparse

E12 = [1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2]

parser = argparse.ArgumentParser(prog="led.py")
parser.add_argument("--supply", type=float, required=True, help="volts")
parser.add_argument("--vf", type=float, required=True, help="LED forward voltage, volts")
parser.add_argument("--current", type=float, required=True, help="milliamps")
parser.add_argument("--count", type=int, default=1)
args = parser.parse_args()

drop = args.supply - args.vf * args.count
if drop <= 0:
    parser.error(f"{args.count} LED(s) at {args.vf:g} V need more than the {args.supply:g} V supply")
amps = args.current / 1000
exact = drop / amps
decade = 1.0
while decade * 10 <= exact:
    decade *= 10
while decade > exact:
    decade /= 10
chosen = next((decade * v for v in E12 if decade * v >= exact - 1e-9), decade * 10)
actual_ma = drop / chosen * 1000
watts = drop * drop / chosen
rating = next(w for w in (0.125, 0.25, 0.5, 1, 2, 5) if w >= 2 * watts)


def fmt(ohms):
    return f"{ohms / 1000:g} kΩ" if ohms >= 1000 else f"{ohms:g} Ω"


print(f"exact {exact:.1f} Ω -> use {fmt(round(chosen, 6))} (E12)")
print(f"current {actual_ma:.1f} mA, resistor dissipates {watts * 1000:.0f} mW: a {rating:g} W resistor")
