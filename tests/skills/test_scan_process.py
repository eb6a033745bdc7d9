"""The library scan's child process: its frames, and what it writes for each root."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from studio.skills.library import scan_process
from studio.skills.library.entries import decode, encode
from studio.skills.library.roots import SkillRoot, scan_root
from tests.skills.helpers import frontmatter, write_skill


@pytest.fixture
def skills_root(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    for name in ("csv-profiler", "pdf-tools", "web-search"):
        write_skill(root, name, frontmatter(name))
    return root


def test_scan_frames_round_trip(skills_root: Path) -> None:
    out = io.BytesIO()
    summary = scan_root(SkillRoot(skills_root)).skills[0]
    scan_process.write_frame(out, ("skills", str(skills_root), [encode(summary)]))
    scan_process.write_frame(out, ("end",))
    data = bytearray(out.getvalue())
    partial = bytearray(data[:7])
    assert scan_process.read_frames(partial) == []
    frames = scan_process.read_frames(data)
    assert [frame[0] for frame in frames] == ["skills", "end"]
    assert encode(decode(skills_root, frames[0][2][0])) == encode(summary)
    assert data == bytearray()


def test_scan_process_main_writes_every_root(skills_root: Path, tmp_path: Path,
                                             capfdbinary: object) -> None:
    assert scan_process.main(["--cache", str(tmp_path / "c.marshal"), str(skills_root),
                              str(tmp_path / "missing")]) == 0
    captured = capfdbinary.readouterr()  # type: ignore[attr-defined]
    frames = scan_process.read_frames(bytearray(captured.out))
    kinds = [frame[0] for frame in frames]
    assert kinds[-1] == "end"
    assert kinds[:3] == ["listed", "skills", "root"], "listed first, then validated"
    assert sum(len(f[2]) for f in frames if f[0] == "listed") == 3
    assert sum(len(f[2]) for f in frames if f[0] == "skills") == 3
    roots = [f for f in frames if f[0] == "root"]
    assert roots[0] == ("root", str(skills_root), None, [str(skills_root)])
    assert "does not exist" in roots[1][2]
    assert (tmp_path / "c.marshal").exists()


def test_scan_process_judges_for_the_target_it_is_given(tmp_path: Path,
                                                      capfdbinary: object) -> None:
    root = tmp_path / "skills"
    (root / "forked").mkdir(parents=True)
    (root / "forked" / "SKILL.md").write_text(
        "---\nname: forked\ndescription: Forks. Use when testing.\ncontext: fork\n---\nBody\n")
    codes: dict[str, list[str]] = {}
    for target in ("spec", "claude-code"):
        assert scan_process.main(["--target", target, str(root)]) == 0
        frames = scan_process.read_frames(bytearray(capfdbinary.readouterr().out))  # type: ignore[attr-defined]
        [summary] = [decode(root, item)
                     for f in frames if f[0] == "skills" for item in f[2]]
        codes[target] = [d.code for d in summary.diagnostics]
    assert codes == {"spec": ["SK131"], "claude-code": []}
