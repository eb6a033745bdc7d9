#!/usr/bin/env python3
import statistics, sys
nums = [float(a) for a in sys.argv[1:]]
if not nums:
    sys.exit("usage: stats.py N [N ...]")
print(f"mean {statistics.mean(nums):g}, median {statistics.median(nums):g} of {len(nums)} numbers")
