#!/usr/bin/env python3
"""Convert a quantity between units, with exact arithmetic, using the table in assets/units.json.

Examples:
  convert.py 5 mi km
  convert.py 98.6 F C
  convert.py 1.5 GiB MB GB
  convert.py --list data
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

DEFAULT_UNITS = Path(__file__).resolve().parent.parent / "assets" / "units.json"


class ConvertError(Exception):
    """The conversion cannot be done; the message says why and what to try."""


@dataclass(frozen=True)
class Unit:
    symbol: str
    dimension: str
    factor: Fraction
    offset: Fraction
    aliases: tuple[str, ...]

    def to_base(self, value: Fraction) -> Fraction:
        return value * self.factor + self.offset

    def from_base(self, value: Fraction) -> Fraction:
        return (value - self.offset) / self.factor


def exact(text: Any, where: str) -> Fraction:
    try:
        return Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        raise ConvertError(f"{where}: {text!r} is not a number") from None


def load_units(path: Path) -> dict[str, Unit]:
    """Map every symbol and alias to its unit."""
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConvertError(f"{path}: the units file does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConvertError(f"{path}: cannot read the units file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ConvertError(f"{path}, line {exc.lineno}: the units file is not valid JSON: "
                           f"{exc.msg}") from None
    if not isinstance(table, dict):
        raise ConvertError(f"{path}: the units file must hold an object of dimensions")
    names: dict[str, Unit] = {}
    for dimension, spec in table.items():
        if dimension.startswith("_"):
            continue
        units = spec.get("units") if isinstance(spec, dict) else None
        if not isinstance(units, dict) or not units:
            raise ConvertError(f"{path}: dimension {dimension!r} needs a non-empty \"units\" object")
        for symbol, info in units.items():
            where = f"{path}: {dimension}.{symbol}"
            if not isinstance(info, dict) or "factor" not in info:
                raise ConvertError(f"{where} needs a \"factor\"")
            factor = exact(info["factor"], where)
            if factor == 0:
                raise ConvertError(f"{where}: the factor cannot be 0")
            aliases = tuple(str(alias) for alias in info.get("aliases", []))
            unit = Unit(symbol, dimension, factor, exact(info.get("offset", 0), where), aliases)
            for name in (symbol, *aliases):
                if name in names:
                    raise ConvertError(f"{where}: the name {name!r} is already used by "
                                       f"{names[name].dimension}.{names[name].symbol}")
                names[name] = unit
    return names


def find_unit(name: str, names: dict[str, Unit]) -> Unit:
    """Exact match first (symbols are case-sensitive: MB is not Mb), then ignoring case."""
    name = name.strip()
    if name in names:
        return names[name]
    folded = {unit for key, unit in names.items() if key.lower() == name.lower()}
    if len(folded) == 1:
        return folded.pop()
    if folded:
        options = " or ".join(sorted(f"{unit.symbol} ({unit.dimension})" for unit in folded))
        raise ConvertError(f"{name!r} is ambiguous: did you mean {options}? Unit symbols are "
                           "case-sensitive")
    close = difflib.get_close_matches(name, list(names), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else "; run with --list to see all units"
    raise ConvertError(f"unknown unit {name!r}{hint}")


def render(value: Fraction, digits: int) -> str:
    """Round to `digits` significant digits; scientific notation only for extreme sizes."""
    if value == 0:
        return "0"
    rounded = Context(prec=digits).divide(Decimal(value.numerator), Decimal(value.denominator))
    if -7 < rounded.adjusted() < 21:
        text = format(rounded, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return format(rounded.normalize(), "e")


def convert(value_text: str, source: str, targets: list[str], names: dict[str, Unit],
            digits: int) -> list[str]:
    value = exact(value_text, "the value")
    origin = find_unit(source, names)
    lines = []
    for target in targets:
        goal = find_unit(target, names)
        if goal.dimension != origin.dimension:
            raise ConvertError(f"cannot convert {origin.dimension} ({origin.symbol}) to "
                               f"{goal.dimension} ({goal.symbol})")
        base = origin.to_base(value)
        if origin.dimension == "temperature" and base < 0:
            raise ConvertError(f"{value_text} {origin.symbol} is below absolute zero")
        result = goal.from_base(base)
        lines.append(f"{value_text} {origin.symbol} = {render(result, digits)} {goal.symbol}")
    return lines


def listing(names: dict[str, Unit], dimension: str | None) -> list[str]:
    units: dict[str, list[Unit]] = {}
    for unit in names.values():
        if unit not in units.setdefault(unit.dimension, []):
            units[unit.dimension].append(unit)
    if dimension is not None and dimension not in units:
        raise ConvertError(f"unknown dimension {dimension!r}; choose from {', '.join(units)}")
    lines = []
    for name, members in units.items():
        if dimension is not None and name != dimension:
            continue
        lines.append(f"{name}:")
        for unit in members:
            aliases = ", ".join(unit.aliases)
            lines.append(f"  {unit.symbol:<8} {aliases}")
    return lines


def significant(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 17:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 17, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Convert a value between units of length, area, volume, mass, time, speed, "
                    "temperature, pressure, energy and data size.",
        epilog="Examples: convert.py 5 mi km | convert.py 98.6 F C | convert.py 1.5 GiB MB GB | "
               "convert.py --list data.  Exit status: 0 converted, 2 unknown unit, mismatched "
               "dimensions, bad value or bad units file.",
    )
    parser.add_argument("value", metavar="VALUE", nargs="?",
                        help="the number to convert, e.g. 5, -40, 1.5e3 or 3/4")
    parser.add_argument("source", metavar="FROM", nargs="?", help="the unit of VALUE, e.g. mi")
    parser.add_argument("targets", metavar="TO", nargs="*", help="one or more units to convert to")
    parser.add_argument("--digits", type=significant, default=6,
                        help="significant digits in results (default: 6)")
    parser.add_argument("--list", nargs="?", const="", metavar="DIMENSION",
                        help="list known units (optionally of one dimension) and exit")
    parser.add_argument("--units", type=Path, default=DEFAULT_UNITS,
                        help="units table to use (default: assets/units.json)")
    args = parser.parse_args(argv)

    try:
        names = load_units(args.units)
        if args.list is not None:
            lines = listing(names, args.list or None)
        elif not args.targets:
            parser.error("give VALUE FROM TO, e.g. 5 mi km (or use --list)")
        else:
            lines = convert(args.value, args.source, args.targets, names, args.digits)
    except ConvertError as exc:
        print(f"convert: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
