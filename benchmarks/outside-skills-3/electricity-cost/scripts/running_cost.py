#!/usr/bin/env python3
import json
import sys

KEYS = {"watts", "hours_per_day", "days", "price_per_kwh", "standby_watts"}
REQUIRED = ("watts", "hours_per_day", "price_per_kwh")

if len(sys.argv) != 2:
    sys.exit("usage: running_cost.py '{\"watts\": W, \"hours_per_day\": H, \"price_per_kwh\": P}'")
try:
    spec = json.loads(sys.argv[1])
except json.JSONDecodeError as exc:
    sys.exit(f"running_cost.py: the argument is not valid JSON ({exc.msg} at column {exc.colno})")
if not isinstance(spec, dict):
    sys.exit("running_cost.py: the argument must be a JSON object")
unknown = sorted(set(spec) - KEYS)
if unknown:
    sys.exit(f"running_cost.py: unknown key(s) {', '.join(unknown)}; the keys are {', '.join(sorted(KEYS))}")
missing = [key for key in REQUIRED if key not in spec]
if missing:
    sys.exit(f"running_cost.py: missing key(s): {', '.join(missing)}")
for key, value in spec.items():
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        sys.exit(f"running_cost.py: {key} must be a non-negative number, got {value!r}")
if spec["hours_per_day"] > 24:
    sys.exit("running_cost.py: hours_per_day cannot be more than 24")
days = spec.get("days", 1)
on_kwh = spec["watts"] * spec["hours_per_day"] / 1000
standby_kwh = spec.get("standby_watts", 0) * (24 - spec["hours_per_day"]) / 1000
kwh = (on_kwh + standby_kwh) * days
print(f"{kwh:.2f} kWh over {days:g} day(s), cost {kwh * spec['price_per_kwh']:.2f}")
