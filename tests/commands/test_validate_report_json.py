"""`studio validate --format json` writes each skill's object by hand, for speed: it must be the
very text the encoder gives for `SkillSummary.to_json`, each finding as `Diagnostic.to_json`."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from studio.commands.validate_report import _skill_json, dumps
from studio.skills import Diagnostic, Severity

texts = st.text(max_size=20)
diagnostics = st.builds(
    Diagnostic, code=st.sampled_from(["SK101", "SK2\"01", "é"]), severity=st.sampled_from(Severity),
    message=texts, line=st.integers(1, 10**6), column=st.integers(1, 500),
    file=texts, field=st.none() | texts, fix=st.none(), end_line=st.none(), end_column=st.none(),
)


@given(directory=texts, name=st.none() | texts, valid=st.booleans(), loadable=st.booleans(),
       found=st.lists(diagnostics, max_size=4).map(tuple))
def test_a_skill_is_written_as_the_encoder_writes_its_json(
    directory: str, name: str | None, valid: bool, loadable: bool, found: tuple[Diagnostic, ...]
) -> None:
    expected = dumps({"path": directory, "name": name, "valid": valid, "loadable": loadable,
                      "diagnostics": [d.to_json() for d in found]})
    assert _skill_json(directory, name, valid, loadable, found) == expected
