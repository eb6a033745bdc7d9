"""Installing from a URL: every bad archive refused with nothing written, good ones atomically."""

from __future__ import annotations

import os
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from skills.packs import good_pack, skill_md, tar_pack, zip_pack

from studio.skills.install.download import InstallError, commit_install, prepare_install
from studio.skills.install.lockfile import computed_hash, origins, read_lock
from studio.skills.library.archive import Limits
from tests.fakes.files import FileServer


@pytest.fixture
def server() -> Iterator[FileServer]:
    with FileServer() as running:
        assert isinstance(running, FileServer)
        yield running


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_a_good_zip_pack_installs_every_skill_and_records_it(server: FileServer, tmp_path: Path) -> None:
    server.files["/pack.zip"] = zip_pack(good_pack())
    into = tmp_path / "skills"
    plan = prepare_install(server.url + "/pack.zip", into)
    try:
        assert [(s.folder, s.replaces, s.errors) for s in plan.skills] == [
            ("alpha", False, []), ("beta", False, [])]
        assert _tree(into) == [p for p in _tree(into) if p.startswith(".studio-install-")]
        commit_install(plan)
    finally:
        plan.discard()
    assert _tree(into) == ["alpha", "alpha/SKILL.md", "alpha/scripts", "alpha/scripts/run.sh",
                           "beta", "beta/SKILL.md", "skills-lock.json"]
    alpha, beta = read_lock(into)
    assert (alpha.name, beta.name) == ("alpha", "beta")
    assert alpha.url.endswith("/pack.zip") and len(alpha.studio["sha256"]) == 64
    assert alpha.source_type == "archive" and alpha.computed_hash == computed_hash(into / "alpha")
    assert origins(into) == {"alpha": alpha.url, "beta": alpha.url}


def test_a_tar_gz_pack_installs_and_keeps_the_executable_bit(server: FileServer, tmp_path: Path) -> None:
    server.files["/pack.tar.gz"] = tar_pack(good_pack())
    plan = prepare_install(server.url + "/pack.tar.gz", tmp_path)
    commit_install(plan)
    plan.discard()
    assert os.access(tmp_path / "alpha" / "scripts" / "run.sh", os.X_OK)
    assert not os.access(tmp_path / "alpha" / "SKILL.md", os.X_OK)


@pytest.mark.parametrize(
    ("pack", "words"),
    [
        (zip_pack({"a/SKILL.md": skill_md("a"), "../evil.txt": "x"}), "outside"),
        (zip_pack({"a/SKILL.md": skill_md("a"), "/etc/evil": "x"}), "absolute path"),
        (zip_pack({"a/SKILL.md": skill_md("a"), "a\\..\\..\\evil": "x"}), "backslash"),
        (zip_pack({"a/SKILL.md": skill_md("a")}, links={"a/link": "/etc/passwd"}), "is a link"),
        (tar_pack({"a/SKILL.md": skill_md("a")}, {"a/link": tarfile.SYMTYPE}), "is a link"),
        (tar_pack({"a/SKILL.md": skill_md("a")}, {"a/hard": tarfile.LNKTYPE}), "is a link"),
        (tar_pack({"a/SKILL.md": skill_md("a")}, {"a/fifo": tarfile.FIFOTYPE}), "FIFO"),
        (tar_pack({"a/SKILL.md": skill_md("a")}, {"a/dev": tarfile.CHRTYPE}), "device"),
        (tar_pack({"a/SKILL.md": skill_md("a"), "../../x": "x"}), "outside"),
        (b"<html>not an archive</html>", "neither a zip nor a tar.gz"),
        (b"PK\x03\x04 truncated", "damaged"),
        (zip_pack({"README.md": "no skills here"}), "holds no skill"),
        (zip_pack({"x/a/SKILL.md": skill_md("a"), "y/a/SKILL.md": skill_md("a")}), "two skills"),
    ],
)
def test_bad_archives_are_refused_and_nothing_is_written(
    server: FileServer, tmp_path: Path, pack: bytes, words: str
) -> None:
    server.files["/bad"] = pack
    into = tmp_path / "skills"
    with pytest.raises(InstallError, match=words):
        prepare_install(server.url + "/bad", into)
    assert _tree(into) == []
    assert not (tmp_path / "evil.txt").exists()


