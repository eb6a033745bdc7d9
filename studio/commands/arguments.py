"""Argument types the subcommands share."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """A whole number of 1 or more (`--runs`, `--limit`, `--max-rounds`)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("it must be 1 or more")
    return value
