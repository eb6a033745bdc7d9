#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="panels.py", description="How many solar panels.")
parser.add_argument("--daily-kwh", type=float, required=True)
parser.add_argument("--sun-hours", type=float, required=True)
parser.add_argument("--panel-watts", type=float, required=True)
parser.add_argument("--losses", type=float, default=20.0, help="percent")
args = parser.parse_args()
if min(args.daily_kwh, args.sun_hours, args.panel_watts) <= 0 or not 0 <= args.losses < 100:
    parser.error("values must be positive and --losses a percentage below 100")
per_panel = args.panel_watts / 1000 * args.sun_hours * (1 - args.losses / 100)
count = math.ceil(args.daily_kwh / per_panel - 1e-9)
print(f"{count} panels of {args.panel_watts:g} W ({count * args.panel_watts / 1000:.2f} kWp, "
      f"about {count * 2} m² of roof), {count * per_panel:.1f} kWh/day")
