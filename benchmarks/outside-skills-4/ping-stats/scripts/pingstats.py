#!/usr/bin/env python3
"""Summarise ping output read from standard input."""
import re
import sys

REPLY = re.compile(r"icmp_seq=(\d+).*time=([\d.]+) ms")
TIMEOUT = re.compile(r"(?:timeout|timed out).*icmp_seq[= ](\d+)|icmp_seq[= ](\d+).*(?:timeout|timed out)", re.I)

if len(sys.argv) > 1:
    sys.exit("pingstats.py takes no arguments; pipe the ping output in on standard input")
if sys.stdin.isatty():
    sys.exit("pingstats.py: no input; pipe ping output in on standard input")
times, highest = [], -1
for line in sys.stdin:
    reply = REPLY.search(line)
    if reply:
        times.append(float(reply.group(2)))
        highest = max(highest, int(reply.group(1)))
        continue
    lost = TIMEOUT.search(line)
    if lost:
        highest = max(highest, int(lost.group(1) or lost.group(2)))
if highest < 0:
    sys.exit("pingstats.py: no ping replies or timeouts found in the input")
sent = highest + 1
received = len(times)
loss = 100 * (sent - received) / sent
print(f"sent {sent}, received {received}, loss {loss:.1f}%")
if times:
    jitter = (sum(abs(b - a) for a, b in zip(times, times[1:])) / (len(times) - 1)) if len(times) > 1 else 0.0
    print(f"rtt min/avg/max {min(times):.1f}/{sum(times) / len(times):.1f}/{max(times):.1f} ms, "
          f"jitter {jitter:.1f} ms")
