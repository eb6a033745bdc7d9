"""Counts as the user's locale writes them, with its group separators (1,234 or 1.234 or 1 234)."""

from __future__ import annotations

from PySide6.QtCore import QLocale


def count_text(number: int) -> str:
    """`number` in the default locale, always grouped: the C locale Qt falls back to when LANG is
    unset omits the separators, which makes 36804 hard to read."""
    locale = QLocale()
    locale.setNumberOptions(QLocale.NumberOption.DefaultNumberOptions)
    return locale.toString(number)


def plural(number: int, noun: str, nouns: str | None = None) -> str:
    """ "1 skill", "2,400 skills"."""
    return f"{count_text(number)} {noun if number == 1 else nouns or noun + 's'}"
