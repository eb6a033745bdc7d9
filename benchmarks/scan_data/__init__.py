"""Skill sets for `benchmarks/scan_bench.py` (issue 41): malicious and benign skills written as
data, each split into a development part (rules were tuned on it) and a test part (run once, at
the end, and reported as it came out)."""
