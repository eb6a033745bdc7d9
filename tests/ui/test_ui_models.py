"""The Qt models, checked by Qt's own model tester, and the pieces that feed them."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from PySide6.QtTest import QAbstractItemModelTester
from pytestqt.qtbot import QtBot

from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill
from studio.skills.library.collection import Library, Problem
from studio.skills.scan.listing import Entry
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.ui.editor.metadata_model import MetadataModel
from studio.ui.editor.preview import render_markdown, render_skill
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_rows import SUMMARY_ROLE
from studio.ui.problems.problems_model import ProblemsModel

Fatal = QAbstractItemModelTester.FailureReportingMode.Fatal


def test_library_model_follows_the_library(qtbot: QtBot, skills_root: Path) -> None:
    library = Library()
    model = LibraryModel(library)
    tester = QAbstractItemModelTester(model, Fatal)
    root = SkillRoot(skills_root)
    library.add_root(root)
    scan = scan_root(root)
    library.add_skills(skills_root, scan.skills[:2])
    library.add_skills(skills_root, scan.skills[2:])
    library.add_skills(skills_root, scan.skills[:1])
    assert model.skill_count == 3 and model.rowCount(model.index(0, 0)) == 3
    directory = scan.skills[0].directory
    updated = validate_skill(load_skill(directory)).summary(skills_root)
    library.update_skill(updated)
    assert model.skill_index(directory).data(SUMMARY_ROLE) is updated
    library.remove_skill(directory)
    assert model.skill_count == 2 and not model.skill_index(directory).isValid()
    library.clear_root(skills_root)
    assert model.skill_count == 0 and model.rowCount(model.index(0, 0)) == 0
    library.remove_root(skills_root)
    assert model.rowCount() == 0
    del tester


def test_a_model_made_late_shows_what_the_library_holds(qtbot: QtBot, skills_root: Path) -> None:
    library = Library()
    library.add_root(SkillRoot(skills_root))
    library.add_skills(skills_root, scan_root(SkillRoot(skills_root)).skills)
    model = LibraryModel(library)
    tester = QAbstractItemModelTester(model, Fatal)
    assert model.rowCount() == 1 and model.rowCount(model.index(0, 0)) == 3
    del tester


def test_expanding_a_skill_asks_for_its_files_and_reads_nothing(qtbot: QtBot,
                                                                 skills_root: Path) -> None:
    library = Library()
    model = LibraryModel(library)
    library.add_root(SkillRoot(skills_root))
    library.add_skills(skills_root, scan_root(SkillRoot(skills_root)).skills)
    skill = model.skill_index(skills_root / "pdf-tools")
    summary = skill.data(SUMMARY_ROLE)
    with qtbot.waitSignal(model.files_requested) as asked:
        model.fetchMore(skill)
    assert asked.args == [summary] and model.rowCount(skill) == 0
    model.set_files(summary, [Entry(PurePosixPath("SKILL.md")),
                              Entry(PurePosixPath("scripts/run.py"))])
    assert [model.index(r, 0, skill).data() for r in range(model.rowCount(skill))] == [
        "SKILL.md", "scripts/"]


def test_problems_model(qtbot: QtBot, skills_root: Path) -> None:
    model = ProblemsModel()
    tester = QAbstractItemModelTester(model, Fatal)
    result = validate_skill(load_skill(skills_root / "csv-profiler"))
    model.set_problems([Problem(skills_root, "csv-profiler", d) for d in result.diagnostics])
    assert model.rowCount() == len(result.diagnostics) > 0
    assert model.index(0, ProblemsModel.CODE).data() == result.diagnostics[0].code
    del tester


def test_metadata_model_reports_edits(qtbot: QtBot) -> None:
    model = MetadataModel()
    tester = QAbstractItemModelTester(model, Fatal)
    edits: list[list[tuple[str, str]]] = []
    model.items_edited.connect(edits.append)
    model.set_metadata({"version": 1.5, "flag": True})
    assert model.items() == [("version", "1.5"), ("flag", "true")]
    assert edits == []
    model.setData(model.index(0, 1), "2.0")
    assert edits[-1] == [("version", "2.0"), ("flag", "true")]
    model.add_row()
    assert edits[-1][-1] == ("key", "")
    model.remove_row(0)
    assert [key for key, _ in edits[-1]] == ["flag", "key"]
    del tester


def test_preview_renders_tables_and_highlighted_code() -> None:
    html = render_markdown("| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint('x')\n```\n")
    assert "<table>" in html and "<td>1</td>" in html
    assert "<pre><span style=" in html
    header = render_skill("pdf-tools", "Extract <tables>.", "# Body\n")
    assert "<th align='left'>name</th><td>pdf-tools</td>" in header
    assert "Extract &lt;tables&gt;." in header


def test_nested_skills_sit_under_their_folder(qtbot: QtBot, tmp_path: Path) -> None:
    from tests.ui.helpers import write_skill

    root = tmp_path / "lib"
    write_skill(root, "top-level")
    write_skill(root / "plugins" / "pdf", "pdf-tools")
    write_skill(root / "plugins" / "pdf", "pdf-forms")
    library = Library()
    model = LibraryModel(library)
    tester = QAbstractItemModelTester(model, Fatal)
    library.add_root(SkillRoot(root))
    library.add_skills(root, scan_root(SkillRoot(root)).skills)
    top = model.index(0, 0)
    labels = [model.index(row, 0, top).data() for row in range(model.rowCount(top))]
    # Under the first folder below the root, as a collection's repository folder.
    assert sorted(labels) == ["plugins (2)", "top-level"]
    assert top.data() == "lib (3)"
    folder = model.index(labels.index("plugins (2)"), 0, top)
    assert model.skill_index(root / "plugins" / "pdf" / "pdf-tools").parent() == folder
    library.remove_skill(root / "plugins" / "pdf" / "pdf-tools")
    library.remove_skill(root / "plugins" / "pdf" / "pdf-forms")
    assert [model.index(r, 0, top).data() for r in range(model.rowCount(top))] == ["top-level"]
    assert model.skill_count == 1
    del tester


def test_a_root_judged_for_another_target_changes_its_rows_in_place(
        qtbot: QtBot, tmp_path: Path) -> None:
    from tests.ui.helpers import write_skill

    root = tmp_path / "lib"
    for name in ("top-level", "plugins/pdf/pdf-tools", "plugins/pdf/pdf-forms"):
        directory = write_skill(root / Path(name).parent, Path(name).name)
        (directory / "SKILL.md").write_text((directory / "SKILL.md").read_text().replace(
            "---\n#", "context: fork\n---\n#"))
    library = Library()
    model = LibraryModel(library)
    tester = QAbstractItemModelTester(model, Fatal)
    library.add_root(SkillRoot(root))
    library.add_skills(root, scan_root(SkillRoot(root)).skills)
    forms = root / "plugins" / "pdf" / "pdf-forms"
    model.fetchMore(model.skill_index(forms))
    model.set_files(library.summary_for(forms), [Entry(PurePosixPath("SKILL.md"))])
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom: changed.append((top.row(), bottom.row())))

    assert library.set_target(root, "claude-code")
    assert model.index(0, 0).data() == "lib (3) · Claude Code"
    library.start_refresh(root)
    library.add_skills(root, scan_root(SkillRoot(root), target="claude-code").skills)
    library.finish_refresh(root)

    assert all(model.skill_index(s.directory).data(SUMMARY_ROLE) is s and s.valid
               for s in library.summaries())
    assert model.rowCount(model.skill_index(forms)) == 0, "its files are listed again on demand"
    folder = model.skill_index(forms).parent()
    assert (0, 1) in changed and model.rowCount(folder) == 2, "one change per folder of skills"
    del tester
