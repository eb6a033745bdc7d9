"""`studio install`: what it shows, when it asks, --yes, --update and the exit codes."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from skills.packs import good_pack, skill_md, zip_pack

from studio.cli import main
from studio.commands.installing import install
from studio.skills.install.lockfile import read_lock
from tests.fakes.files import FileServer


@pytest.fixture
def server() -> Iterator[FileServer]:
    with FileServer({"/pack.zip": zip_pack(good_pack())}) as running:
        assert isinstance(running, FileServer)
        yield running


def test_install_lists_the_skills_then_writes_them(
    server: FileServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", server.url + "/pack.zip", "--into", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "  alpha: new" in err and "  beta: new" in err and "installed 2 skills" in err
    assert (tmp_path / "beta" / "SKILL.md").is_file()


def test_replacing_needs_yes_away_from_a_terminal(
    server: FileServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "alpha").mkdir()
    (tmp_path / "alpha" / "SKILL.md").write_text(skill_md("alpha", "Mine."), encoding="utf-8")
    assert main(["install", server.url + "/pack.zip", "--into", str(tmp_path)]) == 1
    assert "pass --yes" in capsys.readouterr().err
    assert "Mine." in (tmp_path / "alpha" / "SKILL.md").read_text(encoding="utf-8")
    assert not (tmp_path / "beta").exists()
    assert main(["install", server.url + "/pack.zip", "--into", str(tmp_path), "--yes"]) == 0
    assert "Mine." not in (tmp_path / "alpha" / "SKILL.md").read_text(encoding="utf-8")


def test_at_a_terminal_replacing_asks_and_no_keeps_everything(server: FileServer, tmp_path: Path) -> None:
    (tmp_path / "alpha").mkdir()
    (tmp_path / "alpha" / "SKILL.md").write_text(skill_md("alpha", "Mine."), encoding="utf-8")
    questions: list[str] = []

    def answer_no(question: str) -> bool:
        questions.append(question)
        return False

    err = io.StringIO()
    assert install(server.url + "/pack.zip", tmp_path, False, answer_no, 1 << 20, err) == 1
    assert questions == [f"Replace alpha in {tmp_path}?"]
    assert "nothing was written" in err.getvalue()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alpha"]


def test_update_fetches_recorded_urls_again(
    server: FileServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = server.url + "/pack.zip"
    assert main(["install", url, "--into", str(tmp_path)]) == 0
    assert main(["install", "--update", "--into", str(tmp_path)]) == 0
    assert f"{url}: up to date" in capsys.readouterr().err
    changed = good_pack() | {"pack-main/alpha/SKILL.md": skill_md("alpha", "Version two.")}
    server.files["/pack.zip"] = zip_pack(changed)
    assert main(["install", "--update", "--into", str(tmp_path)]) == 0
    assert "Version two." in (tmp_path / "alpha" / "SKILL.md").read_text(encoding="utf-8")
    assert [(record.name, record.url) for record in read_lock(tmp_path)] == [
        ("alpha", url), ("beta", url)]


def test_an_update_touches_only_the_skills_it_installed(
    server: FileServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = server.url + "/pack.zip"
    assert main(["install", url, "--into", str(tmp_path)]) == 0
    (tmp_path / "gamma").mkdir()
    (tmp_path / "gamma" / "SKILL.md").write_text(skill_md("gamma", "Mine."), encoding="utf-8")
    server.files["/pack.zip"] = zip_pack(good_pack() | {"pack-main/gamma/SKILL.md": skill_md("gamma")})
    assert main(["install", "--update", "--into", str(tmp_path)]) == 0
    assert "gamma" not in capsys.readouterr().err
    assert "Mine." in (tmp_path / "gamma" / "SKILL.md").read_text(encoding="utf-8")


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "--into", str(tmp_path)]) == 2
    assert main(["install", "--update", "--into", str(tmp_path)]) == 1
    assert "no recorded installs" in capsys.readouterr().err
