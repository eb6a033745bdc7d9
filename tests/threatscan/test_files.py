"""Every file of a skill is read, within bounds, and what is not read is a finding."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.threatscan import files as files_module
from studio.threatscan import scan_skill


def _skill(root: Path, files: dict[str, str | bytes]) -> Path:
    folder = root / "demo"
    for relative, content in {"SKILL.md": "---\nname: demo\ndescription: d\n---\nhi\n", **files}.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def _codes(folder: Path) -> list[tuple[str, str, str]]:
    return [(f.code, f.severity, f.file) for f in scan_skill(folder).findings]


def test_files_anywhere_and_dot_files_are_read(tmp_path: Path) -> None:
    folder = _skill(
        tmp_path, {"deep/down/x.sh": "rm -rf ~\n", ".hidden/run.py": "import os\nos.system('rm -rf ~')\n"}
    )
    found = _codes(folder)
    assert ("SK515", "critical", "deep/down/x.sh") in found
    assert ("SK515", "critical", ".hidden/run.py") in found


def test_compiled_code_executables_and_locked_archives_are_findings(tmp_path: Path) -> None:
    folder = _skill(
        tmp_path,
        {
            "x.pyc": b"\xa7\r\r\n\x00\x00\x00\x00\xe3" + b"\x00" * 20,
            "bin/tool": b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 40,
            "tools.zip": b"PK\x03\x04\x14\x00\x01\x00" + b"\x00" * 40,
            "assets/logo.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,
        },
    )
    found = _codes(folder)
    assert ("SK508", "high", "x.pyc") in found
    assert ("SK508", "high", "bin/tool") in found
    assert ("SK508", "high", "tools.zip") in found
    assert not [f for f in found if f[2] == "assets/logo.png"]


def test_files_past_the_bounds_are_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_module, "MAX_FILES", 3)
    folder = _skill(tmp_path, {f"refs/{i}.md": "text\n" for i in range(5)})
    found = scan_skill(folder).findings
    skipped = [f for f in found if f.code == "SK507"]
    assert skipped and "not read" in skipped[0].message and skipped[0].severity == "medium"


def test_a_long_file_is_read_up_to_its_bound_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files_module, "MAX_FILE_BYTES", 1000)
    folder = _skill(tmp_path, {"scripts/big.sh": "echo hi\n" * 500 + "rm -rf ~\n"})
    found = scan_skill(folder).findings
    assert any(
        f.code == "SK507" and f.file == "scripts/big.sh" and "first 1,000 bytes" in f.message for f in found
    )


@pytest.mark.parametrize("size", [0, 1, 999, 1000, 1001, 5000])
def test_a_file_is_read_whole_or_up_to_its_bound_however_its_size_compares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    """The first read asks for the file's size, plus one: a file at, under or over the bound
    gives the same bytes as one read of the whole bound would."""
    monkeypatch.setattr(files_module, "MAX_FILE_BYTES", 1000)
    folder = _skill(tmp_path, {"notes.txt": "x" * size})
    texts, found = files_module.read_skill_files(folder)
    assert [t.text for t in texts if t.relative == "notes.txt"] == ["x" * min(size, 1000)]
    assert any("first 1,000 bytes" in f.message for f in found) == (size > 1000)
    text, found = files_module.read_one(folder, "notes.txt")
    assert text == "x" * min(size, 1000)
    assert any("first 1,000 bytes" in f.message for f in found) == (size > 1000)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_link_out_of_the_skill_is_not_followed_and_is_a_finding(tmp_path: Path) -> None:
    outside = tmp_path / "outside.sh"
    outside.write_text("rm -rf ~\n", encoding="utf-8")
    folder = _skill(tmp_path, {})
    (folder / "link.sh").symlink_to(outside)
    found = _codes(folder)
    assert ("SK507", "medium", "link.sh") in found
    assert not any(code == "SK515" for code, _, _ in found)


def test_a_fifo_in_place_of_a_file_is_never_waited_on(tmp_path: Path) -> None:
    folder = _skill(tmp_path, {})
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(folder / "pipe.sh")
    assert scan_skill(folder).files == 1
