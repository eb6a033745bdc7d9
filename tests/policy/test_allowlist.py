"""The allowlist's own reading of options, sed scripts and escapes."""

from __future__ import annotations

import pytest

from studio.policy.programs.allowlist import option_spec, resolve_long, unknown_options
from studio.policy.shell.escapes import decode_escapes
from studio.policy.shell.expand import literal_arg

_SORT = option_spec("-r -k: --reverse --key= --random-sort !--output !--compress-program")


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("--reverse", "--reverse"),
        ("--rev", "--reverse"),
        ("--ke", "--key"),
        ("--r", None),  # --reverse or --random-sort
        ("--out", None),  # --output: known, not allowed
        ("--output", None),
        ("--c", None),  # only --compress-program starts so
        ("--frob", None),
    ],
)
def test_long_options_resolve_to_one_listed_option_or_none(written: str, read: str | None) -> None:
    assert resolve_long(written, _SORT) == read


def test_a_program_without_abbreviations_takes_only_exact_names() -> None:
    rg = option_spec("--pretty --=")
    assert resolve_long("--pretty", rg) == "--pretty"
    assert resolve_long("--pre", rg) is None


def test_unknown_options_skips_values_and_stops_at_double_dash() -> None:
    args = [literal_arg(a) for a in ["-rk", "2", "--key", "-x", "--", "--output"]]
    assert unknown_options(args, _SORT) == []
    assert unknown_options([literal_arg("-rz")], _SORT) == ["-z"]
    assert unknown_options([literal_arg("--reverse=1")], _SORT) == ["--reverse=1"]


def test_one_escape_decoder_for_ansi_words_and_echo() -> None:
    assert decode_escapes(r"a\x41\101\n\'", ansi=True) == "aAA\n'"
    assert decode_escapes(r"a\x41\0101\n\'", ansi=False) == "aAA\n\\'"
    assert decode_escapes(r"keep\x00gone", ansi=True) == "keep"
    assert decode_escapes(r"\cA\q", ansi=True) == "\x01\\q"
