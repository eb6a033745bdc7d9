"""`studio pack --codex-plugin DIR` and its siblings from the command line: the issue's done-when
(a folder with `.codex-plugin/plugin.json` naming the skills folder, which Codex's rules accept,
listed by a marketplace file) and the exit codes for a bad name and a skill with errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.skills.install.packrules import (
    CODEX_MARKETPLACE,
    FORMATS,
    codex_marketplace_problems,
    package_problems,
)


def _studio(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False)


def _skill(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does {name}. Use when "
                                     "asked to.\n---\nSteps.\n")
    return folder


def test_pack_codex_plugin_writes_a_plugin_and_a_marketplace_listing_it(tmp_path: Path) -> None:
    skills = [_skill(tmp_path / "src", "tide-tables"), _skill(tmp_path / "src", "invoice-total")]
    done = _studio("pack", "--codex-plugin", "market", "--name", "harbour-kit", *skills,
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    root = tmp_path / "market"
    plugin = root / "plugins" / "harbour-kit"
    assert done.stdout.splitlines() == [str(Path("market/plugins/harbour-kit/.codex-plugin/plugin.json")),
                                        str(Path("market") / CODEX_MARKETPLACE)]
    manifest = json.loads((plugin / ".codex-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "harbour-kit" and manifest["skills"] == "./skills/"
    assert sorted(p.name for p in (plugin / "skills").iterdir()) == ["invoice-total", "tide-tables"]
    assert package_problems("codex-plugin", plugin, ["tide-tables", "invoice-total"]) == []
    marketplace = json.loads((root / CODEX_MARKETPLACE).read_text())
    assert [p["name"] for p in marketplace["plugins"]] == ["harbour-kit"]
    assert codex_marketplace_problems(marketplace, root) == []


@pytest.mark.parametrize("option", ["--open-plugin", "--gemini-extension", "--goose-plugin"])
def test_each_client_option_writes_its_package(option: str, tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    done = _studio("pack", option, "kit", skill, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    kind = option.removeprefix("--")
    assert done.stdout.strip() == str(Path("kit") / FORMATS[kind].manifest)
    assert package_problems(kind, tmp_path / "kit", ["tide-tables"]) == []


def test_a_bad_name_exits_2_naming_the_rule(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    done = _studio("pack", "--codex-plugin", "market", "--name", "Harbour Kit", skill, cwd=tmp_path)
    assert done.returncode == 2
    assert "'Harbour Kit'" in done.stderr and "kebab-case" in done.stderr
    assert not (tmp_path / "market").exists()


def test_a_skill_with_errors_exits_1(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    (skill / "SKILL.md").write_text("---\nname: [tide-tables\ndescription: x\n---\nBody.\n")
    done = _studio("pack", "--goose-plugin", "kit", skill, cwd=tmp_path)
    assert done.returncode == 1 and "SKILL.md:3:12: SK012" in done.stderr
