"""A skill made from a template passes every check of every target with no finding at all
(issue 44: a new skill started with two warnings, SK213 and SK502)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.paths import RESOURCES_DIR
from studio.skills import TARGETS
from studio.skills.install.scaffold import TEMPLATE, create_skill, render_template

TEMPLATES = sorted((RESOURCES_DIR / "templates").glob("*.tmpl"))
NAMES = ("pdf", "pdf-forms", "a" * 30 + "-" + "b" * 33)


def test_the_templates_are_found() -> None:
    assert TEMPLATE in TEMPLATES


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", NAMES, ids=len)
def test_a_skill_from_a_template_has_no_finding_for_any_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], template: Path, target: str,
        name: str) -> None:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "SKILL.md").write_text(render_template(name, template), encoding="utf-8")
    code = main(["validate", "--format", "json", "--no-cache", "--target", target, str(folder)])
    report = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["message"]) for d in report["skills"][0]["diagnostics"]] == []
    assert code == 0


@pytest.mark.parametrize("target", TARGETS)
def test_studio_new_makes_a_skill_with_no_finding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    skill = create_skill(tmp_path, "invoice-totals").parent
    capsys.readouterr()
    assert main(["validate", "--format", "json", "--no-cache", "--target", target, str(skill)]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == {
        "skills": 1, "valid": 1, "invalid": 0, "loadable": 1, "errors": 0, "warnings": 0,
        "infos": 0}
