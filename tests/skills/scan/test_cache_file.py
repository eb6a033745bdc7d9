"""The scan cache keeps its entries in a file and reads them a key at a time: a scan holds at
most a batch of the entries it puts, whatever the library's size; the file of an older version,
a damaged one or one kept for another target is never used, and made anew when written."""

from __future__ import annotations

from pathlib import Path

from studio.skills.scan.cache import BATCH, WINDOW, ScanCache


def test_entries_come_back_by_key(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "scan.db"
    kept = ScanCache(path)
    kept.put("/lib/a/SKILL.md", ("a", 1), ("summary a",))
    kept.put("/lib/b/SKILL.md", ("b", 2), {"nested": ("b",)})
    kept.save()
    again = ScanCache(path)
    assert again.get("/lib/a/SKILL.md", ("a", 1)) == ("summary a",)
    assert again.get("/lib/b/SKILL.md", ("b", 2)) == {"nested": ("b",)}
    assert again.get("/lib/a/SKILL.md", ("a", 2)) is None  # the file changed since
    assert again.get("/lib/c/SKILL.md", ("c",)) is None


def test_a_scan_holds_a_batch_of_what_it_puts_not_all(tmp_path: Path) -> None:
    kept = ScanCache(tmp_path / "scan.db")
    for number in range(3 * BATCH + 5):
        kept.put(f"/lib/{number}/SKILL.md", (number,), ("x" * 100,))
        assert len(kept._pending) < BATCH
    kept.save()
    again = ScanCache(tmp_path / "scan.db")
    assert all(again.get(f"/lib/{n}/SKILL.md", (n,)) == ("x" * 100,) for n in range(3 * BATCH + 5))


def test_what_is_put_is_found_before_it_is_written(tmp_path: Path) -> None:
    kept = ScanCache(tmp_path / "scan.db")
    kept.put("/lib/a/SKILL.md", (1,), "first")
    kept.save()
    kept.put("/lib/b/SKILL.md", (2,), "second")
    assert kept.get("/lib/b/SKILL.md", (2,)) == "second"
    assert kept.holds_any("/lib/") and not kept.holds_any("/li/")


def test_paths_that_are_no_utf8_are_keys_too(tmp_path: Path) -> None:
    key = "/lib/caf\udce9/SKILL.md"
    kept = ScanCache(tmp_path / "scan.db")
    kept.put(key, ("f",), ("s",))
    kept.save()
    assert ScanCache(tmp_path / "scan.db").get(key, ("f",)) == ("s",)


def test_a_complete_scan_forgets_the_skills_it_did_not_see_below_its_root(tmp_path: Path) -> None:
    kept = ScanCache(tmp_path / "scan.db")
    for key in ("/lib/a/SKILL.md", "/lib/b/SKILL.md", "/lib0/c/SKILL.md", "/other/d/SKILL.md"):
        kept.put(key, (), key)
    kept.save()
    again = ScanCache(tmp_path / "scan.db")
    again.forget_missing({"/lib/a/SKILL.md"}, "/lib/")
    again.save()
    third = ScanCache(tmp_path / "scan.db")
    assert [third.get(k, ()) for k in ("/lib/a/SKILL.md", "/lib/b/SKILL.md", "/lib0/c/SKILL.md",
                                       "/other/d/SKILL.md")] == [
        "/lib/a/SKILL.md", None, "/lib0/c/SKILL.md", "/other/d/SKILL.md"]


def test_another_targets_file_is_ignored_then_replaced(tmp_path: Path) -> None:
    path = tmp_path / "scan.db"
    claude = ScanCache(path, "claude-code")
    claude.put("/lib/a/SKILL.md", (), "claude's")
    claude.save()
    spec = ScanCache(path)
    assert spec.get("/lib/a/SKILL.md", ()) is None and not spec.holds_any("/lib/")
    spec.put("/lib/b/SKILL.md", (), "spec's")
    spec.save()
    assert ScanCache(path, "claude-code").get("/lib/a/SKILL.md", ()) is None
    assert ScanCache(path).get("/lib/b/SKILL.md", ()) == "spec's"
    assert ScanCache(path).get("/lib/a/SKILL.md", ()) is None


def test_an_older_versions_marshalled_file_is_made_anew(tmp_path: Path) -> None:
    path = tmp_path / "validate-cache.marshal"
    path.write_bytes(b"\xdb\x02\x00\x00\x00not sqlite at all" * 10)
    kept = ScanCache(path)
    assert kept.get("/lib/a/SKILL.md", ()) is None
    kept.put("/lib/a/SKILL.md", (), "fresh")
    kept.save()
    assert ScanCache(path).get("/lib/a/SKILL.md", ()) == "fresh"


def test_a_cache_that_cannot_be_written_only_stops_caching(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache's folder should be", encoding="utf-8")
    kept = ScanCache(blocker / "scan.db")
    for number in range(BATCH + 1):
        kept.put(f"/lib/{number}/SKILL.md", (), "x")
    kept.save()
    assert kept.get("/lib/1/SKILL.md", ()) is None and not blocker.with_name("scan.db").exists()



def test_entries_are_read_a_window_at_a_time_and_never_out_of_date(tmp_path: Path) -> None:
    kept = ScanCache(tmp_path / "scan.db")
    keys = [f"/lib/{number:05d}/SKILL.md" for number in range(3 * WINDOW)]
    for key in keys[::2]:
        kept.put(key, (), key)
    kept.save()
    again = ScanCache(tmp_path / "scan.db")
    # In order, out of order, absent ones between, and past the last.
    for key in [*keys, *reversed(keys), "/lib/99999/SKILL.md", "/zzz/SKILL.md"]:
        expected = key if key in keys[::2] else None
        assert again.get(key, ()) == expected
    again.put(keys[1], (), "new")
    again.save()  # written: a window read before must not hide it
    assert again.get(keys[1], ()) == "new"
    again.forget_missing(set(keys[2:]), "/lib/")
    assert again.get(keys[0], ()) is None and again.get(keys[2], ()) == keys[2]
