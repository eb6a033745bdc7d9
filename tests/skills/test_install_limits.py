"""Installs bounded in time, memory and disk: a trickling or silent server, PAX and long-name
header bombs, archives of too many, too large, too deep entries, a repository's own `.git`, and
the scratch folders a killed install leaves."""

from __future__ import annotations

import gzip
import io
import os
import struct
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from skills.packs import skill_md, tar_pack, zip_pack

from studio.skills.install.download import (
    SCRATCH_PREFIX,
    InstallError,
    Transfer,
    commit_install,
    prepare_install,
    remove_leftovers,
)
from studio.skills.library.archive import ArchiveError, Limits, unpack
from tests.fakes.files import FileServer
from tests.fakes.trickle import TrickleServer

try:
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


@pytest.fixture
def server() -> Iterator[FileServer]:
    with FileServer() as running:
        assert isinstance(running, FileServer)
        yield running


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


# -- time -----------------------------------------------------------------------------------------

def test_a_trickling_server_is_given_up_under_the_minimum_rate(tmp_path: Path) -> None:
    with TrickleServer(every=0.02, size=1) as trickle:
        with pytest.raises(InstallError, match="less than the 1,000 bytes a second") as caught:
            prepare_install(trickle.url + "/pack.zip", tmp_path,
                            transfer=Transfer(deadline=60, min_rate=1000, window=0.2))
        assert trickle.wait_disconnected()
    assert "was stopped after" in str(caught.value)
    assert _tree(tmp_path) == []


def test_a_steady_download_that_outlasts_the_deadline_is_stopped(tmp_path: Path) -> None:
    with (TrickleServer(every=0.01, size=4096) as steady,
          pytest.raises(InstallError, match=r"did not finish within 0\.3 s")):
        prepare_install(steady.url + "/pack.zip", tmp_path,
                        transfer=Transfer(deadline=0.3, min_rate=1, window=60))
    assert _tree(tmp_path) == []


def test_a_silent_server_is_given_up_after_the_window(tmp_path: Path) -> None:
    with (TrickleServer(silent=True) as silent,
          pytest.raises(InstallError, match=r"sent nothing for 0\.2 s")):
        prepare_install(silent.url + "/pack.zip", tmp_path,
                        transfer=Transfer(deadline=60, min_rate=1, window=0.2))
    assert _tree(tmp_path) == []


def test_studio_install_ends_a_trickle_with_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from studio.commands import installing as command
    from studio.skills.install import download as core
    monkeypatch.setattr(core, "DEFAULT_TRANSFER", Transfer(deadline=60, min_rate=500, window=0.2))
    with TrickleServer(every=0.02, size=1) as trickle:
        code = command.install(trickle.url + "/x.zip", tmp_path, False, None, 100 << 20, sys.stderr)
    assert code == 1
    err = capsys.readouterr().err
    assert "less than the 500 bytes a second required" in err and "nothing was written" in err
    assert _tree(tmp_path) == []


# -- leftovers ------------------------------------------------------------------------------------

def test_a_killed_installs_scratch_folder_is_removed_by_the_next_install(
    server: FileServer, tmp_path: Path
) -> None:
    # What a SIGKILL midway leaves: the scratch folder, its lock file (held by nobody now) and a
    # partial download.
    left = tmp_path / f"{SCRATCH_PREFIX}killed"
    (left / "unpacked" / "a").mkdir(parents=True)
    (left / ".lock").write_bytes(b"")
    (left / "download").write_bytes(b"PK\x03\x04 partial")
    (left / "unpacked" / "a" / "SKILL.md").write_text(skill_md("a"))
    server.files["/pack.zip"] = zip_pack({"b/SKILL.md": skill_md("b")})
    plan = prepare_install(server.url + "/pack.zip", tmp_path)
    commit_install(plan)
    plan.discard()
    assert _tree(tmp_path) == ["b", "b/SKILL.md", "skills-lock.json"]


