"""Whether a path the body mentions is in the skill's folder: the searches in one string of the
files' paths (`_known_test`) say what the set of every file's and folder's path says."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from studio.skills.checks.bodyrules import _known_paths, _known_test
from studio.skills.model import Skill, SkillFile, Span

PART = st.sampled_from(["a", "ab", "b", "scripts", "x.md", "x.md\0", "\0", "a b", "SKILL.md", "é",
                        "..", "-", "a.b"])
PATH = st.lists(PART, min_size=1, max_size=4).map("/".join)


def skill_with(files: list[str], name: str = "SKILL.md") -> Skill:
    return Skill(Path(f"/x/demo/{name}"), Path("/x/demo"), "demo", "", None, "", Span(1, 1, 1, 1),
                 files=tuple(SkillFile(path, None, None) for path in files))


@settings(max_examples=1500, database=None)
@given(files=st.lists(PATH, max_size=6), mentioned=st.lists(PATH, max_size=6),
       name=st.sampled_from(["SKILL.md", "skill.md"]))
@example(files=[], mentioned=["SKILL.md", "a", "\0"], name="SKILL.md")
@example(files=["ab/x.md"], mentioned=["a", "ab", "ab/x", "ab/x.md", "b/x.md"], name="SKILL.md")
@example(files=["a/\0/b"], mentioned=["a", "a/\0", "\0", "b"], name="skill.md")
def test_the_searches_say_what_the_set_says(files: list[str], mentioned: list[str],
                                            name: str) -> None:
    skill = skill_with(files, name)
    known, test = _known_paths(skill), _known_test(skill)
    for path in [*mentioned, *files, name]:
        assert test(path) == (path in known), path
