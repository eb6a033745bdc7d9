#!/usr/bin/env python3
import argparse
p = argparse.ArgumentParser()
p.add_argument("score", type=float)
p.add_argument("--scale", choices=["us", "ects"], required=True)
a = p.parse_args()
cuts = {"us": [(90, "A"), (80, "B"), (70, "C"), (60, "D"), (0, "F")],
        "ects": [(90, "A"), (80, "B"), (70, "C"), (60, "D"), (50, "E"), (0, "F")]}[a.scale]
print(f"{a.score:g}% is {next(g for c, g in cuts if a.score >= c)} on the {a.scale} scale")
