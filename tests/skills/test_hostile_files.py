"""Reading skills that are not what they seem: FIFOs, sockets, links out of the folder, files in
UTF-16 or UTF-32, YAML nested to crash libyaml, and `.` as the skill's folder."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from studio.skills.checks.validate import validate_skill
from studio.skills.files import list_skill_files, load_skill, load_skill_file
from studio.skills.model import Diagnostic, RootNotice
from studio.skills.parse import UNREADABLE_CODES, parse_skill
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.scan.walk import walk_skills
from studio.skills.yaml.yamlload import MAX_NESTING
from tests.skills.helpers import frontmatter, write_skill

pytestmark = pytest.mark.timeout(60)  # a regression here hangs on a FIFO: fail instead


def codes(skill_path: Path) -> list[str]:
    return [d.code for d in validate_skill(load_skill(skill_path)).diagnostics]


def test_a_fifo_named_skill_md_is_reported_not_opened(tmp_path: Path) -> None:
    folder = tmp_path / "piped"
    folder.mkdir()
    os.mkfifo(folder / "SKILL.md")
    skill = load_skill_file(folder, "SKILL.md")
    assert [d.code for d in skill.problems] == ["SK006"]
    assert "FIFO" in skill.problems[0].message
    assert "SK006" in UNREADABLE_CODES


def test_a_fifo_or_socket_among_the_files_is_reported_and_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"), {"scripts/ok.sh": "#!/bin/sh\n"})
    os.mkfifo(folder / "scripts" / "pipe.sh")
    monkeypatch.chdir(folder)  # a socket's path must be short: bind it by a relative one
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("data.sock")
        odd: list[Diagnostic] = []
        files = list_skill_files(folder, odd=odd)
        assert [str(f.path) for f in files] == ["scripts/ok.sh"]
        assert sorted((d.code, d.file) for d in odd) == [
            ("SK210", "data.sock"), ("SK210", "scripts/pipe.sh"),
        ]
        result = validate_skill(load_skill(folder))
    assert [d.code for d in result.diagnostics].count("SK210") == 2 and result.valid


def test_a_file_link_out_of_the_skill_is_reported_one_inside_is_listed(tmp_path: Path) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"), {"references/a.md": "# A\n"})
    (tmp_path / "secret.txt").write_text("secret")
    (folder / "leak.md").symlink_to(tmp_path / "secret.txt")
    (folder / "alias.md").symlink_to(folder / "references" / "a.md")
    (folder / "loop").symlink_to(folder)
    skill = load_skill(folder)
    assert sorted(str(f.path) for f in skill.files) == ["alias.md", "references/a.md"]
    assert [(d.code, d.file) for d in skill.problems] == [("SK211", "leak.md")]


@pytest.mark.parametrize(
    ("codec", "bom", "named"),
    [
        ("utf-16-le", b"", "UTF-16 (little-endian, without"),
        ("utf-16-be", b"", "UTF-16 (big-endian, without"),
        ("utf-16-le", b"\xff\xfe", "UTF-16 (little-endian, with a"),
        ("utf-16-be", b"\xfe\xff", "UTF-16 (big-endian, with a"),
        ("utf-32-le", b"", "UTF-32 (little-endian, without"),
        ("utf-32-be", b"", "UTF-32 (big-endian, without"),
        ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32 (little-endian, with a"),
        ("utf-32-be", b"\x00\x00\xfe\xff", "UTF-32 (big-endian, with a"),
    ],
)
def test_utf16_and_utf32_files_are_named_not_missing_frontmatter(
    tmp_path: Path, codec: str, bom: bytes, named: str
) -> None:
    data = bom + frontmatter("demo").encode(codec)
    skill = parse_skill(data, tmp_path / "demo" / "SKILL.md")
    assert [d.code for d in skill.problems] == ["SK003"]
    assert named in skill.problems[0].message and "save it as UTF-8" in skill.problems[0].message


def _frontmatter_with(yaml_text: str) -> bytes:
    return f"---\nname: demo\ndescription: Use when testing.\n{yaml_text}\n---\nBody.\n".encode()


@pytest.mark.parametrize(
    "nested",
    [
        "x: " + "[" * 1_000 + "]" * 1_000,
        "x: " + "{a: " * 1_000 + "}" * 1_000,
        "x:\n" + "- " * 1_000 + "y",
        "x:\n" + "".join(" " * depth + "k:\n" for depth in range(1, 200)) + " " * 200 + "k: v",
    ],
    ids=["flow-sequences", "flow-mappings", "block-sequences", "indented-mappings"],
)
def test_yaml_nested_too_deep_is_refused_before_libyaml_reads_it(tmp_path: Path, nested: str) -> None:
    # Deep enough to pass the limit, not to crash this process if the check ever goes: the
    # 30,000 levels that kill libyaml are tried in a process of their own, through the CLI.
    skill = parse_skill(_frontmatter_with(nested), tmp_path / "demo" / "SKILL.md")
    [problem] = skill.problems
    assert problem.code == "SK016" and problem.line >= 4 and problem.column >= 1
    assert f"line {problem.line}, column {problem.column}" in problem.message
    assert skill.frontmatter is None and "SK016" in UNREADABLE_CODES


def test_yaml_nested_up_to_the_limit_still_loads(tmp_path: Path) -> None:
    nested = "x: " + "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1)
    skill = parse_skill(_frontmatter_with(nested), tmp_path / "demo" / "SKILL.md")
    assert skill.problems == [] and skill.frontmatter is not None


def test_dot_as_the_skill_folder_uses_the_folder_s_real_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"), {"references/a.md": "# A\n"})
    monkeypatch.chdir(folder)
    assert load_skill(Path(".")).dir_name == "demo"
    assert load_skill(Path("SKILL.md")).dir_name == "demo"
    assert load_skill(Path("references/..")).dir_name == "demo"
    assert "SK108" not in codes(Path("."))


def test_the_walk_reports_a_folder_link_out_of_the_root_and_does_not_follow_it(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_skill(root, "inside", frontmatter("inside"))
    write_skill(tmp_path / "elsewhere", "outside", frontmatter("outside"))
    (root / "link-out").symlink_to(tmp_path / "elsewhere")
    (root / "link-in").symlink_to(root / "inside")
    (root / "nested").mkdir()
    (root / "nested" / "cycle").symlink_to(root)
    notices: list[RootNotice] = []
    found = [Path(item.folder).name for item in walk_skills(root, False, None, notices)]
    assert found.count("inside") == 1 and "outside" not in found
    assert [(n.code, Path(n.path).name) for n in notices] == [("SK302", "link-out")]
    scan = scan_root(SkillRoot(root))
    assert [s.name for s in scan.skills] == ["inside"]
    assert [n.code for n in scan.notices] == ["SK302"]


def test_a_skill_md_linked_from_out_of_the_root_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_skill(root, "inside", frontmatter("inside"))
    outside = write_skill(tmp_path / "elsewhere", "outside", frontmatter("outside"))
    (root / "linked").mkdir()
    (root / "linked" / "SKILL.md").symlink_to(outside / "SKILL.md")
    (root / "aliased").mkdir()
    (root / "aliased" / "SKILL.md").symlink_to(root / "inside" / "SKILL.md")
    scan = scan_root(SkillRoot(root))
    assert sorted(s.directory.name for s in scan.skills) == ["aliased", "inside"]
    assert [(n.code, n.path) for n in scan.notices] == [("SK302", str(root / "linked" / "SKILL.md"))]


def test_a_value_nested_too_deep_through_aliases_is_refused(tmp_path: Path) -> None:
    chain = "\n".join(["a0: &a0 [x]", *(f"a{n}: &a{n} [*a{n - 1}]" for n in range(1, 200))])
    skill = parse_skill(_frontmatter_with(chain), tmp_path / "demo" / "SKILL.md")
    assert [d.code for d in skill.problems] == ["SK016"] and skill.frontmatter is None


def test_aliases_that_stay_shallow_or_loop_still_load(tmp_path: Path) -> None:
    shared = "\n".join(["base: &b {k: v}", *(f"c{n}: *b" for n in range(200)), "loop: &l [*l]"])
    skill = parse_skill(_frontmatter_with(shared), tmp_path / "demo" / "SKILL.md")
    assert skill.frontmatter is not None and skill.fields["c199"] == {"k": "v"}
