from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from studio.agent.tools import READ_CAP, SkillToolbox, ToolError
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.skills.helpers import frontmatter, write_skill


def toolbox_for(root: Path, **kwargs: object) -> SkillToolbox:
    scan = scan_root(SkillRoot(root))
    return SkillToolbox(scan.skills, root, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    write_skill(
        root, "demo", frontmatter("demo") + "Read references/guide.md.\n",
        {"references/guide.md": "# Guide\n", "scripts/run.py": "print('hi')\n"},
    )
    write_skill(root, "broken", "---\nname: broken\n---\n")
    (tmp_path / "secret.txt").write_text("secret")
    return root


def test_specs_offer_the_three_tools_with_an_enum_of_loadable_skills(library: Path) -> None:
    toolbox = toolbox_for(library)
    specs = {spec.name: spec for spec in toolbox.specs()}
    assert set(specs) == {"activate_skill", "read_skill_file", "run_skill_script"}
    assert specs["activate_skill"].parameters["properties"]["name"]["enum"] == ["demo"]


def test_activate_returns_body_directory_and_files(library: Path) -> None:
    text = toolbox_for(library).activate("demo")
    assert f'directory="{library / "demo"}"' in text
    assert "Read references/guide.md." in text
    assert "references/guide.md\nscripts/run.py" in text
    assert "name: demo" not in text


def test_activate_uses_unsaved_editor_text(library: Path) -> None:
    override = frontmatter("demo") + "Unsaved instructions.\n"
    text = toolbox_for(library, overrides={"demo": override}).activate("demo")
    assert "Unsaved instructions." in text


def test_unknown_skill_names_the_known_ones(library: Path) -> None:
    with pytest.raises(ToolError, match="the skills are: demo"):
        toolbox_for(library).activate("nope")


def test_read_inside_the_skill(library: Path) -> None:
    assert toolbox_for(library).read_file("demo", "references/guide.md") == "# Guide\n"
    assert toolbox_for(library).read_file("demo", "./references/guide.md") == "# Guide\n"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("../../secret.txt", "climbs out"),
        ("/etc/passwd", "absolute"),
        ("~/.ssh/id_rsa", "absolute"),
        ("references/missing.md", "there is no file"),
        ("", "must be"),
    ],
)
def test_reads_outside_or_missing_are_refused(library: Path, path: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        toolbox_for(library).read_file("demo", path)


def test_a_symlink_out_of_the_skill_is_refused(library: Path, tmp_path: Path) -> None:
    (library / "demo" / "references" / "escape.md").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(ToolError, match="outside"):
        toolbox_for(library).read_file("demo", "references/escape.md")


def test_big_files_are_cut_and_binaries_refused(library: Path) -> None:
    (library / "demo" / "references" / "big.md").write_text("x" * (READ_CAP + 10))
    assert toolbox_for(library).read_file("demo", "references/big.md").endswith("[file cut at 100,000 bytes]")
    (library / "demo" / "assets").mkdir()
    (library / "demo" / "assets" / "logo.png").write_bytes(b"\x89PNG\x00\x00")
    with pytest.raises(ToolError, match="binary"):
        toolbox_for(library).read_file("demo", "assets/logo.png")


def test_zip_skills_can_be_activated_and_read(tmp_path: Path) -> None:
    archive = tmp_path / "pack.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("demo/SKILL.md", frontmatter("demo") + "From the zip.\n")
        zf.writestr("demo/references/a.md", "zipped ref")
    toolbox = toolbox_for(archive)
    assert "From the zip." in toolbox.activate("demo")
    assert toolbox.read_file("demo", "references/a.md") == "zipped ref"


@pytest.mark.parametrize("path", ["a/" * 500_000 + "x.md", "./" * 600 + "guide.md", "x" * 2000])
def test_overlong_paths_are_refused_before_resolving(
    library: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    def resolve(self: Path, strict: bool = False) -> Path:
        raise AssertionError("resolved a path it should have refused")

    toolbox = toolbox_for(library)
    monkeypatch.setattr(Path, "resolve", resolve)
    with pytest.raises(ToolError, match="too long"):
        toolbox.read_file("demo", path)


@pytest.mark.timeout(60)  # opening a FIFO for reading waits for a writer: fail, do not hang
def test_a_fifo_in_a_skill_is_refused_not_opened(library: Path) -> None:
    toolbox = toolbox_for(library)
    os.mkfifo(library / "demo" / "references" / "pipe.md")
    with pytest.raises(ToolError, match="FIFO"):
        toolbox.read_file("demo", "references/pipe.md")
