#!/usr/bin/env python3
import argparse
import re
from collections import deque

JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def square(text):
    if not re.fullmatch(r"[a-h][1-8]", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a square like e4")
    return ord(text[0]) - ord("a"), int(text[1]) - 1


def name(sq):
    return f"{chr(sq[0] + ord('a'))}{sq[1] + 1}"


parser = argparse.ArgumentParser(prog="knight.py")
parser.add_argument("start", type=square)
parser.add_argument("goal", type=square)
parser.add_argument("--all", action="store_true", help="count the shortest routes")
args = parser.parse_args()

dist, ways, back = {args.start: 0}, {args.start: 1}, {}
queue = deque([args.start])
while queue:
    here = queue.popleft()
    for dx, dy in JUMPS:
        nxt = (here[0] + dx, here[1] + dy)
        if not (0 <= nxt[0] < 8 and 0 <= nxt[1] < 8):
            continue
        if nxt not in dist:
            dist[nxt], ways[nxt], back[nxt] = dist[here] + 1, ways[here], here
            queue.append(nxt)
        elif dist[nxt] == dist[here] + 1:
            ways[nxt] += ways[here]
route, sq = [args.goal], args.goal
while sq != args.start:
    sq = back[sq]
    route.append(sq)
n = dist[args.goal]
print(f"{name(args.start)} -> {name(args.goal)}: {n} move{'s' if n != 1 else ''}")
print("route: " + " ".join(name(s) for s in reversed(route)))
if args.all:
    print(f"{ways[args.goal]} shortest routes")
