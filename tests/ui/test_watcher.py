"""Watching the folders of a large library without holding up the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.ui import watcher
from studio.ui.watcher import FileWatcher


def _folders(tmp_path: Path, count: int) -> list[Path]:
    made = [tmp_path / f"folder-{number}" for number in range(count)]
    for folder in made:
        folder.mkdir()
    return made


def test_folders_handed_over_in_chunks_are_all_watched(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watcher, "ADD_CHUNK", 3)
    folders = _folders(tmp_path, 10)
    files = FileWatcher()
    files.watch_folders(folders)
    assert all(files.watches_folder(folder) for folder in folders)

    # The last chunk is added on a later turn of the event loop; a change there is still seen.
    with qtbot.waitSignal(files.folder_changed, timeout=20_000,
                          check_params_cb=lambda path: path == folders[-1]):
        qtbot.waitUntil(lambda: str(folders[-1]) in files._watcher.directories())
        (folders[-1] / "new-skill").mkdir()


def test_a_folder_unwatched_before_its_turn_is_never_added(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watcher, "ADD_CHUNK", 3)
    folders = _folders(tmp_path, 10)
    files = FileWatcher()
    files.watch_folders(folders)
    files.unwatch_folders([folders[-1]])

    qtbot.waitUntil(lambda: str(folders[-2]) in files._watcher.directories())
    assert str(folders[-1]) not in files._watcher.directories()
    assert not files.watches_folder(folders[-1])


def test_a_folder_gone_before_its_turn_is_skipped_and_the_rest_still_watched(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watcher, "ADD_CHUNK", 3)
    folders = _folders(tmp_path, 10)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "link-out").symlink_to(outside, target_is_directory=True)
    files = FileWatcher()
    files.watch_folders([*folders, tmp_path / "link-out"])
    folders[5].rmdir()

    qtbot.waitUntil(lambda: str(folders[-1]) in files._watcher.directories())
    assert str(folders[5]) not in files._watcher.directories()
    with qtbot.waitSignal(files.folder_changed, timeout=20_000,
                          check_params_cb=lambda path: path == folders[8]):
        (folders[8] / "new-skill").mkdir()


def test_the_folders_a_scan_found_replace_those_below_its_root(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watcher, "ADD_CHUNK", 3)
    root = tmp_path / "root"
    root.mkdir()
    old, kept, new = _folders(root, 3)
    elsewhere = _folders(tmp_path, 1)[0]
    files = FileWatcher()
    files.watch_folders([root, old, kept, elsewhere])
    # As the scan names them: strings, thousands of them for a public collection.
    files.watch_folders_below(root, [str(kept), str(new)])

    assert sorted(files.folders_below(root)) == [root, kept, new]
    assert not files.watches_folder(old) and files.watches_folder(elsewhere)
    qtbot.waitUntil(lambda: str(new) in files._watcher.directories())
    assert str(old) not in files._watcher.directories()


def test_a_stopped_watcher_reports_nothing_it_saw_before(qtbot: QtBot, tmp_path: Path) -> None:
    # A window closing with a change still settling used to report it afterwards, and the
    # closed window's handlers then asked a question with no event loop running.
    watcher = FileWatcher()
    path = tmp_path / "SKILL.md"
    path.write_text("a", encoding="utf-8")
    watcher.watch_file(path)
    watcher.watch_folder(tmp_path)
    seen: list[Path] = []
    watcher.file_changed.connect(seen.append)
    watcher.folder_changed.connect(seen.append)
    watcher._on_watcher_file_changed(str(path))
    watcher._on_watcher_directory_changed(str(tmp_path))
    watcher.stop()
    assert not watcher._timer.isActive()
    watcher._on_timer_timeout()
    assert seen == []
    assert watcher._watcher.files() == [] and watcher._watcher.directories() == []
