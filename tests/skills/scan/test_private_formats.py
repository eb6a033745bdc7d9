"""The scan's tuples and the scan process's messages are read in `studio/skills/scan` only: every
other module gets `SkillSummary`s, `ScannedSkill`s and typed events (`ScanClient`), so the
encoding can change in one package. The import contract on the process, the frames and the
encodings (pyproject.toml) keeps their modules out of reach; this keeps their shapes out too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STUDIO = ROOT / "studio"
SCAN = STUDIO / "skills" / "scan"

# The shapes of the scan's tuples: a listing tuple (6), a finding (7), a cache tuple (9).
SHAPES = {6, 7, 9}
# Names of the protocol and the encodings, and of the tuple-speaking methods they replaced.
PROTOCOL_NAMES = {
    "read_frames", "write_frame", "LISTING_LENGTH", "cache_entry", "listing_entry", "is_listing",
    "from_cache", "to_cache", "from_listing", "encoded_findings",
}
# What a message or an entry of the scan was called where it was read by position.
MESSAGE_NAMES = {"frame", "message", "entry", "cached"}
# The process's module as `python -m` takes it, now and before it moved.
PROCESS_MODULES = {"studio.skills.scan.process", "studio.skills.library.scan_process"}


def _spelled_out(value: ast.expr) -> bool:
    """Names given values written out (`A, B = (x, y)`, `A, B = range(2)`): nothing is decoded."""
    return isinstance(value, ast.Tuple) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "range"
    )


def offences(source: str) -> list[str]:
    """Where `source` reads a scan tuple or a scan message by position, or names the protocol."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign) and not _spelled_out(node.value):
            targets = node.targets
        elif isinstance(node, ast.For | ast.comprehension):
            targets = [node.target]
        line = getattr(node, "lineno", getattr(getattr(node, "target", None), "lineno", 0))
        for target in targets:
            if isinstance(target, ast.Tuple) and len(target.elts) in SHAPES:
                found.append(f"{line}: unpacks {len(target.elts)} items")
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id in MESSAGE_NAMES and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)):
            found.append(f"{node.lineno}: {node.value.id}[{node.slice.value}]")
        name = (node.id if isinstance(node, ast.Name) else node.attr
                if isinstance(node, ast.Attribute) else node.name
                if isinstance(node, ast.alias) else None)
        if name is not None and name.rpartition(".")[2] in PROTOCOL_NAMES:
            found.append(f"{getattr(node, 'lineno', line)}: names {name}")
        if isinstance(node, ast.Constant) and node.value in PROCESS_MODULES:
            found.append(f"{node.lineno}: names the scan process in text")
    return found


def test_no_module_outside_the_scan_reads_its_tuples_or_messages() -> None:
    outside = [path for path in sorted(STUDIO.rglob("*.py")) if SCAN not in path.parents]
    # The modules that take anything from the skill core: only they get the scan's values.
    readers = [path for path in outside if "studio.skills" in path.read_text(encoding="utf-8")]
    assert len(readers) > 100, "the check found too few modules to be looking in the right place"
    found = {
        str(path.relative_to(ROOT)): where
        for path in readers
        if (where := offences(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_check_sees_each_way_the_formats_were_read() -> None:
    assert offences(
        "directory, skill_file, name, _, valid, loadable, _, diagnostics, _ = entry\n"
        "for code, severity, message, line, column, file, field in diagnostics:\n    pass\n"
        "if frame[0] == 'root':\n    pass\n"
        "frames = read_frames(buffer)\n"
        "arguments = ['-m', 'studio.skills.scan.process']\n"
        "summary = SkillSummary.from_cache(root, data)\n"
    ) == [
        "1: unpacks 9 items", "2: unpacks 7 items", "4: frame[0]", "6: names read_frames",
        "7: names the scan process in text", "8: names from_cache",
    ]


def test_the_scan_itself_is_where_they_are_read() -> None:
    assert offences((SCAN / "entries.py").read_text(encoding="utf-8"))
