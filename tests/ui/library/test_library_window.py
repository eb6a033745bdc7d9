"""The library: scanning into the tree model, filtering, zip roots, and skill operations."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QDialog, QMessageBox
from pytestqt.qtbot import QtBot

from studio.ui.library import roots, skill_ops
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_rows import KIND_ROLE
from studio.ui.library.skill_name import NewSkillDialog, RenameSkillDialog
from tests.ui.helpers import WindowFactory, click, open_dialog, start, write_skill

Button = QMessageBox.StandardButton


def _names(model: LibraryModel, root_row: int = 0) -> list[str]:
    root = model.index(root_row, 0)
    return [model.index(row, 0, root).data() for row in range(model.rowCount(root))]


def test_the_scan_fills_the_model(qtbot: QtBot, make_window: WindowFactory, skills_root: Path,
                                  zip_root: Path) -> None:
    window = make_window(wait=False)
    model = window.library_model
    tester = QAbstractItemModelTester(
        model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    proxy_tester = QAbstractItemModelTester(
        window.library_panel.proxy, QAbstractItemModelTester.FailureReportingMode.Fatal)
    window.roots.add_root(skills_root)
    window.roots.add_root(zip_root)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)

    assert model.skill_count == 4
    assert model.index(0, 0).data() == "skills (3)"
    assert model.index(1, 0).data() == "bundle.zip (1, read-only)"
    assert sorted(_names(model)) == ["csv-profiler", "pdf-tools", "web-search"]
    assert window.library_panel.count_label.text() == "4 skills in 2 roots"
    assert window.settings.roots == [str(skills_root), str(zip_root)]
    assert window.scan_label.text() == "4 skills"

    pdf = model.skill_index(skills_root / "pdf-tools")
    assert model.data(pdf, KIND_ROLE) == "skill"
    model.fetchMore(pdf)
    qtbot.waitUntil(lambda: model.rowCount(pdf) > 0)
    files = [model.index(row, 0, pdf).data() for row in range(model.rowCount(pdf))]
    assert files == ["SKILL.md", "scripts/", "references/"]
    scripts = model.index(1, 0, pdf)
    assert model.index(0, 0, scripts).data() == "extract.py"
    zipped = model.index(0, 0, model.index(1, 0))
    model.fetchMore(zipped)
    qtbot.waitUntil(lambda: model.rowCount(zipped) > 0)
    assert [model.index(r, 0, zipped).data() for r in range(model.rowCount(zipped))] == [
        "SKILL.md", "references/"]
    del tester, proxy_tester


def test_status_icons_and_tooltips_show_the_first_problem(qtbot: QtBot,
                                                          make_window: WindowFactory,
                                                          skills_root: Path) -> None:
    (skills_root / "Broken").mkdir()
    (skills_root / "Broken" / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    window = make_window(skills_root)
    model = window.library_model
    broken = model.skill_index(skills_root / "Broken")
    assert window.library.summary_for(skills_root / "Broken").status == "not-loadable"
    assert "SK010" in model.data(broken, 3)
    csv = model.skill_index(skills_root / "csv-profiler")
    assert window.library.summary_for(skills_root / "csv-profiler").status == "warnings"
    assert "SK209" in model.data(csv, 3)
    assert not model.data(csv, 1).isNull()


def test_the_filter_narrows_by_name_and_description(qtbot: QtBot, make_window: WindowFactory,
                                                    skills_root: Path) -> None:
    window = make_window(skills_root)
    panel = window.library_panel
    proxy = panel.proxy
    panel.filter_edit.setText("CSV columns")
    panel.apply_filter()
    root = proxy.index(0, 0)
    assert [proxy.index(r, 0, root).data() for r in range(proxy.rowCount(root))] == [
        "csv-profiler"]
    assert panel.count_label.text() == "1 of 3 skills match"

    panel.filter_edit.setText("web")
    panel.apply_filter()
    assert [proxy.index(r, 0, proxy.index(0, 0)).data()
            for r in range(proxy.rowCount(proxy.index(0, 0)))] == ["web-search"]
    panel.filter_edit.setText("nothing-like-this")
    panel.apply_filter()
    assert proxy.rowCount(QModelIndex()) == 0
    panel.filter_edit.clear()
    panel.apply_filter()
    assert proxy.rowCount(proxy.index(0, 0)) == 3


def test_ctrl_f_focuses_the_filter(qtbot: QtBot, make_window: WindowFactory,
                                   skills_root: Path) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    window.filter_action.trigger()
    assert window.library_panel.filter_edit.hasFocus()


def test_zip_skills_open_read_only(qtbot: QtBot, make_window: WindowFactory,
                                   zip_root: Path) -> None:
    window = make_window(zip_root)
    summary = window.library.summaries()[0]
    assert summary.read_only
    tab = window.editors.open_summary(summary)
    assert tab is not None
    assert tab.raw_editor.isReadOnly() and tab.body_editor.isReadOnly()
    assert tab.form.name_edit.isReadOnly()
    assert tab.banner.isVisible() or not tab.banner.isHidden()
    assert not window.editors.save(tab)
    assert "read-only" in window.statusBar().currentMessage()
    file_tab = window.editors.open_file(zip_root / "zipped-skill" / "references" / "notes.md")
    assert file_tab is not None and file_tab.read_only
    assert file_tab.text() == "# Notes\n"
    with zipfile.ZipFile(zip_root) as bundle:
        assert bundle.read("zipped-skill/SKILL.md").startswith(b"---\nname: zipped-skill")


def test_new_skill_dialog_creates_a_valid_skill(qtbot: QtBot, make_window: WindowFactory,
                                                skills_root: Path) -> None:
    window = make_window(skills_root)
    task = start(window.skill_ops.new_skill())
    dialog = open_dialog(qtbot, NewSkillDialog)
    ok = dialog.buttons.buttons()[0]
    qtbot.keyClicks(dialog.name_edit, "Invoice Parser")
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    assert dialog.message.text() == ("Uppercase letters; characters other than letters, digits "
                                     "and hyphens (' '): use `invoice-parser`.")
    dialog.name_edit.setText("web-search")
    assert "already exists" in dialog.message.text()
    dialog.name_edit.setText("invoice-parser")
    assert dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    del ok
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(task.done)

    tab = task.result()
    assert tab is not None
    created = skills_root / "invoice-parser" / "SKILL.md"
    assert created.is_file()
    assert tab.path == created
    assert [d for d in tab.diagnostics if d.severity == "error"] == []
    assert window.library.summary_for(created.parent) is not None
    assert window.library.summary_for(created.parent).valid


def test_rename_changes_the_folder_and_the_name(qtbot: QtBot, make_window: WindowFactory,
                                                skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    task = start(window.skill_ops.rename_skill(skills_root / "web-search"))
    dialog = open_dialog(qtbot, RenameSkillDialog)
    dialog.name_edit.setText("pdf-tools")
    assert "already exists" in dialog.message.text()
    dialog.name_edit.setText("web-lookup")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(task.done)

    assert task.result() is True
    assert not (skills_root / "web-search").exists()
    new_file = skills_root / "web-lookup" / "SKILL.md"
    assert "name: web-lookup\n" in new_file.read_text(encoding="utf-8")
    assert tab.path == new_file and not tab.dirty
    assert [d.code for d in tab.diagnostics if d.severity == "error"] == []
    assert window.library.summary_for(skills_root / "web-lookup") is not None
    assert window.library.summary_for(skills_root / "web-search") is None


def test_rename_without_an_open_tab(qtbot: QtBot, make_window: WindowFactory,
                                    skills_root: Path) -> None:
    window = make_window(skills_root)
    assert window.skill_ops.rename_to(skills_root / "csv-profiler", "csv-stats")
    assert "name: csv-stats\n" in (skills_root / "csv-stats" / "SKILL.md").read_text()
    assert window.library.summary_for(skills_root / "csv-stats").name == "csv-stats"


def test_the_folder_fix_renames_after_asking(qtbot: QtBot, make_window: WindowFactory,
                                             tmp_path: Path) -> None:
    root = tmp_path / "roots"
    directory = write_skill(root, "old-folder")
    text = (directory / "SKILL.md").read_text().replace("name: old-folder", "name: new-name")
    (directory / "SKILL.md").write_text(text)
    (root / "Bad Folder").mkdir()
    (root / "Bad Folder" / "SKILL.md").write_text(text)
    window = make_window(root)
    tab = window.editors.open_skill(root / "Bad Folder")
    assert tab is not None
    problem = next(p for p in window.problems_panel.model.problems()
                   if p.diagnostic.code == "SK108")
    assert problem.diagnostic.fix is not None
    assert problem.diagnostic.fix.rename_directory_to == "new-name"
    task = start(window.skill_ops.apply_fix(problem))
    click(open_dialog(qtbot, QMessageBox), Button.Yes)
    qtbot.waitUntil(task.done)
    assert task.result() is True
    assert (root / "new-name" / "SKILL.md").is_file()
    assert tab.directory == root / "new-name"


def test_delete_asks_then_moves_to_the_trash(qtbot: QtBot, make_window: WindowFactory,
                                             skills_root: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    trashed: list[Path] = []
    monkeypatch.setattr(skill_ops, "trash", trashed.append)
    window = make_window(skills_root)
    window.editors.open_skill(skills_root / "web-search")

    task = start(window.skill_ops.delete_skill(skills_root / "web-search"))
    click(open_dialog(qtbot, QMessageBox), Button.Cancel)
    qtbot.waitUntil(task.done)
    assert task.result() is False and trashed == []

    task = start(window.skill_ops.delete_skill(skills_root / "web-search"))
    box = open_dialog(qtbot, QMessageBox)
    assert "moved to the trash" in box.informativeText()
    click(box, Button.Yes)
    qtbot.waitUntil(task.done)
    assert trashed == [skills_root / "web-search"]
    assert window.tabs.count() == 0
    assert window.library.summary_for(skills_root / "web-search") is None


def test_deleting_a_linked_skill_names_the_links_that_lead_to_it(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(skill_ops, "trash", lambda path: None)
    claude = tmp_path / "project" / ".claude" / "skills"
    claude.mkdir(parents=True)
    (claude / "web-search").symlink_to(skills_root / "web-search")
    window = make_window(skills_root)
    window.roots.add_root(claude)
    task = start(window.skill_ops.delete_skill(skills_root / "web-search"))
    box = open_dialog(qtbot, QMessageBox)
    assert "1 link to it will lead nowhere" in box.informativeText()
    assert str(claude / "web-search") in box.informativeText()
    click(box, Button.Cancel)
    qtbot.waitUntil(task.done)
    assert task.result() is False


def test_renaming_a_linked_skill_names_the_links_first_and_cancel_keeps_it(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path
) -> None:
    codex = tmp_path / "project" / ".codex" / "skills"
    codex.mkdir(parents=True)
    (codex / "web-search").symlink_to(skills_root / "web-search")
    window = make_window(skills_root, codex)
    task = start(window.skill_ops.rename_skill(skills_root / "web-search"))
    dialog = open_dialog(qtbot, RenameSkillDialog)
    dialog.name_edit.setText("web-lookup")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    box = open_dialog(qtbot, QMessageBox)
    assert str(codex / "web-search") in box.informativeText()
    click(box, Button.Cancel)
    qtbot.waitUntil(task.done)
    assert task.result() is False and (skills_root / "web-search" / "SKILL.md").is_file()


def test_the_real_trash_is_used(qtbot: QtBot, make_window: WindowFactory,
                                skills_root: Path, scratch_home: Path) -> None:
    window = make_window(skills_root)
    task = start(window.skill_ops.delete_skill(skills_root / "csv-profiler"))
    click(open_dialog(qtbot, QMessageBox), Button.Yes)
    qtbot.waitUntil(task.done)
    assert task.result() is True
    assert not (skills_root / "csv-profiler").exists()
    trash = scratch_home / ".local" / "share" / "Trash" / "files"
    assert [p.name for p in trash.iterdir()] == ["csv-profiler"]


def test_a_new_folder_in_a_root_appears(qtbot: QtBot, make_window: WindowFactory,
                                        skills_root: Path) -> None:
    window = make_window(skills_root)
    write_skill(skills_root, "late-arrival")
    qtbot.waitUntil(lambda: window.library.summary_for(skills_root / "late-arrival")
                    is not None, timeout=5000)
    assert window.library_model.index(0, 0).data() == "skills (4)"


def test_skills_come_and_go_live_in_folders_below_a_root(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path
) -> None:
    group = skills_root / "team" / "docs"
    write_skill(group, "style-guide")
    window = make_window(skills_root)
    qtbot.waitUntil(lambda: window.watcher.watches_folder(group), timeout=5000)

    def shown(directory: Path) -> bool:
        return window.library.summary_for(directory) is not None

    write_skill(group, "glossary")
    qtbot.waitUntil(lambda: shown(group / "glossary"), timeout=5000)

    # An empty folder first, then a skill in it: the new folder is watched as soon as it appears.
    (skills_root / "later").mkdir()
    qtbot.waitUntil(lambda: window.watcher.watches_folder(skills_root / "later"), timeout=5000)
    write_skill(skills_root / "later", "late-skill")
    qtbot.waitUntil(lambda: shown(skills_root / "later" / "late-skill"), timeout=5000)

    # A pack of skills moved in at once.
    pack = tmp_path / "pack"
    write_skill(pack / "a", "one")
    write_skill(pack / "b", "two")
    pack.rename(skills_root / "pack")
    qtbot.waitUntil(lambda: shown(skills_root / "pack" / "a" / "one")
                    and shown(skills_root / "pack" / "b" / "two"), timeout=5000)
    qtbot.waitUntil(lambda: window.watcher.watches_folder(skills_root / "pack" / "b"), timeout=5000)

    # A folder of skills deleted: its skills leave the library.
    for directory in (group / "style-guide", group / "glossary"):
        (directory / "SKILL.md").unlink()
        directory.rmdir()
    group.rmdir()
    qtbot.waitUntil(lambda: not shown(group / "style-guide") and not shown(group / "glossary"),
                    timeout=5000)
    assert shown(skills_root / "pack" / "a" / "one") and shown(skills_root / "web-search")


def test_a_large_pack_moved_in_is_left_to_a_rescan(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(roots, "LIVE_SKILLS", 2)
    window = make_window(skills_root)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=5000)
    pack = tmp_path / "pack"
    for name in ("one", "two", "three"):
        write_skill(pack, name)
    pack.rename(skills_root / "pack")
    qtbot.waitUntil(lambda: window.library.summary_for(skills_root / "pack" / "three")
                    is not None, timeout=5000)
    # The rescan's last skills may reach the library a frame before the end of the root's scan.
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=5000)
    assert window.library_model.index(0, 0).data() == "skills (6)"


def test_remove_root_keeps_the_files(qtbot: QtBot, make_window: WindowFactory,
                                     skills_root: Path) -> None:
    window = make_window()
    window.roots.add_root(skills_root)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
    window.roots.remove_root(skills_root)
    assert window.library_model.rowCount() == 0
    assert window.settings.roots == []
    assert (skills_root / "web-search" / "SKILL.md").exists()


def test_the_dialog_helper_returns_the_result(qtbot: QtBot, qloop: object) -> None:
    from studio.ui.asyncqt import ask

    dialog = QDialog()
    qtbot.addWidget(dialog)
    task = start(ask(dialog))
    qtbot.waitUntil(dialog.isVisible)
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert task.result() == QDialog.DialogCode.Accepted


def test_without_a_trash_delete_asks_again_before_deleting_for_good(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_trash(path: Path) -> None:
        raise OSError("no trash can on this volume")

    monkeypatch.setattr(skill_ops, "trash", no_trash)
    window = make_window(skills_root)
    target = skills_root / "web-search"

    task = start(window.skill_ops.delete_skill(target))
    click(open_dialog(qtbot, QMessageBox), Button.Yes)
    second = open_dialog(qtbot, QMessageBox)
    assert "no trash can on this volume" in second.text()
    assert "permanently" in second.informativeText()
    click(second, Button.Cancel)
    qtbot.waitUntil(task.done)
    assert task.result() is False and (target / "SKILL.md").is_file()

    task = start(window.skill_ops.delete_skill(target))
    click(open_dialog(qtbot, QMessageBox), Button.Yes)
    click(open_dialog(qtbot, QMessageBox), Button.Yes)
    qtbot.waitUntil(task.done)
    assert task.result() is True and not target.exists()
    assert window.library.summary_for(target) is None


def test_a_renamed_skill_takes_its_new_place_in_the_tree(qtbot: QtBot, make_window: WindowFactory,
                                                         skills_root: Path) -> None:
    window = make_window(skills_root)
    model = window.library_model
    root = model.index(0, 0)

    def names() -> list[str]:
        return [model.index(row, 0, root).data() for row in range(model.rowCount(root))]

    assert names() == ["csv-profiler", "pdf-tools", "web-search"]
    assert window.skill_ops.rename_to(skills_root / "csv-profiler", "table-stats")
    assert names() == ["pdf-tools", "table-stats", "web-search"]
    assert window.skill_ops.rename_to(skills_root / "web-search", "ask-the-web")
    assert names() == ["ask-the-web", "pdf-tools", "table-stats"]
    assert model.skill_index(skills_root / "pdf-tools").row() == 1


def test_in_a_collection_a_renamed_skill_sorts_within_its_repository_folder_filtered(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "collection"
    for owner in ("acme--tools", "zed--kit"):
        for name in ("csv-profiler", "pdf-tools", "web-search"):
            write_skill(root / owner / "skills", name)
    window = make_window(root)
    panel = window.library_panel
    # Long names lose their middle, not the end that tells forks apart.
    assert panel.tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    panel.filter_edit.setText("s")
    panel.apply_filter()
    proxy = panel.proxy

    def names(repository: int) -> list[str]:
        # Looked up afresh each time: a move re-lays the proxy's rows out.
        folder = proxy.index(repository, 0, proxy.index(0, 0))
        return [proxy.index(row, 0, folder).data() for row in range(proxy.rowCount(folder))]

    assert proxy.index(1, 0, proxy.index(0, 0)).data() == "zed--kit (3 of 3)"
    assert names(1) == ["csv-profiler", "pdf-tools", "web-search"]
    assert window.skill_ops.rename_to(root / "zed--kit" / "skills" / "csv-profiler", "table-stats")
    qtbot.waitUntil(lambda: names(1) == ["pdf-tools", "table-stats", "web-search"], timeout=2000)
    # The fork of the same name in the other repository stays where it was.
    assert names(0) == ["csv-profiler", "pdf-tools", "web-search"]
