#!/usr/bin/env python3
import argparse
import math

# internal volume in cubic metres
VOLUME = {
    "20gp": 33.2,   # 20 ft general purpose
    "40gp": 67.7,   # 40 ft general purpose
    "40hc": 76.4,   # 40 ft high cube
    "45hc": 86.0,   # 45 ft high cube
    "20rf": 28.3,   # 20 ft reefer
    "40rf": 59.3,   # 40 ft high-cube reefer
}

parser = argparse.ArgumentParser(description="How many containers a cargo volume needs.")
parser.add_argument("cubic_metres", type=float, help="cargo volume in m3")
parser.add_argument("--type", required=True, choices=list(VOLUME),
                    help="container type: 20gp, 40gp (standard), 40hc, 45hc (high cube), 20rf, 40rf (reefer)")
parser.add_argument("--fill", type=float, default=85.0, help="usable share of the volume, %% (default 85)")
args = parser.parse_args()
if args.cubic_metres <= 0:
    parser.error("CUBIC_METRES must be more than zero")
if not 10 <= args.fill <= 100:
    parser.error(f"--fill {args.fill:g} must be a percentage between 10 and 100")
usable = VOLUME[args.type] * args.fill / 100
count = math.ceil(args.cubic_metres / usable)
last = args.cubic_metres - (count - 1) * usable
print(f"{args.cubic_metres:g} m3 in {args.type}: {count} container(s), "
      f"the last one {last / VOLUME[args.type] * 100:.1f}% full")
