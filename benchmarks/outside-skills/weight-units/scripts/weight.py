#!/usr/bin/env python3
import argparse
G = {"kg": 1000, "lb": 453.59237, "oz": 28.349523125, "st": 6350.29318}
p = argparse.ArgumentParser()
p.add_argument("value", type=float)
p.add_argument("--from", dest="src", choices=list(G), required=True)
p.add_argument("--to", dest="dst", choices=list(G), required=True)
a = p.parse_args()
print(f"{a.value:g} {a.src} = {a.value * G[a.src] / G[a.dst]:.2f} {a.dst}")
