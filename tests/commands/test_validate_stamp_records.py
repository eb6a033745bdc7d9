"""The stamps a kept report depends on go to a file as the scan reads them, a record at a time:
the same stamps the scan gives when it keeps them, none of them held all at once."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from studio.commands import validate
from studio.skills.scan import ScanCache, scan
from tests.skills.helpers import write_skill

SKILL = "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nRun `scripts/a.py`.\n"


def _records(data: bytes) -> list[list[tuple[object, ...]]]:
    handle, records = io.BytesIO(data), []
    while handle.tell() < len(data):
        records.append(validate._load(handle))
    return records


def test_records_of_a_fixed_size_then_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validate, "STAMPS_PER_RECORD", 3)
    stamps = [(f"/lib/{n}", n, n, n) for n in range(8)]
    with validate.StampRecords() as records:
        for at in range(0, len(stamps), 2):
            records.extend(stamps[at:at + 2])
        assert records._pending == stamps[6:]  # only the record not yet full is held
        records.finish()
        copy = io.BytesIO()
        records.copy_to(copy)
        data = copy.getvalue()
        assert records.records == 3
    assert _records(data) == [stamps[0:3], stamps[3:6], stamps[6:8]]


def test_a_scan_streams_the_stamps_it_would_keep(tmp_path: Path) -> None:
    for number in range(5):
        folder = write_skill(tmp_path / "lib" / f"repo{number}", f"s{number}",
                             SKILL.format(name=f"s{number}"))
        (folder / "scripts").mkdir()
        (folder / "scripts" / "a.py").write_text("#!/usr/bin/env python3\n", encoding="utf-8")
    kept = scan([tmp_path / "lib"], ScanCache(tmp_path / "one.db"))
    streamed: list[tuple[object, ...]] = []
    collected = scan([tmp_path / "lib"], ScanCache(tmp_path / "two.db"), stamps=streamed.extend)
    assert collected.stamps == []
    assert sorted(streamed) == sorted(kept.stamps) and len(streamed) > 10
