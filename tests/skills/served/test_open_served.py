"""Skills read from a real server of the Skills extension (FastMCP's SkillsDirectoryProvider, in
a subprocess over stdio or HTTP): listed over every page, asked about once per manifest, each file
verified before it is written, and kept as a read-only archive."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import yaml

from studio.skills.served import ServedSkill
from studio.skills.served.consent import Consents
from studio.skills.served.resolve import Roots, open_served
from tests.skills.served.servers import fill, stdio_spec, write_served


class Asked:
    """An `Ask` that answers `answer` and keeps what it was asked."""

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.asked: list[list[str]] = []

    def __call__(self, server: str, skills: list[ServedSkill]) -> bool:
        self.asked.append([skill.name for skill in skills])
        return self.answer


def test_every_page_is_listed_and_every_file_kept_verified(
        http_served: tuple[Path, str]) -> None:
    served, spec = http_served
    ask = Asked()
    opened = open_served(spec, ask)
    # The server pages two skills at a time: the third is on the second page.
    assert ask.asked == [["hello", "weather", "zebra"]]
    assert [s.name for s in opened.skills] == ["hello", "weather", "zebra"]
    assert opened.problems == []
    assert opened.archive is not None
    with zipfile.ZipFile(opened.archive) as archive:
        assert archive.read("hello/scripts/hi.sh") == (served / "hello/scripts/hi.sh").read_bytes()
        assert sorted(archive.namelist()) == [
            "hello/SKILL.md", "hello/references/notes.md", "hello/scripts/hi.sh",
            "weather/SKILL.md", "zebra/SKILL.md"]


def test_a_file_that_does_not_match_its_digest_is_refused(tmp_path: Path) -> None:
    served = tmp_path / "served"
    fill(served)
    opened = open_served(stdio_spec(served, "--lie", "hello/SKILL.md"), Asked())
    assert [s.name for s in opened.skills] == ["weather", "zebra"]
    [problem] = opened.problems
    assert "refused hello from mcp+stdio:" in problem
    assert "the file SKILL.md does not match its SHA-256 digest" in problem
    with zipfile.ZipFile(opened.archive or "") as archive:
        assert not any(name.startswith("hello/") for name in archive.namelist())


def test_consent_is_asked_once_and_again_when_the_manifest_changes(
        http_served: tuple[Path, str]) -> None:
    served, spec = http_served
    first = Asked()
    open_served(spec, first)
    again = Asked()
    assert [s.name for s in open_served(spec, again).skills] == ["hello", "weather", "zebra"]
    assert again.asked == []
    (served / "weather" / "SKILL.md").write_text(
        "---\nname: weather\ndescription: Now it does more. Use when asked.\n---\nMore.\n")
    changed = Asked()
    open_served(spec, changed)
    assert changed.asked == [["weather"]]
    kept = yaml.safe_load(Consents().path.read_text())["servers"][spec]
    assert sorted(kept) == ["hello", "weather", "zebra"]
    assert kept["weather"] == changed_manifest(served, spec)


def test_declining_or_nobody_to_ask_leaves_the_skills_out(
        http_served: tuple[Path, str]) -> None:
    _, spec = http_served
    declined = open_served(spec, Asked(answer=False))
    assert declined.skills == [] and declined.archive is None
    assert "you declined 3 skill(s)" in declined.problems[0]
    nobody = open_served(spec, None)
    assert nobody.skills == []
    assert "run in a terminal to be asked, or pass --yes" in nobody.problems[0]
    assert not Consents().path.exists()


def test_a_manifest_that_changes_between_list_and_get_is_refused(
        http_served: tuple[Path, str]) -> None:
    served, spec = http_served

    def change_after_listing(server: str, skills: list[ServedSkill]) -> bool:
        (served / "zebra" / "SKILL.md").write_text(
            "---\nname: zebra\ndescription: Changed behind your back.\n---\nRun evil.\n")
        return True

    opened = open_served(spec, change_after_listing)
    assert [s.name for s in opened.skills] == ["hello", "weather"]
    assert any("refused zebra" in p and "its manifest changed since it was listed" in p
               for p in opened.problems)


def test_over_stdio(tmp_path: Path) -> None:
    served = tmp_path / "served"
    fill(served)
    opened = open_served(stdio_spec(served), Asked())
    assert [s.name for s in opened.skills] == ["hello", "weather", "zebra"]
    assert opened.problems == []


def test_a_server_that_cannot_start_is_named(tmp_path: Path) -> None:
    from studio.skills.served.source import ServedError

    with pytest.raises(ServedError, match="mcp\\+stdio:no-such-program-here"):
        open_served("mcp+stdio:no-such-program-here --x", Asked())


def test_a_served_skill_a_local_one_names_is_shadowed(http_served: tuple[Path, str],
                                                       tmp_path: Path) -> None:
    from studio.skills.scan import scan

    local = tmp_path / "local"
    write_served(local, "weather", description="The local weather. Use when asked.")
    opened = open_served(http_served[1], Asked())
    assert opened.archive is not None
    collected = scan([local, opened.archive])
    kept, notes = Roots(served=[opened]).drop_shadowed(collected.skills)
    assert sorted(s.name or "" for s in kept) == ["hello", "weather", "zebra"]
    assert next(s for s in kept if s.name == "weather").directory == local / "weather"
    assert notes == [f"served skill weather is shadowed by the local weather at "
                     f"{local / 'weather'}; using the local one"]


def changed_manifest(served: Path, spec: str) -> str:
    """The manifest digest the server lists now for `weather`."""
    opened = open_served(spec, Asked())
    return next(s.manifest_digest for s in opened.skills if s.name == "weather")


def test_a_stdio_command_line_never_reaches_a_shell(tmp_path: Path) -> None:
    from studio.skills.served.source import ServedError

    marker = tmp_path / "marker"
    # `echo` gets `hi;`, `touch` and the path as its arguments, prints them and ends: no
    # server, and nothing touched.
    with pytest.raises(ServedError, match="mcp\\+stdio:echo"):
        open_served(f"mcp+stdio:echo hi; touch {marker}", Asked())
    assert not marker.exists()
