"""`studio desktop install|uninstall`: a desktop entry that starts this studio on the files given
to it, and the icon in the hicolor theme at every size, under $XDG_DATA_HOME; removed again."""

from __future__ import annotations

import configparser
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.paths import APP_ICON_SIZES


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "xdg data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def _entry(data_home: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((data_home / "applications" / "skill-studio.desktop").read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def _exec_arguments(value: str) -> list[str]:
    """The Exec key read as the specification says: string escapes first, then quoting (inside
    double quotes a backslash escapes `"`, `` ` ``, `$` and itself)."""
    text = value.replace("\\\\", "\0").replace("\\s", " ").replace("\0", "\\")
    arguments: list[str] = []
    current, quoted, started, index = "", False, False, 0
    while index < len(text):
        char = text[index]
        if quoted and char == "\\" and text[index + 1:index + 2] in ('"', "`", "$", "\\"):
            current, index = current + text[index + 1], index + 2
            continue
        if char == '"':
            quoted, started = not quoted, True
        elif char == " " and not quoted:
            if started:
                arguments.append(current)
            current, started = "", False
        else:
            current, started = current + char, True
        index += 1
    if started:
        arguments.append(current)
    assert not quoted, value
    return arguments


def _validated(data_home: Path) -> None:
    """freedesktop.org's own check of the entry, where it is installed (.ci/run installs it)."""
    if shutil.which("desktop-file-validate"):
        entry_file = data_home / "applications" / "skill-studio.desktop"
        result = subprocess.run(["desktop-file-validate", str(entry_file)], capture_output=True,
                                text=True, check=False)
        assert result.returncode == 0, result.stdout + result.stderr


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_install_writes_an_entry_that_opens_files_and_the_icon_at_every_size(
        data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["desktop", "install"]) == 0
    assert "application menu" in capsys.readouterr().out
    entry = _entry(data_home)
    assert entry["Type"] == "Application" and entry["Name"] == "Skill Studio"
    assert entry["Icon"] == "skill-studio" and entry["Terminal"] == "false"
    assert set(entry["MimeType"].rstrip(";").split(";")) == {"inode/directory", "text/markdown"}
    assert _exec_arguments(entry["Exec"]) == [sys.executable, "-m", "studio", "gui", "%F"]
    theme = data_home / "icons" / "hicolor"
    for size in APP_ICON_SIZES:
        assert _png_size(theme / f"{size}x{size}" / "apps" / "skill-studio.png") == (size, size)
    assert (theme / "scalable" / "apps" / "skill-studio.svg").read_text().startswith("<svg")
    _validated(data_home)


def test_a_launcher_in_an_awkward_folder_is_quoted_as_the_specification_says(
        data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    launcher = tmp_path / 'my "tools" $HOME 100%' / "studio"
    launcher.parent.mkdir()
    launcher.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(launcher), "desktop", "install"])
    assert main(["desktop", "install"]) == 0
    entry = _entry(data_home)
    arguments = _exec_arguments(entry["Exec"].replace("%%", "\x01"))
    assert [argument.replace("\x01", "%") for argument in arguments] == [str(launcher), "gui", "%F"]
    _validated(data_home)


def test_uninstall_removes_what_install_wrote_and_nothing_else(
        data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = data_home / "applications" / "other.desktop"
    other.parent.mkdir(parents=True)
    other.write_text("[Desktop Entry]\n")
    assert main(["desktop", "install"]) == 0
    assert main(["desktop", "install"]) == 0, "installing again replaces the files"
    assert main(["desktop", "uninstall"]) == 0
    left = sorted(str(p.relative_to(data_home)) for p in data_home.rglob("*")
                  if p.is_file() and p.name != "mimeinfo.cache")  # the desktop's, when it has the tool
    assert left == ["applications/other.desktop"]
    capsys.readouterr()
    assert main(["desktop", "uninstall"]) == 0
    assert "nothing to remove" in capsys.readouterr().out
