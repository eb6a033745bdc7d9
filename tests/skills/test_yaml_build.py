"""The parser builds plain YAML values itself and shortcuts pyyaml's tag resolution; whatever the
document, the values must be the ones pyyaml's stock safe loader gives."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.skills.yaml import yamlload

STOCK = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
    st.sampled_from(["yes", "No", "on", "~", "null", "1e3", "0x1F", "0o17", ".inf", "-.NaN",
                     "2024-01-02", "2024-01-02 03:04:05", "<<", "=", "1_000", "+12", "-", ""]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers(), st.booleans()), inner,
                        max_size=4),
    ),
    max_leaves=12,
)
styles = st.fixed_dictionaries(
    {"default_flow_style": st.sampled_from([False, True, None]),
     "default_style": st.sampled_from([None, "'", '"', "|"])}
)

# Documents that need pyyaml's own constructor somewhere inside.
HANDWRITTEN = [
    "a: &x [1, 2]\nb: *x\n",
    "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n",
    "list: &l [a, *l]\n",
    "s: !!set {a, b}\no: !!omap [{a: 1}, {b: 2}]\n",
    "bin: !!binary aGVsbG8=\nstr: !!str 12\nint: !!int '7'\n",
    "t: 2001-12-14t21:59:43.10-05:00\nd: 2002-12-14\n",
    "? [a, b]\n: c\n",
    "name: !custom x\n",
    "k: !!python/object:os.system x\n",
    "{a: 1, b: [x, {c: d}]}",
    "- one\n- two: 2\n",
    "x: 'quoted'\ny: \"dq\"\nz: plain text\nn:\nm: ~\n",
    "= : x\n",
    "a: 1\na: 2\n",
]


def comparable(value: Any, inside: frozenset[int] = frozenset()) -> Any:
    """`value` with NaN made equal to itself and a container inside itself marked as such."""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, dict | list):
        if id(value) in inside:
            return "<itself>"
        inside = inside | {id(value)}
        if isinstance(value, dict):
            return {comparable(k, inside): comparable(v, inside) for k, v in value.items()}
        return [comparable(item, inside) for item in value]
    return value


def both(text: str) -> tuple[Any, Any]:
    def stock() -> Any:
        try:
            return ("value", comparable(yaml.load(text, Loader=STOCK)))
        except yaml.YAMLError as exc:
            return ("error", type(exc).__name__)

    def ours() -> Any:
        loader = yamlload.FrontmatterLoader(text)
        try:
            node = loader.get_single_node()
            return ("value", comparable(yamlload.construct(loader, node) if node is not None else None))
        except yaml.YAMLError as exc:
            return ("error", type(exc).__name__)
        finally:
            loader.dispose()

    return stock(), ours()


@pytest.mark.parametrize("text", HANDWRITTEN)
def test_handwritten_documents(text: str) -> None:
    stock, ours = both(text)
    assert ours == stock


@settings(max_examples=300, database=None)
@given(value=values, style=styles)
def test_dumped_documents(value: Any, style: dict[str, Any]) -> None:
    try:
        text = yaml.safe_dump(value, allow_unicode=True, **style)
    except yaml.YAMLError:
        return
    stock, ours = both(text)
    assert ours == stock


@settings(max_examples=300, database=None)
@given(text=st.text(alphabet="ab:- \n[]{}&*!|>'\"#,?<=~.01", max_size=40))
def test_noise(text: str) -> None:
    stock, ours = both(text)
    assert ours == stock
