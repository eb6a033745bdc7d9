"""The catalog's skills read from SKILL.md alone (`studio prompt`) are those a full validation
gives, and left-out skills are explained by the same first problem."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from studio.skills.scan import headers
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.headers import collect_headers
from studio.skills.scan.targets import scan
from studio.skills.search.catalog import build_catalog
from tests.skills.helpers import frontmatter, write_skill


def _library(tmp_path: Path) -> list[Path]:
    one, two = tmp_path / "one", tmp_path / "two"
    write_skill(one, "alpha", frontmatter("alpha"))
    write_skill(one, "beta", frontmatter("beta", extra="version: 1.0\n"),
                {"scripts/run.py": "print(1)\n"})
    write_skill(one, "no-description", "---\nname: no-description\n---\nbody\n")
    write_skill(one, "broken", "---\nname: broken\ndescription: a: b: c\n---\n")
    write_skill(one, "latin", b"---\nname: latin\ndescription: caf\xe9. Use when x.\n---\n")
    write_skill(one, "same", frontmatter("twin"))
    write_skill(two, "other", frontmatter("twin", "The other twin. Use when y."))
    write_skill(two / "deep" / ".claude" / "skills", "hidden-client", frontmatter("hidden-client"))
    empty = tmp_path / "empty"
    empty.mkdir()
    archive = tmp_path / "pack.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("zipped/SKILL.md", frontmatter("zipped"))
        packed.writestr("twin/SKILL.md", frontmatter("twin", "A third twin. Use when z."))
    return [one, two, empty, archive, tmp_path / "missing"]


def test_headers_give_the_catalog_and_reasons_a_full_validation_gives(tmp_path: Path) -> None:
    paths = _library(tmp_path)
    full = scan(paths)
    fast = collect_headers(paths)
    assert fast.problems == full.problems
    expected, got = build_catalog(full.skills), build_catalog(fast.skills)
    assert got.xml == expected.xml

    def reasons(skipped: tuple[object, ...]) -> list[tuple[str, str | None, str | None]]:
        return [
            (str(s.directory), s.first_problem and s.first_problem.code,  # type: ignore[attr-defined]
             s.first_problem and s.first_problem.message)  # type: ignore[attr-defined]
            for s in skipped
        ]

    assert reasons(got.skipped) == reasons(expected.skipped)
    assert len(got.skipped) == 6  # three broken skills, two second twins, the empty folder
    assert all(s.first_problem is not None for s in got.skipped)


def test_headers_spell_paths_as_summaries_do_from_inside_the_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    write_skill(tmp_path, "broken", "---\nname: broken\n---\n")
    monkeypatch.chdir(tmp_path)
    full, fast = scan([Path(".")]), collect_headers([Path(".")])
    assert [(str(s.directory), str(s.skill_file)) for s in fast.skills] == [
        (str(s.directory), str(s.skill_file)) for s in full.skills] == [
        ("alpha", "alpha/SKILL.md"), ("broken", "broken/SKILL.md")]


def test_only_skills_a_client_would_not_load_or_that_share_a_name_are_validated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _library(tmp_path)
    validated: list[str] = []
    real = headers._validate_folder
    monkeypatch.setattr(headers, "_validate_folder",
                        lambda found, target: validated.append(Path(found.folder).name)
                        or real(found, target))
    collect_headers(paths)
    assert sorted(validated) == ["broken", "latin", "no-description"]


def test_the_header_cache_is_used_until_the_skill_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _library(tmp_path)
    cache_file = tmp_path / "cache" / "headers.marshal"
    first = collect_headers(paths, ScanCache(cache_file, ScanCache.HEADERS))
    parsed: list[str] = []
    real = headers.parse_skill
    monkeypatch.setattr(headers, "parse_skill",
                        lambda data, path, **options: parsed.append(path.parent.name)
                        or real(data, path, **options))
    again = collect_headers(paths, ScanCache(cache_file, ScanCache.HEADERS))
    assert again == first and parsed == []
    alpha = tmp_path / "one" / "alpha" / "SKILL.md"
    alpha.write_text(frontmatter("alpha", "Alpha, changed. Use when testing."))
    os.utime(alpha, ns=(1, 1))
    changed = collect_headers(paths, ScanCache(cache_file, ScanCache.HEADERS))
    assert parsed == ["alpha"]
    assert [s.description for s in changed.skills if s.name == "alpha"] == [
        "Alpha, changed. Use when testing."]
