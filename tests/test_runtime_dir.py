"""The folder for the window's socket and the MCP token is the user's alone: `$XDG_RUNTIME_DIR`
when it is private, else a 0700 folder the studio makes; a folder another user owns or can
enter, or a link, is refused with a message that says what to do."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from studio.paths import PrivateFolderError, data_dir, runtime_dir


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_without_a_session_folder_it_is_a_private_folder_in_the_data_folder() -> None:
    folder = runtime_dir()
    assert folder == data_dir() / "run"
    assert _mode(folder) == 0o700
    assert runtime_dir() == folder


def test_a_private_xdg_runtime_dir_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = tmp_path / "run-user"
    session.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(session))
    assert runtime_dir() == session / "skill-studio"
    assert _mode(session / "skill-studio") == 0o700


def test_an_xdg_runtime_dir_others_can_enter_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(shared))
    with caplog.at_level(logging.WARNING):
        assert runtime_dir() == data_dir() / "run"
    assert "can be entered by other users (mode 1777)" in caplog.text
    assert not (shared / "skill-studio").exists()


def test_its_own_folder_open_to_others_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "runtime"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    monkeypatch.setenv("STUDIO_RUNTIME_DIR", str(folder))
    with pytest.raises(PrivateFolderError, match=r"mode 0755\); make it private with `chmod 700 "):
        runtime_dir()


def test_a_folder_of_another_user_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "runtime"
    folder.mkdir(mode=0o700)
    if os.geteuid() == 0:
        os.chown(folder, 65534, 65534)
    else:  # cannot give a folder away: be someone else instead
        monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)
    monkeypatch.setenv("STUDIO_RUNTIME_DIR", str(folder))
    with pytest.raises(PrivateFolderError, match=r"belongs to user .*, not to you"):
        runtime_dir()


def test_a_link_is_refused_even_to_a_private_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    (tmp_path / "runtime").symlink_to(target)
    monkeypatch.setenv("STUDIO_RUNTIME_DIR", str(tmp_path / "runtime"))
    with pytest.raises(PrivateFolderError, match="is a symbolic link"):
        runtime_dir()
