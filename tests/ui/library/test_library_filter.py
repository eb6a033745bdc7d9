"""The library filter's status choice: only skills with errors, only those with warnings, only
those a model drafted; and the text filter matching who drafted a skill."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from tests.ui.helpers import WindowFactory, write_skill


def _shown(panel: object) -> list[str]:
    proxy = panel.proxy  # type: ignore[attr-defined]
    root = proxy.index(0, 0, QModelIndex())
    return sorted(proxy.index(row, 0, root).data() for row in range(proxy.rowCount(root)))


def test_errors_only_and_warnings_only(qtbot: QtBot, make_window: WindowFactory,
                                       tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "fine-skill")
    write_skill(root, "vague-skill", description="Does things.")
    broken = write_skill(root, "broken-skill")
    (broken / "SKILL.md").write_text("---\nname: Broken Skill\ndescription: x. Use when y.\n---\n")
    unloadable = root / "no-frontmatter"
    unloadable.mkdir()
    (unloadable / "SKILL.md").write_text("just text\n")
    window = make_window(root)
    panel = window.library_panel
    statuses = {s.directory.name: s.status for s in window.library.summaries()}
    assert statuses["vague-skill"] == "warnings" and statuses["fine-skill"] == "valid"

    panel.status_filter.setCurrentIndex(panel.status_filter.findText("Errors only"))
    assert panel.tree.model() is panel.proxy
    assert _shown(panel) == ["Broken Skill", "no-frontmatter"]
    assert panel.count_label.text() == "2 of 4 skills match"

    panel.status_filter.setCurrentIndex(panel.status_filter.findText("Warnings only"))
    assert _shown(panel) == ["vague-skill"]
    panel.filter_edit.setText("nothing-like-this")
    panel.apply_filter()
    assert panel.proxy.rowCount(QModelIndex()) == 0

    panel.filter_edit.setText("")
    panel.status_filter.setCurrentIndex(0)
    assert panel.tree.model() is panel.model


def test_drafted_by_a_model_and_by_its_name(qtbot: QtBot, make_window: WindowFactory,
                                           tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "handmade")
    drafted = write_skill(root, "drafted")
    text = (drafted / "SKILL.md").read_text()
    (drafted / "SKILL.md").write_text(text.replace(
        "---\n#", "metadata:\n  created-by: qwen2.5\n  created-at: '2026-11-23T09:30:00+00:00'\n---\n#"))
    mine = write_skill(root, "mine")
    text = (mine / "SKILL.md").read_text()
    (mine / "SKILL.md").write_text(text.replace("---\n#", "metadata:\n  created-by: user\n---\n#"))
    window = make_window(root)
    panel = window.library_panel

    panel.status_filter.setCurrentIndex(panel.status_filter.findText("Drafted by a model"))
    assert _shown(panel) == ["drafted"]
    index = window.library_model.skill_index(drafted)
    assert "Drafted by qwen2.5 on 2026-11-23" in index.data(Qt.ItemDataRole.ToolTipRole)

    panel.status_filter.setCurrentIndex(0)
    panel.filter_edit.setText("qwen2.5")
    panel.apply_filter()
    assert _shown(panel) == ["drafted"]


def _skills_in_tree(panel: object) -> int:
    """The skills the tree's model holds under every root and folder."""
    from studio.ui.library.library_rows import KIND_ROLE

    model = panel.tree.model()  # type: ignore[attr-defined]
    count, pending = 0, [QModelIndex()]
    while pending:
        parent = pending.pop()
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data(KIND_ROLE) == "skill":
                count += 1
            else:
                pending.append(index)
    return count


