"""The Skills extension's wire format (studio.skills.mcpwire): URIs, entries and frontmatter, as
both the server and a client of it read them."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from studio.skills import mcpwire as wire

DIGEST = "sha256:" + "ab" * 32


def _entry(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "uri": "skill://acme/billing/refunds/SKILL.md",
        "frontmatter": {"name": "refunds", "description": "Refunds. Use for refunds.", "x": [1]},
        "resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": DIGEST, "size": 3},
                      {"uri": "skill://acme/billing/refunds/a%20b/c.md", "digest": DIGEST,
                       "size": 0}],
    }
    entry.update(changes)
    return entry


def test_uris_round_trip_with_odd_segments_encoded() -> None:
    uri = wire.skill_uri(("Team A", "refunds"), "notes/a b#1.md")
    assert uri == "skill://Team%20A/refunds/notes/a%20b%231.md"
    assert wire.split_uri(uri) == ("Team A", "refunds", "notes", "a b#1.md")
    assert wire.directory_uri(("refunds",), "notes/") == "skill://refunds/notes"


@pytest.mark.parametrize("uri", [
    "file:///etc/passwd", "skill://a/../b/SKILL.md", "skill://a/%2E%2E/SKILL.md", "skill://a//b",
    "skill://a/b%2Fc", "skill://a/b?x=1", "skill://a/b#top", "skill://a/b%5Cc", "skill:///SKILL.md",
])
def test_a_uri_that_could_leave_its_skill_is_refused(uri: str) -> None:
    with pytest.raises(wire.WireError):
        wire.split_uri(uri)


def test_an_entry_round_trips() -> None:
    entry = wire.entry_from_wire(_entry())
    assert entry.name == "refunds"
    assert entry.to_wire() == _entry()
    assert wire.entry_from_wire(_entry(resources="dynamic")).resources == "dynamic"


@pytest.mark.parametrize(("changes", "said"), [
    ({"uri": "skill://acme/other/SKILL.md"}, "must end in `refunds/SKILL.md`"),
    ({"resources": None}, "no `resources`"),
    ({"resources": [{"uri": "skill://acme/billing/refunds/x.md", "digest": DIGEST, "size": 1}]},
     "does not list its SKILL.md"),
    ({"resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": "md5:1", "size": 1}]},
     "sha256:"),
    ({"resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": DIGEST, "size": True}]},
     "no size"),
    ({"resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": DIGEST, "size": 1},
                    {"uri": "skill://acme/billing/other/x.md", "digest": DIGEST, "size": 1}]},
     "not inside"),
    ({"resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": DIGEST, "size": 1}] * 2},
     "listed twice"),
    ({"resources": [{"uri": "skill://acme/billing/refunds/SKILL.md", "digest": DIGEST,
                     "size": wire.MAX_TOTAL_BYTES + 1}]}, "a host must accept"),
])
def test_an_entry_that_breaks_a_rule_says_which(changes: dict[str, Any], said: str) -> None:
    with pytest.raises(wire.WireError, match=re.escape(said)):
        wire.entry_from_wire(_entry(**changes))


def test_frontmatter_goes_as_written_or_not_at_all() -> None:
    written = {"name": "a", "metadata": {"n": 1.5, "on": True, "list": ["x", None]}}
    assert wire.json_frontmatter(written) == written
    with pytest.raises(wire.NotJson, match=r"metadata\.when"):
        wire.json_frontmatter({"metadata": {"when": datetime.date(2026, 1, 1)}})
    with pytest.raises(wire.NotJson, match="quote it"):
        wire.json_frontmatter({"big": float("inf")})


def test_the_digest_is_sha256_of_the_bytes() -> None:
    assert wire.digest(b"") == ("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
