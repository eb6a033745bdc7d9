"""The README is a front door and every page it leads to is there: each relative link of the
README, the manual (docs/) and the benchmarks' pages names a file that exists, the README stays
short, docs/codes.md lists every finding's code the studio can report, and benchmarks/README.md
names every script beside it, each benchmark with a row in its table of current figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
PAGES = [ROOT / "README.md", BENCHMARKS / "README.md", BENCHMARKS / "HISTORY.md",
         *sorted((ROOT / "docs").glob("*.md"))]
# Scripts the benchmarks import, which measure nothing themselves.
BENCHMARK_HELPERS = {"bytecode.py", "collection.py", "corpus.py", "offscreen.py", "skillgen.py"}
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_CODE = re.compile(r"""["']((?:SK|EV)\d{3})["']""")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_a_file_that_is_there(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            broken.append(target)
    assert broken == [], f"{page.relative_to(ROOT)} links to missing files: {broken}"


def test_the_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    assert lines[0] == "# Skill Studio" and lines[2] == "```sh"


def test_every_code_is_documented() -> None:
    defined = set()
    for source in (ROOT / "studio").rglob("*.py"):
        defined.update(_CODE.findall(source.read_text(encoding="utf-8")))
    text = (ROOT / "docs" / "codes.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"\b((?:SK|EV)\d{3})\b", text))
    for prefix, first, last in re.findall(r"\b(SK|EV)(\d{3}) to (?:SK|EV)(\d{3})\b", text):
        documented.update(f"{prefix}{number:03d}" for number in range(int(first), int(last) + 1))
    assert defined, "no codes found: the pattern is stale"
    assert sorted(defined - documented) == []


def test_every_benchmark_has_a_current_figure() -> None:
    text = (BENCHMARKS / "README.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_0-9]+\.py)`", text, re.MULTILINE))
    scripts = {path.name for path in BENCHMARKS.glob("*.py")}
    assert rows, "no table rows found: the pattern is stale"
    assert sorted(rows - scripts) == [], "rows for scripts that are not there"
    assert sorted(scripts - BENCHMARK_HELPERS - rows) == [], "benchmarks without a row"
    assert sorted(name for name in BENCHMARK_HELPERS if f"`{name}`" not in text) == []