def test_clearing_the_filter_shows_every_skill_again_and_keeps_the_selection(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    for owner in range(6):
        for number in range(5):
            kind = "pdf" if number % 2 else "csv"
            write_skill(root / f"owner{owner}--repo" / "skills", f"{kind}-tool-{owner}-{number}")
    window = make_window(root)
    panel = window.library_panel
    assert _skills_in_tree(panel) == 30

    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    assert panel.proxy.match_count == 12 and _skills_in_tree(panel) == 12
    chosen = root / "owner3--repo" / "skills" / "pdf-tool-3-1"
    panel.select_skill(chosen)
    inserted: list[int] = []
    panel.proxy.rowsInserted.connect(lambda _parent, first, last: inserted.append(last - first + 1))

    panel.filter_edit.setText("")
    panel.apply_filter()

    # The tree shows the model itself again; the proxy did not insert the rows the filter hid
    # one parent at a time (what froze the window for seconds on thousands of skills).
    assert panel.tree.model() is panel.model
    assert inserted == []
    assert _skills_in_tree(panel) == 30
    assert panel.count_label.text() == "30 skills in 1 root"
    selected = panel.selected_summary()
    assert selected is not None and selected.directory == chosen
    assert panel.tree.isExpanded(window.library_model.index_of(window.library_model.roots()[0]))

    panel.filter_edit.setText("csv")
    panel.apply_filter()
    assert panel.tree.model() is panel.proxy and _skills_in_tree(panel) == 18


def test_a_filter_judged_over_many_turns_shows_exactly_its_matches_and_keeps_the_selection(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.ui.library import filter_judge, library_filter, match_opener

    # A slice of no time judges STRIDE skills and opens one folder: every step takes turns.
    monkeypatch.setattr(library_filter, "SLICE_S", 0.0)
    monkeypatch.setattr(match_opener, "SLICE_S", 0.0)
    monkeypatch.setattr(filter_judge, "STRIDE", 2)
    root = tmp_path / "skills"
    for owner in range(4):
        for number in range(6):
            kind = ("pdf", "csv", "pdf-csv")[number % 3]
            write_skill(root / f"owner{owner}--repo" / "skills", f"{kind}-tool-{owner}-{number}")
    window = make_window(root)
    panel = window.library_panel
    chosen = root / "owner2--repo" / "skills" / "pdf-csv-tool-2-2"
    panel.select_skill(chosen)

    panel.filter_edit.setText("csv")
    panel.apply_filter()
    # Still judging: the tree shows what it showed, whole.
    assert panel.proxy.judging and panel.tree.model() is panel.model
    qtbot.waitUntil(lambda: not panel.proxy.judging and not panel.opener.opening, timeout=5000)
    expected = {f"{kind}-tool-{owner}-{number}" for owner in range(4) for number in range(6)
                for kind in [("pdf", "csv", "pdf-csv")[number % 3]] if "csv" in kind}
    assert panel.tree.model() is panel.proxy
    assert _shown_in_open_rows(panel) == expected
    assert panel.count_label.text() == f"{len(expected)} of 24 skills match"
    selected = panel.selected_summary()
    assert selected is not None and selected.directory == chosen

    # Typed on: one more word, judged again while the first filter shows.
    panel.filter_edit.setText("csv pdf")
    panel.apply_filter()
    assert panel.proxy.judging and _shown_in_open_rows(panel) == expected
    qtbot.waitUntil(lambda: not panel.proxy.judging and not panel.opener.opening, timeout=5000)
    assert _shown_in_open_rows(panel) == {name for name in expected if "pdf" in name}
    selected = panel.selected_summary()
    assert selected is not None and selected.directory == chosen

    # A filter typed over one still being judged replaces it.
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    panel.filter_edit.setText("tool-3-")
    panel.apply_filter()
    qtbot.waitUntil(lambda: not panel.proxy.judging and not panel.opener.opening, timeout=5000)
    assert _shown_in_open_rows(panel) == {f"{kind}-tool-3-{number}" for number in range(6)
                                          for kind in [("pdf", "csv", "pdf-csv")[number % 3]]}


def _shown_in_open_rows(panel: object) -> set[str]:
    """The skills the tree shows: rows of its model whose every ancestor is open."""
    from studio.ui.library.library_rows import KIND_ROLE

    tree = panel.tree  # type: ignore[attr-defined]
    model = tree.model()
    names: set[str] = set()
    pending = [QModelIndex()]
    while pending:
        parent = pending.pop()
        if parent.isValid() and not tree.isExpanded(parent):
            continue
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data(KIND_ROLE) == "skill":
                names.add(str(index.data()))
            else:
                pending.append(index)
    return names


def test_a_new_filter_settles_without_filtering_again_the_rows_the_proxy_had_mapped(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "skills"
    for owner in range(5):
        for number in range(4):
            kind = "pdf" if number % 2 else "csv"
            write_skill(root / f"owner{owner}--repo" / "skills", f"{kind}-tool-{owner}-{number}",
                        files={"scripts/run.py": "print(1)\n"})
    window = make_window(root)
    panel = window.library_panel
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    qtbot.waitUntil(lambda: not panel.proxy.judging and not panel.opener.opening, timeout=5000)
    # Every folder's rows mapped, as after a user opened them all.
    assert _skills_in_tree(panel) == 10

    # Counted through what the proxy's filterAcceptsRow asks of every skill row (Qt calls the
    # method it found when the proxy was made, not one patched in after).
    asked: list[str] = []
    settling = [False]
    real = panel.proxy._verdict

    def counted(node: object) -> bool:
        if settling[0]:
            asked.append("row")
        return real(node)  # type: ignore[arg-type]

    monkeypatch.setattr(panel.proxy, "_verdict", counted)
    panel.proxy.filter_settling.connect(lambda: settling.__setitem__(0, True))
    panel.proxy.filter_settled.connect(lambda: settling.__setitem__(0, False))
    panel.proxy.set_filter("csv", "")

    # Settling dropped the proxy's rows instead of judging each mapped row again in one turn
    # (243 ms on 10,000 skills); the view maps what it shows after.
    assert asked == []
    qtbot.waitUntil(lambda: not panel.proxy.judging and not panel.opener.opening, timeout=5000)
    assert panel.tree.model() is panel.proxy
    assert _shown_in_open_rows(panel) == {f"csv-tool-{owner}-{number}" for owner in range(5)
                                          for number in (0, 2)}


def test_a_skill_row_under_a_filter_has_children_without_its_files_being_judged(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.ui.library.library_nodes import FileNode, SkillNode
    from studio.ui.library.library_rows import KIND_ROLE

    root = tmp_path / "skills"
    write_skill(root / "owner--repo" / "skills", "pdf-tool",
                files={"scripts/run.py": "x\n", "references/notes.md": "y\n"})
    write_skill(root / "owner--repo" / "skills", "pdf-notes")
    window = make_window(root)
    model = window.library_model
    tool = model.skill_index(root / "owner--repo" / "skills" / "pdf-tool")
    # Its files listed in the model, as after the user opened it once.
    model.fetchMore(tool)
    qtbot.waitUntil(lambda: model.rowCount(tool) == 3, timeout=5000)
    panel = window.library_panel
    proxy = panel.proxy
    files_judged: list[object] = []
    real = proxy._verdict

    def judged(node: SkillNode) -> bool:
        # Asked from the proxy's filterAcceptsRow about a file's row.
        if isinstance(sys._getframe(1).f_locals.get("node"), FileNode):
            files_judged.append(node)
        return real(node)

    monkeypatch.setattr(proxy, "_verdict", judged)
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    qtbot.waitUntil(lambda: not proxy.judging and not panel.opener.opening, timeout=5000)
    panel.tree.executeDelayedItemsLayout()
    skills = []
    pending = [QModelIndex()]
    while pending:
        parent = pending.pop()
        for row in range(proxy.rowCount(parent)):
            index = proxy.index(row, 0, parent)
            if index.data(KIND_ROLE) == "skill":
                skills.append(index)
            elif index.data(KIND_ROLE) != "file":
                pending.append(index)
    assert len(skills) == 2
    for index in skills:
        # The model's answer: a skill shown shows all its files.
        assert proxy.hasChildren(index) == model.hasChildren(proxy.mapToSource(index))
    # The tree laid out the skills' rows, asking whether each has children, and no file was
    # judged: Qt's own answer maps a skill's files to judge them, for every skill row.
    assert files_judged == []


def test_the_folders_of_a_root_open_a_slice_at_a_time_without_an_index_kept_for_each(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QPersistentModelIndex

    from studio.ui.library import match_opener

    monkeypatch.setattr(match_opener, "SLICE_S", 0.0)
    kept: list[object] = []

    def persistent(index: QModelIndex) -> QPersistentModelIndex:
        kept.append(index)
        return QPersistentModelIndex(index)

    monkeypatch.setattr(match_opener, "QPersistentModelIndex", persistent)
    root = tmp_path / "skills"
    for owner in range(30):
        write_skill(root / f"owner{owner:02d}--repo" / "skills", f"pdf-tool-{owner}")
        write_skill(root / f"owner{owner:02d}--repo" / "skills", f"csv-tool-{owner}")
    window = make_window(root)
    panel = window.library_panel
    panel.filter_edit.setText("pdf")
    panel.apply_filter()
    opened: list[int] = []
    panel.tree.expanded.connect(lambda _index: opened.append(1))
    qtbot.waitUntil(lambda: not panel.proxy.judging and not panel.opener.opening, timeout=5000)
    # Every folder opened, one a turn with a slice of no time, and the root's rows were walked
    # by number: one index kept for the root, not one for each of its 30 folders made at once
    # (a root of 11,745 folders stalled the window 281 ms doing that).
    assert _shown_in_open_rows(panel) == {f"pdf-tool-{owner}" for owner in range(30)}
    assert len(opened) >= 30
    assert len(kept) == 1
