#!/usr/bin/env python3
import sys


def rolls_of(frames):
    rolls = []
    for index, frame in enumerate(frames, 1):
        last = 0
        for char in frame:
            if char == "X":
                pins = 10
            elif char == "/":
                pins = 10 - last
            elif char == "-":
                pins = 0
            elif char.isdigit() and char != "0":
                pins = int(char)
            else:
                sys.exit(f"bowling.py: frame {index} {frame!r}: {char!r} is not X, /, - or 1-9")
            rolls.append(pins)
            last = 0 if pins == 10 and char == "X" else pins
    return rolls


if len(sys.argv) != 2:
    sys.exit(f"bowling.py: expected the whole game as one quoted argument, got {len(sys.argv) - 1} arguments")
frames = sys.argv[1].split()
if len(frames) != 10:
    sys.exit(f"bowling.py: a game has 10 frames, found {len(frames)}")
rolls = rolls_of(frames)
totals, total, i = [], 0, 0
for _ in range(10):
    if rolls[i] == 10:
        total += 10 + sum(rolls[i + 1:i + 3])
        i += 1
    elif i + 1 < len(rolls) and rolls[i] + rolls[i + 1] == 10:
        total += 10 + (rolls[i + 2] if i + 2 < len(rolls) else 0)
        i += 2
    else:
        total += sum(rolls[i:i + 2])
        i += 2
    totals.append(total)
print("frames: " + " ".join(str(t) for t in totals))
print(f"score {total}")
