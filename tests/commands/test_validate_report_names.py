"""The report keeps only each skill's name and folder to the end (and the SKILL.md of the few
whose file is not `folder/SKILL.md`): the warnings of shared names still name each skill's own
file."""

from __future__ import annotations

import io
import json

from studio.commands.validate_report import Report
from studio.skills.scan import ScannedSkill


def _skill(directory: str, file_name: str, name: str) -> ScannedSkill:
    return ScannedSkill(directory,
                        f"{directory}/{file_name}", name, "d", True, True, False, (),
                        (None, None, None, None, True, True))


def _written(output_format: str, skills: list[ScannedSkill]) -> str:
    out = io.StringIO()
    with Report(output_format) as report:
        for skill in skills:
            report.add(None, skill)  # type: ignore[arg-type]  # text and JSON need no root
        report.write(out.write, {})
    return out.getvalue()


def test_shared_names_name_each_skill_s_own_file() -> None:
    skills = [_skill("/lib/a/pdf", "SKILL.md", "pdf"), _skill("/lib/b/pdf", "skill.md", "pdf"),
              _skill("/lib/c/csv", "SKILL.md", "csv")]
    lines = _written("text", skills).splitlines()
    assert lines[0].startswith("/lib/a/pdf/SKILL.md:") and "SK301" in lines[0]
    assert "(/lib/b/pdf)" in lines[0]
    assert lines[1].startswith("/lib/b/pdf/skill.md:") and "(/lib/a/pdf)" in lines[1]
    assert lines[2] == "3 skills checked: 3 valid, 0 invalid (0 errors, 2 warnings)"

    report = json.loads(_written("json", skills))
    assert [len(s["diagnostics"]) for s in report["skills"]] == [1, 1, 0]
    assert report["skills"][1]["diagnostics"][0]["file"] == "skill.md"
