"""Properties of `studio fix` over frontmatter written every way YAML allows: whatever it does, the
body after a fix is the body before, byte for byte, and a skill that loaded still loads.

The generator writes fields by hand in block and flow styles, with anchors and the aliases that
name them, merge keys, comments, each line ending, and bodies that bring the file to just under
or just over the validator's read cap.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.skills.checks.fixes import apply_plan, plan_fixes
from studio.skills.model import Skill
from studio.skills.parse import MAX_SKILL_BYTES, UNREADABLE_CODES, parse_skill
from tests.skills.strategies import BODY_PARTS, one_in

PROPERTY = settings(
    max_examples=120, database=None,
)

KEYS = ("name", "description", "license", "version", "author", "tags", "allowed-tools",
        "x-internal", "Name", "metadata")
SCALARS = ("demo", "Demo", "1.0", "'1.0'", '"quoted: yes"', "Use when: asked", "true", "~", "",
           "[a, b]", "{a: 1}", "a # comment", "|\n  block\n  text", ">-\n  folded", "Bad_Name",
           "x: y", "!!str 12", "'it''s'")
COMMENTS = ("", "", "", " # why", "  #")


@st.composite
def values(draw: st.DrawFn, anchors: list[str]) -> str:
    """The text after `key:`: a scalar, a flow or block collection, an anchored node or an alias
    (mostly of an anchor already defined, now and then of none)."""
    kind = draw(st.sampled_from(
        ("scalar", "scalar", "scalar", "anchor", "alias", "flow", "block-map", "block-list")
    ))
    if kind == "alias" and (anchors or one_in(draw, 6)):
        return " *" + (draw(st.sampled_from(anchors)) if anchors else "nowhere")
    if kind == "anchor":
        anchor = f"a{len(anchors)}"
        inner = draw(values(anchors))
        anchors.append(anchor)
        return f" &{anchor}{inner if inner.startswith(chr(10)) else inner or ' x'}"
    if kind == "flow":
        items = draw(st.lists(st.sampled_from(("a", "1", "'b'", "k: v")), max_size=3))
        return " " + (draw(st.sampled_from(("[{}]", "{{{}}}"))).format(", ".join(items)))
    if kind in ("block-map", "block-list"):
        lines = []
        for index in range(draw(st.integers(1, 3))):
            item = draw(st.sampled_from(SCALARS[:10]))
            if one_in(draw, 4) and anchors:
                item = "*" + draw(st.sampled_from(anchors))
            elif one_in(draw, 4):
                anchor = f"a{len(anchors)}"
                anchors.append(anchor)
                item = f"&{anchor} {item or 'x'}"
            lead = f"k{index}: " if kind == "block-map" else "- "
            lines.append(f"  {lead}{item}{draw(st.sampled_from(COMMENTS))}")
        return "\n" + "\n".join(lines)
    text = draw(st.sampled_from(SCALARS))
    return (" " + text) if text else ""


@st.composite
def frontmatters(draw: st.DrawFn) -> str:
    """The lines between the `---` fences, ending in a newline."""
    anchors: list[str] = []
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=7))
    if draw(st.booleans()):
        keys = ["name", "description", *keys]
    lines = []
    for key in keys:
        value = draw(values(anchors))
        comment = draw(st.sampled_from(COMMENTS)) if not value.startswith("\n") else ""
        lines.append(f"{key}:{value}{comment}")
        if one_in(draw, 8):
            lines.append(draw(st.sampled_from(("# a comment", "", "<<: {merged: 1}"))))
    if one_in(draw, 10):
        return "{" + ", ".join(f"{key}: x" for key in dict.fromkeys(keys)) + "}\n"
    return "".join(line + "\n" for line in lines)


@st.composite
def skill_files(draw: st.DrawFn) -> bytes:
    body = "\n".join(draw(st.lists(st.sampled_from(BODY_PARTS), max_size=6))) + "\n"
    text = f"---\n{draw(frontmatters())}---\n{body}"
    newline = draw(st.sampled_from(("\n", "\n", "\r\n", "\r")))
    data = text.replace("\n", newline).encode("utf-8")
    if one_in(draw, 5):
        # Just under or just over the read cap; the padding ends the body.
        target = MAX_SKILL_BYTES + draw(st.integers(-40, 40))
        line = ("padding of the body " * 3 + newline).encode()
        missing = max(target - len(data), 0)
        data += (line * (missing // len(line) + 1))[:missing]
    return data


def parsed(data: bytes) -> Skill:
    return parse_skill(data, Path("/x/demo/SKILL.md"), max_bytes=None)


def loads(skill: Skill) -> bool:
    return skill.frontmatter is not None and not any(
        d.code in UNREADABLE_CODES for d in skill.problems
    )


@PROPERTY
@given(data=skill_files(), folder=st.sampled_from(("demo", "Bad Folder", "other")))
def test_fix_keeps_the_body_and_a_loadable_skill_loadable(data: bytes, folder: str) -> None:
    before = parsed(data)
    with tempfile.TemporaryDirectory() as parent:
        directory = Path(parent) / folder
        directory.mkdir()
        (directory / "SKILL.md").write_bytes(data)
        plan = plan_fixes(directory)
        apply_plan(plan)
        written = ((plan.rename_to or directory) / "SKILL.md").read_bytes()
    after = parsed(written)
    if written == data:
        return
    assert after.body == before.body
    assert loads(after), (data[:400], written[:400])
    # A move or a rename adds a few lines at most: never a runaway file.
    assert len(written) < len(data) + 4096
    if loads(before):
        assert before.frontmatter is not None and after.frontmatter is not None
        old, new = before.frontmatter.data, after.frontmatter.data
        for key in old.keys() & new.keys() - {"name", "metadata", "allowed-tools"}:
            assert repr(old[key]) == repr(new[key]), key
