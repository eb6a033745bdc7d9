#!/usr/bin/env python3
"""Roman numerals, both ways, for 1 to 3999."""

import sys

NUMERALS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
            (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
USAGE = "usage: roman.py --to-roman NUMBER | roman.py --from-roman NUMERAL"


def to_roman(number: int) -> str:
    out = []
    for value, letters in NUMERALS:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def from_roman(numeral: str) -> int:
    total, index = 0, 0
    for value, letters in NUMERALS:
        while numeral.startswith(letters, index):
            total, index = total + value, index + len(letters)
    if index != len(numeral) or to_roman(total) != numeral:
        raise ValueError(numeral)
    return total


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("--to-roman", "--from-roman"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if argv[0] == "--to-roman":
            number = int(argv[1])
            if not 1 <= number <= 3999:
                raise ValueError(argv[1])
            print(f"{number} = {to_roman(number)}")
        else:
            print(f"{argv[1].upper()} = {from_roman(argv[1].upper())}")
    except ValueError:
        print(f"not a number from 1 to 3999 or a Roman numeral: {argv[1]!r}\n{USAGE}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
