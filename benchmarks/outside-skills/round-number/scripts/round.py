#!/usr/bin/env python3
import math, sys
value, step, mode = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
fn = {"up": math.ceil, "down": math.floor, "nearest": lambda x: math.floor(x + 0.5)}
if mode not in fn:
    sys.exit(f"invalid mode {mode!r} (choose from up, down, nearest)")
print(f"{value:g} rounded {mode} to a multiple of {step:g}: {fn[mode](value / step) * step:g}")
