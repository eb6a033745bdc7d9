"""`studio agents-md PROJECT`: the project's skills listed in its AGENTS.md with locations relative
to the project, the file made when absent and kept byte for byte around the block otherwise,
nothing written when nothing changed, and `--check` failing CI while the block is stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studio.skills.search.agentsmd import END, START


def _studio(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False)


def _skill(folder: Path, name: str) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does {name}. Use "
                                            "when asked to.\n---\nSteps.\n")


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    _skill(project / ".agents" / "skills", "tide-tables")
    _skill(project / ".claude" / "skills", "invoice-total")
    return project


def test_the_file_is_made_listing_every_client_folders_skills(tmp_path: Path) -> None:
    project = _project(tmp_path)
    done = _studio("agents-md", "project", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {Path('project/AGENTS.md')} (2 skills)"
    text = (project / "AGENTS.md").read_text()
    assert text.startswith(START + "\n") and text.endswith(END + "\n")
    assert "<location>.agents/skills/tide-tables/SKILL.md</location>" in text
    assert "<location>.claude/skills/invoice-total/SKILL.md</location>" in text
    assert str(tmp_path) not in text, "a checked-in file names no machine's folders"


def test_a_second_run_writes_nothing_and_check_passes(tmp_path: Path) -> None:
    project = _project(tmp_path)
    agents = project / "AGENTS.md"
    agents.write_bytes(b"\xef\xbb\xbf# Rules\r\n\r\nBe brief.")
    assert _studio("agents-md", project, cwd=tmp_path).returncode == 0
    written = agents.read_bytes()
    assert written.startswith(b"\xef\xbb\xbf# Rules\r\n\r\nBe brief.\r\n\r\n")
    os.utime(agents, (1_000_000, 1_000_000))
    again = _studio("agents-md", project, cwd=tmp_path)
    assert again.returncode == 0 and "up to date (2 skills)" in again.stdout
    assert agents.read_bytes() == written and agents.stat().st_mtime == 1_000_000
    assert _studio("agents-md", "--check", project, cwd=tmp_path).returncode == 0


def test_check_exits_1_when_a_skill_was_added_and_changes_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    assert _studio("agents-md", project, cwd=tmp_path).returncode == 0
    before = (project / "AGENTS.md").read_bytes()
    _skill(project / ".agents" / "skills", "harbour-map")
    checked = _studio("agents-md", "--check", project, cwd=tmp_path)
    assert checked.returncode == 1
    assert "out of date" in checked.stderr and "run `studio agents-md" in checked.stderr
    assert (project / "AGENTS.md").read_bytes() == before


def test_check_exits_1_when_there_is_no_block(tmp_path: Path) -> None:
    project = _project(tmp_path)
    checked = _studio("agents-md", "--check", project, cwd=tmp_path)
    assert checked.returncode == 1 and "missing or out of date" in checked.stderr
    assert not (project / "AGENTS.md").exists()


def test_duplicated_markers_are_refused_naming_the_line(tmp_path: Path) -> None:
    project = _project(tmp_path)
    original = f"# Rules\n{START}\n{END}\n\n{START}\n".encode()
    (project / "AGENTS.md").write_bytes(original)
    done = _studio("agents-md", project, cwd=tmp_path)
    assert done.returncode == 2
    assert "AGENTS.md: line 5: a second <!-- studio:skills --> (the first is on line 2)" in done.stderr
    assert (project / "AGENTS.md").read_bytes() == original


def test_skills_named_with_the_option_replace_the_client_folders(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _skill(project / "skills", "harbour-map")
    done = _studio("agents-md", project, "--skills", project / "skills", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = (project / "AGENTS.md").read_text()
    assert "<location>skills/harbour-map/SKILL.md</location>" in text
    assert "tide-tables" not in text


def test_a_linked_agents_file_is_left_alone(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (tmp_path / "elsewhere.md").write_text("theirs\n")
    (project / "AGENTS.md").symlink_to(tmp_path / "elsewhere.md")
    done = _studio("agents-md", project, cwd=tmp_path)
    assert done.returncode == 2 and "link" in done.stderr
    assert (tmp_path / "elsewhere.md").read_text() == "theirs\n"


def test_a_project_that_is_not_a_folder_exits_2(tmp_path: Path) -> None:
    done = _studio("agents-md", tmp_path / "nowhere", cwd=tmp_path)
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_an_agents_file_that_is_not_utf8_is_left_alone(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "AGENTS.md").write_bytes(b"caf\xe9\n")
    done = _studio("agents-md", project, cwd=tmp_path)
    assert done.returncode == 2 and "not UTF-8 text (byte 3)" in done.stderr
    assert (project / "AGENTS.md").read_bytes() == b"caf\xe9\n"


def test_a_client_folders_link_to_a_skill_lists_it_once_and_quietly(tmp_path: Path) -> None:
    project = tmp_path / "project"
    _skill(project / ".agents" / "skills", "tide-tables")
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "tide-tables").symlink_to("../../.agents/skills/tide-tables")
    _skill(project / ".ollama" / "skills", "broken")
    (project / ".ollama" / "skills" / "broken" / "SKILL.md").write_text("no frontmatter\n")
    done = _studio("agents-md", project, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (project / "AGENTS.md").read_text().count("<name>tide-tables</name>") == 1
    assert "tide-tables" not in done.stderr
    assert "left out" in done.stderr and "broken" in done.stderr
