"""The library scan's child process: its frames, and what it writes for each root."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from studio.skills.scan import RootScanned, ScanClient, SkillsFound, frames, process
from studio.skills.scan.client import ScanEnded
from studio.skills.scan.entries import decode, encode
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.skills.helpers import frontmatter, write_skill


@pytest.fixture
def skills_root(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    for name in ("csv-profiler", "pdf-tools", "web-search"):
        write_skill(root, name, frontmatter(name))
    return root


def test_scan_frames_round_trip(skills_root: Path) -> None:
    out = io.BytesIO()
    summary = scan_root(SkillRoot(skills_root)).skills[0]
    frames.write_frame(out, ("skills", str(skills_root), [encode(summary)]))
    frames.write_frame(out, ("end",))
    data = bytearray(out.getvalue())
    partial = bytearray(data[:7])
    assert frames.read_frames(partial) == []
    found = frames.read_frames(data)
    assert [frame[0] for frame in found] == ["skills", "end"]
    assert encode(decode(skills_root, found[0][2][0])) == encode(summary)
    assert data == bytearray()


def test_scan_process_main_writes_every_root(skills_root: Path, tmp_path: Path,
                                             capfdbinary: object) -> None:
    assert process.main(["--cache", str(tmp_path / "c.marshal"), str(skills_root),
                              str(tmp_path / "missing")]) == 0
    captured = capfdbinary.readouterr()  # type: ignore[attr-defined]
    sent = frames.read_frames(bytearray(captured.out))
    kinds = [frame[0] for frame in sent]
    assert kinds[-1] == "end"
    assert kinds[:3] == ["listed", "skills", "root"], "listed first, then validated"
    assert sum(len(f[2]) for f in sent if f[0] == "listed") == 3
    assert sum(len(f[2]) for f in sent if f[0] == "skills") == 3
    roots = [f for f in sent if f[0] == "root"]
    assert roots[0] == ("root", str(skills_root), None, [str(skills_root)])
    assert "does not exist" in roots[1][2]
    assert (tmp_path / "c.marshal").exists()


def test_scan_process_judges_for_the_target_it_is_given(tmp_path: Path,
                                                      capfdbinary: object) -> None:
    root = tmp_path / "skills"
    (root / "forked").mkdir(parents=True)
    (root / "forked" / "SKILL.md").write_text(
        "---\nname: forked\ndescription: Forks. Use when testing.\ncontext: fork\n---\nBody\n")
    codes: dict[str, list[str]] = {}
    for target in ("spec", "claude-code"):
        assert process.main(["--target", target, str(root)]) == 0
        sent = frames.read_frames(bytearray(capfdbinary.readouterr().out))  # type: ignore[attr-defined]
        [summary] = [decode(root, item)
                     for f in sent if f[0] == "skills" for item in f[2]]
        codes[target] = [d.code for d in summary.diagnostics]
    assert codes == {"spec": ["SK131"], "claude-code": []}


def _run_client(arguments: list[str]) -> list[object]:
    """Run the scan process as the window does and feed its output to a `ScanClient` a few bytes
    at a time, as a pipe may hand it over."""
    out = subprocess.run([sys.executable, *arguments], capture_output=True, check=True).stdout
    client = ScanClient()
    events: list[object] = []
    for start in range(0, len(out), 7):
        events.extend(client.feed(out[start:start + 7]))
    return events


def test_the_client_runs_the_process_and_reads_typed_events(skills_root: Path, tmp_path: Path) -> None:
    odd = tmp_path / "--hidden"  # a root named like an option stays a root
    write_skill(odd, "odd-one", frontmatter("odd-one"))
    arguments = ScanClient.arguments([skills_root, odd], cache=tmp_path / "c.marshal")
    assert arguments[:2] == ["-m", process.__name__]
    events = _run_client(arguments)
    assert isinstance(events[-1], ScanEnded)
    found = [event for event in events if isinstance(event, SkillsFound)]
    summaries = [summary for event in found for summary in event.summaries()]
    listed = [s for s in summaries if not s.checked]
    checked = [s for s in summaries if s.checked]
    assert sorted(s.name or "" for s in listed) == ["csv-profiler", "odd-one", "pdf-tools", "web-search"]
    assert sorted(s.name or "" for s in checked) == sorted(s.name or "" for s in listed)
    assert {s.root for s in checked} == {skills_root, odd}
    done = [event for event in events if isinstance(event, RootScanned)]
    assert [event.root for event in done] == [skills_root, odd]
    assert all(event.error is None for event in done)
    assert (tmp_path / "c.marshal").exists()


def test_a_slice_of_an_event_decodes_only_that_slice(skills_root: Path) -> None:
    summaries = scan_root(SkillRoot(skills_root)).skills
    found = SkillsFound.of(skills_root, summaries)
    assert len(found) == 3
    assert found.summaries(1, 2) == summaries[1:2]
    assert found.summaries() == summaries


def test_the_client_refuses_a_message_it_does_not_know() -> None:
    out = io.BytesIO()
    frames.write_frame(out, ("surprise", "/x"))
    with pytest.raises(ValueError, match="unknown kind: 'surprise'"):
        ScanClient().feed(out.getvalue())


def test_the_client_asks_for_the_target_hidden_folders_and_linked_roots(tmp_path: Path) -> None:
    arguments = ScanClient.arguments([tmp_path / "a"], hidden=True, target="claude-code",
                                     linked_roots=[tmp_path / "-b"])
    assert arguments[arguments.index("--") + 1:] == [str(tmp_path / "a")]
    assert {"--hidden", "--target=claude-code", f"--linked-root={tmp_path / '-b'}"} <= set(arguments)