@pytest.mark.skipif(fcntl is None, reason="advisory locks are a POSIX thing")
def test_a_live_installs_scratch_folder_is_kept(tmp_path: Path) -> None:
    live = tmp_path / f"{SCRATCH_PREFIX}live"
    live.mkdir()
    fd = os.open(live / ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert remove_leftovers(tmp_path) == []
        assert live.is_dir()
    finally:
        os.close(fd)
    assert remove_leftovers(tmp_path) == [live]
    assert not live.exists()


def test_a_scratch_folder_without_a_lock_goes_only_when_old(tmp_path: Path) -> None:
    young = tmp_path / f"{SCRATCH_PREFIX}young"
    young.mkdir()
    made = young.stat().st_mtime
    assert remove_leftovers(tmp_path, now=made + 10) == []
    assert remove_leftovers(tmp_path, now=made + 7200) == [young]


def test_other_folders_are_never_leftovers(tmp_path: Path) -> None:
    (tmp_path / "skill").mkdir()
    (tmp_path / "skill" / ".lock").write_bytes(b"")
    os.symlink(tmp_path / "skill", tmp_path / f"{SCRATCH_PREFIX}link")
    assert remove_leftovers(tmp_path, now=1e12) == []
    assert (tmp_path / "skill" / ".lock").exists()


# -- a repository's own .git ----------------------------------------------------------------------

@pytest.mark.parametrize("pack", [zip_pack, tar_pack])
def test_a_skills_own_git_is_left_out_and_the_preview_says_so(
    server: FileServer, tmp_path: Path, pack: object
) -> None:
    entries: dict[str, str | bytes] = {
        "a/SKILL.md": skill_md("a"),
        "a/.git/config": "[core]\n\tfsmonitor = touch /tmp/pwned\n",
        "a/.git/hooks/pre-commit": "#!/bin/sh\ntouch /tmp/pwned\n",
        ".git/HEAD": "ref: refs/heads/main\n",
    }
    server.files["/pack"] = pack(entries)  # type: ignore[operator]
    plan = prepare_install(server.url + "/pack", tmp_path)
    try:
        assert sorted(plan.left_out) == [".git", "a/.git"]
        shown = "\n".join(plan.describe())
        assert "a/.git: left out (a repository's own .git is never installed" in shown
        commit_install(plan)
    finally:
        plan.discard()
    assert _tree(tmp_path) == ["a", "a/SKILL.md", "skills-lock.json"]


# -- archive shapes -------------------------------------------------------------------------------

def _header(name: str, size: int, kind: bytes) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    info.type = kind
    return info.tobuf(tarfile.GNU_FORMAT)


def _pax_bomb(claimed: int, held: int) -> bytes:
    """A tar.gz whose first header is a PAX record stating `claimed` bytes, `held` of them sent."""
    record = _header("././@PaxHeader", claimed, tarfile.XHDTYPE)
    body = b"%d path=" % held + b"a" * max(0, held - 16) + b"\n"
    return gzip.compress(record + body[:held] + bytes(1024), compresslevel=9)


@pytest.mark.parametrize(("claimed", "held"), [(1 << 30, 1 << 20), (1 << 20, 1 << 20)])
def test_a_pax_header_bomb_is_refused_by_its_stated_size(
    tmp_path: Path, claimed: int, held: int
) -> None:
    archive = tmp_path / "bomb.tar.gz"
    archive.write_bytes(_pax_bomb(claimed, held))
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="extended header of"):
        unpack(archive, tmp_path / "out", Limits())
    assert _tree(tmp_path / "out") == []


def test_a_gnu_long_name_bomb_is_refused_too(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.tar.gz"
    archive.write_bytes(gzip.compress(_header("././@LongLink", 1 << 20, tarfile.GNUTYPE_LONGNAME)
                                      + b"a" * (1 << 20)))
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="extended header of 1,048,576 bytes"):
        unpack(archive, tmp_path / "out", Limits())


