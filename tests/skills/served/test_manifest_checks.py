"""What a server's `skills/list` entry may say, one hostile answer a line: each is refused with a
message naming the server and what is wrong, before anything is fetched."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.skills.served.manifest import Limits, check_entry
from studio.skills.served.source import ServedError

DIGEST = "sha256:" + "ab" * 32
SERVER = "mcp+http://127.0.0.1:1/mcp"


def entry(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "uri": "skill://hello/SKILL.md",
        "frontmatter": {"name": "hello", "description": "Says hello."},
        "resources": [
            {"uri": "skill://hello/SKILL.md", "digest": DIGEST, "size": 10},
            {"uri": "skill://hello/scripts/hi.sh", "digest": DIGEST, "size": 5},
        ],
    }
    base.update(changes)
    return base


def resource(uri: str, size: int = 1, digest: str = DIGEST) -> dict[str, Any]:
    return {"uri": uri, "digest": digest, "size": size}


def test_a_plain_entry_is_read() -> None:
    skill = check_entry(entry(), SERVER, Limits())
    assert skill.name == "hello"
    assert [f.path for f in skill.files] == ["SKILL.md", "scripts/hi.sh"]
    assert skill.size == 15 and skill.manifest_digest.startswith("sha256:")


def test_a_nested_skill_keeps_its_folder_under_its_name() -> None:
    nested = entry(uri="skill://ops/deploy/SKILL.md",
                   frontmatter={"name": "deploy", "description": "Deploys."},
                   resources=[resource("skill://ops/deploy/SKILL.md"),
                              resource("skill://ops/deploy/a/b.txt")])
    assert [f.path for f in check_entry(nested, SERVER, Limits()).files] == ["SKILL.md", "a/b.txt"]


HOSTILE = [
    ("not an object", "x", "not an object"),
    ("no SKILL.md uri", entry(uri="skill://hello/README.md"), "does not end in /SKILL.md"),
    ("dot-dot in the uri", entry(uri="skill://hello/../SKILL.md"), "path segment"),
    ("encoded slash", entry(uri="skill://hello/a%2Fb/SKILL.md"), "path segment"),
    ("control character", entry(uri="skill://hel%0alo/SKILL.md"), "path segment"),
    ("a query", entry(uri="skill://hello/SKILL.md?x=1"), "plain resource URI"),
    ("name unlike the folder", entry(frontmatter={"name": "other", "description": "d"}),
     "its URI's folder"),
    ("uppercase name", entry(uri="skill://Hello/SKILL.md",
                             frontmatter={"name": "Hello", "description": "d"}), "not a skill name"),
    ("no description", entry(frontmatter={"name": "hello"}), "no description"),
    ("dynamic", entry(resources="dynamic"), "dynamic"),
    ("file outside the skill", entry(resources=[resource("skill://hello/SKILL.md"),
                                                resource("skill://other/x")]), "outside"),
    ("file in another scheme", entry(resources=[resource("skill://hello/SKILL.md"),
                                                resource("file://hello/x")]), "outside"),
    ("file escaping with ..", entry(resources=[resource("skill://hello/SKILL.md"),
                                               resource("skill://hello/../../etc/passwd")]),
     "path segment"),
    ("a backslash", entry(resources=[resource("skill://hello/SKILL.md"),
                                     resource("skill://hello/a%5C..%5Cx")]), "path segment"),
    ("the same file twice", entry(resources=[resource("skill://hello/SKILL.md"),
                                             resource("skill://hello/a"),
                                             resource("skill://hello/A")]), "twice"),
    ("a file that is a folder too", entry(resources=[resource("skill://hello/SKILL.md"),
                                                     resource("skill://hello/a"),
                                                     resource("skill://hello/a/b")]),
     "both as a file and as a folder"),
    ("no SKILL.md in the manifest", entry(resources=[resource("skill://hello/x")]),
     "does not list its SKILL.md"),
    ("a bad digest", entry(resources=[resource("skill://hello/SKILL.md", digest="md5:00")]),
     "digest"),
    ("a negative size", entry(resources=[resource("skill://hello/SKILL.md", size=-1)]), "size"),
    ("a size that is not a number", entry(resources=[resource("skill://hello/SKILL.md", size=True)]),
     "size"),
    ("a huge file", entry(resources=[resource("skill://hello/SKILL.md", size=10**12)]), "size"),
    ("too many files", entry(resources=[resource("skill://hello/SKILL.md")] + [
        resource(f"skill://hello/f{n}") for n in range(600)]), "over the 512"),
    ("too many bytes", entry(resources=[resource("skill://hello/SKILL.md", size=9 << 20),
                                        resource("skill://hello/b", size=9 << 20)]),
     "add up to"),
    ("extra keys", entry(resources=[{**resource("skill://hello/SKILL.md"), "x": 1}]),
     "{uri, digest, size}"),
    ("a huge frontmatter", entry(frontmatter={"name": "hello", "description": "d",
                                              "x": "y" * 70_000}), "KiB"),
]


@pytest.mark.parametrize(("case", "answer", "said"), HOSTILE, ids=[c[0] for c in HOSTILE])
def test_a_hostile_entry_is_refused(case: str, answer: object, said: str) -> None:
    with pytest.raises(ServedError) as raised:
        check_entry(copy.deepcopy(answer), SERVER, Limits())
    assert said in str(raised.value)
    if isinstance(answer, dict):
        assert SERVER in str(raised.value)


def test_a_nested_skills_files_are_left_out_of_its_parent() -> None:
    parent = entry(resources=[resource("skill://hello/SKILL.md"),
                              resource("skill://hello/inner/SKILL.md"),
                              resource("skill://hello/inner/run.sh"),
                              resource("skill://hello/notes.md")])
    skill = check_entry(parent, SERVER, Limits())
    assert [f.path for f in skill.files] == ["SKILL.md", "notes.md"]
    assert skill.left_out == ("inner/SKILL.md", "inner/run.sh")


def test_the_manifest_digest_changes_with_any_byte_of_the_manifest() -> None:
    first = check_entry(entry(), SERVER, Limits()).manifest_digest
    other = entry()
    other["resources"][1]["digest"] = "sha256:" + "cd" * 32
    assert check_entry(other, SERVER, Limits()).manifest_digest != first
    described = entry(frontmatter={"name": "hello", "description": "Says hello!"})
    assert check_entry(described, SERVER, Limits()).manifest_digest != first
