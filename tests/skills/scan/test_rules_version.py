"""The scan cache's stamp follows the rules' code: change a rule and every cache kept before is
ignored, with no version number to remember to raise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.skills.scan import cache
from studio.skills.scan.cache import ScanCache, rules_version

SKILLS = Path(cache.__file__).resolve().parent.parent


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "skills"
    shutil.copytree(SKILLS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_the_stamp_is_the_rules_code(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    assert rules_version(str(copy)) == cache.RULES_VERSION != "unread"
    assert cache.RULES_VERSION in cache.STAMP


def test_changing_any_rule_changes_it(tmp_path: Path) -> None:
    for part in ("checks/bodyrules.py", "checks/rules.py", "parse.py", "scan/entries.py"):
        copy = _copy(tmp_path / part.replace("/", "-"))
        rule = copy / part
        rule.write_text(rule.read_text(encoding="utf-8").replace("def ", "def  ", 1), encoding="utf-8")
        assert rules_version(str(copy)) != cache.RULES_VERSION, part


def test_a_new_rule_module_changes_it(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    (copy / "checks" / "newrules.py").write_text("RULES = ()\n", encoding="utf-8")
    assert rules_version(str(copy)) != cache.RULES_VERSION


def test_code_that_reports_nothing_leaves_it(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    catalog = copy / "search" / "catalog.py"
    catalog.write_text(catalog.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert rules_version(str(copy)) == cache.RULES_VERSION


def test_a_cache_kept_under_other_rules_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "scan.marshal"
    kept = ScanCache(path)
    kept.put("/a/SKILL.md", ("fingerprint",), ("summary",))
    kept.save()
    assert ScanCache(path).get("/a/SKILL.md", ("fingerprint",)) == ("summary",)
    monkeypatch.setattr(cache, "STAMP", cache.STAMP.replace(cache.RULES_VERSION, "0badc0de"))
    assert ScanCache(path).get("/a/SKILL.md", ("fingerprint",)) is None
