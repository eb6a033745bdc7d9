#!/usr/bin/env python3
"""Parcel price: ship.py WEIGHT_KG ZONE"""
import sys

ZONES = {
    "domestic": (4.90, 0.50),
    "eu-near": (8.50, 1.20),
    "eu-far": (10.00, 1.80),
    "north-america": (15.00, 5.50),
    "asia-pacific": (12.00, 4.50),
    "rest-of-world": (18.00, 6.00),
}


def main():
    if len(sys.argv) != 3:
        return "usage: ship.py WEIGHT_KG ZONE"
    try:
        weight = float(sys.argv[1])
    except ValueError:
        return f"error: WEIGHT_KG must be a number of kilograms, got {sys.argv[1]!r}"
    if not 0 < weight <= 30:
        return "error: WEIGHT_KG must be more than 0 and at most 30"
    zone = sys.argv[2].lower()
    if zone not in ZONES:
        return (f"error: {sys.argv[2]!r} is not a zone. Zones: {', '.join(ZONES)} "
                "(see references/zones.md for the countries in each)")
    base, per_kg = ZONES[zone]
    print(f"{weight:g} kg to {zone}: EUR {base + per_kg * weight:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
