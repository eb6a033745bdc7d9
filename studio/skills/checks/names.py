"""The spec's rules for a skill name, as skills-ref applies them, and a suggestion for a bad one."""

from __future__ import annotations

import re
import unicodedata

MAX_NAME_LENGTH = 64


def normalize_name(name: str) -> str:
    return unicodedata.normalize("NFKC", name.strip())


# Names that are plainly valid, checked in one step before the rules one by one.
_PLAIN_VALID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def plainly_valid(name: str) -> bool:
    """Whether `name` is `a-z`, `0-9` and single inner hyphens within the length limit: valid,
    and its own normal form (stripping and NFKC leave such text as it is)."""
    return len(name) <= MAX_NAME_LENGTH and _PLAIN_VALID.fullmatch(name) is not None


def name_problems(name: str) -> list[str]:
    """What is wrong with a (non-empty) name, in plain words; empty when it is a valid name."""
    value = normalize_name(name)
    if plainly_valid(value):
        return []
    problems = []
    if len(value) > MAX_NAME_LENGTH:
        problems.append(f"it is {len(value)} characters long; the limit is {MAX_NAME_LENGTH}")
    if value != value.lower():
        problems.append("it has uppercase letters")
    if value.startswith("-") or value.endswith("-"):
        problems.append("it starts or ends with a hyphen")
    if "--" in value:
        problems.append("it has two hyphens in a row")
    bad = sorted({c for c in value if not (c.isalnum() or c == "-")})
    if bad:
        shown = ", ".join(repr(c) for c in bad[:6])
        problems.append(f"it has characters other than letters, digits and hyphens ({shown})")
    return problems


def non_ascii_letters(name: str) -> list[str]:
    """The letters and digits of `name` outside ASCII: the spec describes a name as `a-z`, `0-9`
    and hyphens, and Ollama's and skill-creator's validators accept ASCII only, though
    skills-ref's `isalnum` lets them through."""
    return sorted({c for c in normalize_name(name) if c.isalnum() and not c.isascii()})


def ascii_name(name: str) -> str:
    """`name` with accents dropped and other non-ASCII characters turned into hyphens."""
    decomposed = unicodedata.normalize("NFKD", normalize_name(name).lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return suggest_name("".join(c if c.isascii() else "-" for c in plain))


def is_valid_name(name: str) -> bool:
    return bool(name.strip()) and not name_problems(name)


def suggest_name(text: str) -> str:
    """A valid name close to `text`: lowercase, other characters turned into single hyphens."""
    value = normalize_name(text).lower()
    value = "".join(c if c.isalnum() else "-" for c in value)
    value = re.sub(r"-{2,}", "-", value).strip("-")
    if len(value) > MAX_NAME_LENGTH:
        value = value[:MAX_NAME_LENGTH].rstrip("-")
    return value or "my-skill"