def test_a_zip_bomb_is_stopped_by_the_unpacked_size_cap(server: FileServer, tmp_path: Path) -> None:
    server.files["/bomb.zip"] = zip_pack({"a/SKILL.md": skill_md("a"), "a/zeros.bin": b"\0" * (8 << 20)})
    assert len(server.files["/bomb.zip"]) < 64 << 10
    with pytest.raises(InstallError, match="zip bomb"):
        prepare_install(server.url + "/bomb.zip", tmp_path, limits=Limits(max_unpacked=1 << 20))
    assert _tree(tmp_path) == []


def test_too_many_files_and_too_big_downloads_are_refused(server: FileServer, tmp_path: Path) -> None:
    many = {f"a/{i}.txt": "x" for i in range(20)} | {"a/SKILL.md": skill_md("a")}
    server.files["/many.zip"] = zip_pack(many)
    with pytest.raises(InstallError, match="more than 10 entries"):
        prepare_install(server.url + "/many.zip", tmp_path, limits=Limits(max_files=10))
    server.files["/big.zip"] = zip_pack({"a/SKILL.md": skill_md("a"), "a/x.bin": os.urandom(4096)})
    with pytest.raises(InstallError, match="more than the 1000"):
        prepare_install(server.url + "/big.zip", tmp_path, max_bytes=1000)
    server.omit_length = True
    with pytest.raises(InstallError, match="sent more than the 1000"):
        prepare_install(server.url + "/big.zip", tmp_path, max_bytes=1000)
    assert _tree(tmp_path) == []


def test_a_404_and_a_dead_server_say_so(server: FileServer, tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="answered 404"):
        prepare_install(server.url + "/missing.zip", tmp_path)
    with pytest.raises(InstallError, match="not an http"):
        prepare_install("ftp://example.invalid/x.zip", tmp_path)
    assert _tree(tmp_path) == []


def test_replacing_swaps_the_folder_whole_and_an_invalid_skill_stops_the_install(
    server: FileServer, tmp_path: Path
) -> None:
    old = tmp_path / "alpha"
    old.mkdir()
    (old / "SKILL.md").write_text(skill_md("alpha", "Old one."), encoding="utf-8")
    (old / "stale.txt").write_text("old file", encoding="utf-8")
    server.files["/pack.zip"] = zip_pack(good_pack())
    plan = prepare_install(server.url + "/pack.zip", tmp_path)
    assert [s.folder for s in plan.replaced] == ["alpha"]
    commit_install(plan)
    plan.discard()
    assert not (old / "stale.txt").exists()
    assert "Does a thing" in (old / "SKILL.md").read_text(encoding="utf-8")

    server.files["/broken.zip"] = zip_pack({"gamma/SKILL.md": "---\nname: Not Valid\n---\n"})
    plan = prepare_install(server.url + "/broken.zip", tmp_path)
    assert plan.invalid
    with pytest.raises(InstallError, match="gamma has errors"):
        commit_install(plan)
    plan.discard()
    assert not (tmp_path / "gamma").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".studio")] == []


def test_a_lock_file_it_cannot_read_stops_the_install_and_is_kept(server: FileServer, tmp_path: Path) -> None:
    server.files["/pack.zip"] = zip_pack(good_pack())
    (tmp_path / "skills-lock.json").write_bytes(b'{"version": 1, "skills": {"x": ')
    with pytest.raises(InstallError, match=r"not valid JSON.*nothing was written"):
        prepare_install(server.url + "/pack.zip", tmp_path)
    assert _tree(tmp_path) == ["skills-lock.json"]
    assert (tmp_path / "skills-lock.json").read_bytes() == b'{"version": 1, "skills": {"x": '
