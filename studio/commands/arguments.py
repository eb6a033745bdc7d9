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


def seconds(text: str) -> float:
    """A number of seconds above 0 (`--idle-timeout`, `--connect-timeout`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535 (0: let the system pick a free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is a number from 0 to 65535")
    return value
