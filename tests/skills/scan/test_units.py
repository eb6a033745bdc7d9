"""A cold scan split by the folders below the root (workers walk, validate and render whole
folders) gives the report the whole walk gives: same skills, same order, same findings, the
shared names' warnings across workers included, and a link from one folder into another
makes it start the root again the ordinary way rather than report a skill twice."""

from __future__ import annotations

import functools
import io
import os
from pathlib import Path

import pytest

from studio.commands.validate_report import Piece, Report, render
from studio.skills.scan import scan, scan_pieces
from studio.skills.scan.roots import SkillRoot, usable_cores
from studio.skills.scan.units import UNITS_MIN, scan_split
from studio.skills.scan.walk import walk_skills
from tests.skills.helpers import write_skill

SKILL = "---\nname: {name}\ndescription: Does {name} things. Use when asked for {name}.\n---\nBody\n"
FAULTY = "---\nname: Bad_{name}\nversion: 1\n---\nSee [the notes](references/notes.md).\n"

two_cores = pytest.mark.skipif(usable_cores() < 2, reason="the split needs worker processes")


def _collection(root: Path, repositories: int = UNITS_MIN + 8) -> None:
    """Repositories of a few skills each, some faulty, forks sharing a name across them, one
    nested skill, one skill whose SKILL.md is lower case, and a non-skill file at the top."""
    for number in range(repositories):
        repository = root / f"owner{number % 3}--repo{number:03d}"
        for index in range(1 + number % 4):
            name = f"s{number}-{index}"
            text = (FAULTY if index == 2 else SKILL).format(name=name)
            folder = write_skill(repository / "skills", name, text)
            if index == 1:
                write_skill(folder / "examples", "inner", SKILL.format(name="inner"))
        write_skill(repository / "fork", "shared", SKILL.format(name="shared"))
    lower = write_skill(root / "owner9--odd" / "skills", "lower", SKILL.format(name="lower"))
    (lower / "SKILL.md").rename(lower / "skill.md")
    (root / "README.md").write_text("not a skill\n", encoding="utf-8")


def _whole(paths: list[Path], as_json: bool) -> str:
    with Report("json" if as_json else "text") as report:
        scan(paths, None, each=report.add)
        out = io.StringIO()
        report.write(out.write, {})
    return out.getvalue()


class _Counted(Report):
    rewinds = 0

    def rewind(self) -> None:
        self.rewinds += 1
        super().rewind()


def _split(paths: list[Path], as_json: bool) -> tuple[str, int]:
    report = _Counted("json" if as_json else "text")
    with report:
        scan_pieces(paths, functools.partial(render, as_json), report)
        out = io.StringIO()
        report.write(out.write, {})
    return out.getvalue(), report.rewinds


def test_the_split_walk_takes_the_folders_in_the_whole_walks_order(tmp_path: Path) -> None:
    _collection(tmp_path)
    whole = [found.folder for found in walk_skills(tmp_path, False, fingerprints="none")]
    units: list[str] = []
    assert list(walk_skills(tmp_path, False, fingerprints="none", units=units)) == []
    assert len(units) == UNITS_MIN + 9
    parts = [found.folder for unit in units
             for found in walk_skills(tmp_path, False, fingerprints="none", start=unit)]
    assert parts == whole


def test_a_root_that_is_a_skill_gives_no_folders_to_split(tmp_path: Path) -> None:
    write_skill(tmp_path, "one", SKILL.format(name="one"))
    units: list[str] = []
    found = list(walk_skills(tmp_path / "one", False, fingerprints="none", units=units))
    assert [item.folder for item in found] == [str(tmp_path / "one")] and units == []


@two_cores
@pytest.mark.parametrize("as_json", [True, False])
def test_split_report_is_the_whole_walks_report(tmp_path: Path, as_json: bool) -> None:
    _collection(tmp_path / "lib")
    split, rewinds = _split([tmp_path / "lib"], as_json)
    assert split == _whole([tmp_path / "lib"], as_json)
    assert rewinds == 0
    assert "SK301" in split  # forks share `shared` across workers


@two_cores
def test_a_link_from_one_folder_into_another_starts_the_root_again(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    _collection(root)
    (root / "owner0--repo000" / "elsewhere").symlink_to(root / "owner2--repo005" / "skills")
    split, rewinds = _split([root], True)
    assert rewinds == 1
    assert split == _whole([root], True)
    assert split.count(f'"path": "{root}/owner2--repo005/skills/s5-0"') == 1


@two_cores
def test_several_roots_and_an_empty_folder(tmp_path: Path) -> None:
    _collection(tmp_path / "a")
    _collection(tmp_path / "b", UNITS_MIN + 1)
    (tmp_path / "empty").mkdir()
    paths = [tmp_path / "a", tmp_path / "empty", tmp_path / "b"]
    assert _split(paths, True)[0] == _whole(paths, True)


class _Sink:
    def __init__(self) -> None:
        self.pieces: list[Piece] = []

    def add_piece(self, piece: Piece) -> None:
        self.pieces.append(piece)

    def mark(self) -> None:
        self.marked = len(self.pieces)

    def rewind(self) -> None:
        del self.pieces[self.marked:]


@two_cores
def test_workers_send_pieces_not_skills(tmp_path: Path) -> None:
    _collection(tmp_path)
    sink = _Sink()
    result, count = scan_split(SkillRoot(tmp_path), functools.partial(render, True), sink)
    assert count == sum(len(piece.names) for piece in sink.pieces) > 0
    assert len(sink.pieces) < count  # batches of folders, not a piece a skill
    assert result.error is None and os.path.isdir(result.root.path)


def test_a_batch_whose_worker_died_is_walked_again_to_the_same_piece(tmp_path: Path) -> None:
    from studio.skills.scan.units import _walk_isolated, walk_units

    _collection(tmp_path)
    units: list[str] = []
    list(walk_skills(tmp_path, False, fingerprints="none", units=units))
    draw = functools.partial(render, True)
    alone = _walk_isolated(units[:5], SkillRoot(tmp_path), "spec", (), draw)
    assert alone == walk_units(units[:5], SkillRoot(tmp_path), "spec", (), draw)
    assert alone.skills > 0 and not alone.escaped