def test_unpacking_a_pax_bomb_keeps_memory_small(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.tar.gz"
    archive.write_bytes(_pax_bomb(1 << 34, 4 << 20))
    script = textwrap.dedent(f"""
        from pathlib import Path
        from studio.skills.library.archive import ArchiveError, Limits, unpack
        out = Path({str(tmp_path / 'out')!r}); out.mkdir()
        try:
            unpack(Path({str(archive)!r}), out, Limits())
        except ArchiveError as exc:
            print("refused:", exc)
        # The child's own peak: ru_maxrss would carry over the forked test runner's, which exec
        # does not reset on Linux.
        status = Path("/proc/self/status").read_text().splitlines()
        print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parents[2])
    said, peak_kib = done.stdout.splitlines()
    assert said.startswith("refused:") and "extended header" in said
    assert int(peak_kib) < 200 << 10  # KiB: well under 200 MB (it was 3.2 GB)


def _many_entries_tar(count: int) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for number in range(count):
            archive.addfile(tarfile.TarInfo(f"a/f{number}"), io.BytesIO(b""))
    return gzip.compress(raw.getvalue())


def test_a_tar_of_too_many_entries_stops_at_the_cap_without_reading_the_rest(tmp_path: Path) -> None:
    data = _many_entries_tar(4000)
    archive = tmp_path / "many.tar.gz"
    # Cut in the middle: an unpacker that read on past the cap would find the damage first.
    archive.write_bytes(data[: len(data) // 2])
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="more than 100 entries"):
        unpack(archive, tmp_path / "out", Limits(max_files=100))


def test_a_zip_is_refused_from_its_end_record_alone(tmp_path: Path) -> None:
    data = bytearray(zip_pack({f"a/f{n}": "" for n in range(3)}))
    at = data.rfind(b"PK\x05\x06")
    # Claim two million entries and a directory to match; the directory itself is never read.
    data[at + 8:at + 16] = struct.pack("<HHI", 0xFFFF, 0xFFFF, 2_000_000 * 50)
    archive = tmp_path / "many.zip"
    archive.write_bytes(bytes(data))
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="more than 5,000 entries"):
        unpack(archive, tmp_path / "out", Limits())


def test_a_zip_directory_larger_than_its_entries_can_take_is_refused(tmp_path: Path) -> None:
    data = bytearray(zip_pack({"a/f": ""}))
    at = data.rfind(b"PK\x05\x06")
    data[at + 12:at + 16] = struct.pack("<I", 1 << 31)
    archive = tmp_path / "big.zip"
    archive.write_bytes(bytes(data))
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="list of entries is 2,147,483,648 bytes"):
        unpack(archive, tmp_path / "out", Limits())


@pytest.mark.parametrize("pack", [zip_pack, tar_pack])
@pytest.mark.parametrize(
    ("entries", "limits", "words"),
    [
        ({"a/big": b"x" * 5000}, Limits(max_entry=4096), "more than the 4,096 allowed for one file"),
        ({"a/b": b"x" * 3000, "a/c": b"x" * 3000}, Limits(max_unpacked=4096),
         "would unpack to more than the 4,096 bytes"),
        ({"/".join("d" * 40) + "/f": "x"}, Limits(), "more than 32 folders deep"),
        ({"a/" + "n" * 1100: "x"}, Limits(), "longer than 1024 characters"),
    ],
)
def test_caps_on_each_entry_and_the_whole(
    tmp_path: Path, pack: object, entries: dict[str, str | bytes], limits: Limits, words: str
) -> None:
    archive = tmp_path / "pack"
    archive.write_bytes(pack(entries))  # type: ignore[operator]
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match=words):
        unpack(archive, tmp_path / "out", limits)


def test_a_zip_entry_that_claims_a_huge_ratio_is_refused_before_decompressing(tmp_path: Path) -> None:
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a/zeros", b"\0" * (4 << 20))
    path = tmp_path / "bomb.zip"
    path.write_bytes(raw.getvalue())
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="more than 200:1: a zip bomb"):
        unpack(path, tmp_path / "out", Limits())
    assert _tree(tmp_path / "out") == []


def test_a_tar_entry_that_is_shorter_than_it_says_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "short.tar.gz"
    path.write_bytes(gzip.compress(_header("a/f", 5000, tarfile.REGTYPE) + b"x" * 100))
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match=r"ends inside|ends in the middle"):
        unpack(path, tmp_path / "out", Limits())


# -- a real install, stopped and killed -----------------------------------------------------------

def _install_child(url: str, into: Path, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
           "STUDIO_DATA_DIR": str(tmp_path / "data"), "STUDIO_CONFIG_DIR": str(tmp_path / "config"),
           "STUDIO_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.Popen([sys.executable, "-m", "studio", "install", url, "--into", str(into)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)


def _downloading(into: Path) -> bool:
    return any((folder / "download").exists() for folder in into.glob(f"{SCRATCH_PREFIX}*"))


@pytest.mark.parametrize("how", ["terminated", "killed"])
async def test_an_install_stopped_midway_leaves_nothing_in_the_library(
    tmp_path: Path, server: FileServer, how: str
) -> None:
    import signal

    from tests.waiting import eventually
    into = tmp_path / "skills"
    into.mkdir()
    with TrickleServer(every=0.05, size=1) as trickle:
        child = _install_child(trickle.url + "/pack.zip", into, tmp_path)
        try:
            assert await eventually(lambda: _downloading(into))
            child.send_signal(signal.SIGTERM if how == "terminated" else signal.SIGKILL)
            _out, err = child.communicate(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert b"Traceback" not in err
    if how == "terminated":
        assert child.returncode == 128 + signal.SIGTERM
        assert _tree(into) == []
        return
    # A SIGKILL cannot be cleaned up after at once: the next install finds it and removes it.
    assert [path.name.startswith(SCRATCH_PREFIX) for path in into.iterdir()] == [True]
    server.files["/pack.zip"] = zip_pack({"b/SKILL.md": skill_md("b")})
    plan = prepare_install(server.url + "/pack.zip", into)
    commit_install(plan)
    plan.discard()
    assert _tree(into) == ["b", "b/SKILL.md", "skills-lock.json"]


def test_a_pax_size_below_zero_is_refused(tmp_path: Path) -> None:
    record = b"13 size=-512\n"
    data = (_header("././@PaxHeader", len(record), tarfile.XHDTYPE) + record
            + bytes(-len(record) % 512) + _header("a/f", 0, tarfile.REGTYPE) + bytes(1024))
    path = tmp_path / "negative.tar.gz"
    path.write_bytes(gzip.compress(data))
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="negative size"):
        unpack(path, tmp_path / "out", Limits())
