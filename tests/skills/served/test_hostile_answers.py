"""What a hostile server can answer past the manifest, against a scripted client session: pages
that never end or loop, more skills than anyone serves, two skills of one name, and resources
that come back as other bytes, other URIs or too many parts. Each is bounded or refused."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import mcp_types
import pytest

from studio.skills.served.client import _Answer, _list, _read_verified
from studio.skills.served.manifest import Limits, check_entry
from studio.skills.served.source import ServedError, ServedSource

SOURCE = ServedSource("mcp+http://127.0.0.1:1/mcp", url="http://127.0.0.1:1/mcp")


def entry(name: str, uri: str = "") -> dict[str, Any]:
    uri = uri or f"skill://{name}/SKILL.md"
    return {"uri": uri, "frontmatter": {"name": name, "description": "d"},
            "resources": [{"uri": uri, "digest": "sha256:" + "0" * 64, "size": 1}]}


class Pages:
    """A session whose skills/list answers are `pages(cursor)`."""

    def __init__(self, pages: Any) -> None:
        self.pages = pages
        self.asked = 0

    async def send_request(self, request: Any, result: Any) -> _Answer:
        self.asked += 1
        return _Answer(**self.pages(request.params.cursor))


class Client:
    def __init__(self, session: Any = None, contents: list[Any] | None = None) -> None:
        self.session = session
        self.contents = contents or []

    async def read_resource(self, uri: str) -> Any:
        return mcp_types.ReadResourceResult(contents=self.contents)


async def test_pages_that_never_end_are_cut_off() -> None:
    session = Pages(lambda cursor: {"skills": [], "nextCursor": f"{cursor or ''}x"})
    listing = await _list(Client(session), SOURCE, Limits(pages=5))  # type: ignore[arg-type]
    assert session.asked == 5
    assert "over 5 pages" in listing.problems[0]


async def test_a_cursor_that_comes_back_stops_the_listing() -> None:
    session = Pages(lambda cursor: {"skills": [entry("a")], "nextCursor": "same"})
    listing = await _list(Client(session), SOURCE, Limits())  # type: ignore[arg-type]
    assert session.asked == 2 and "go round in a loop" in listing.problems[-1]


async def test_more_skills_than_the_limit_are_left_out() -> None:
    session = Pages(lambda cursor: {"skills": [entry(f"s{n}") for n in range(50)]})
    listing = await _list(Client(session), SOURCE, Limits(skills=10))  # type: ignore[arg-type]
    assert len(listing.skills) == 10 and "over 10 skills" in listing.problems[-1]


async def test_two_skills_of_one_name_keep_the_first_and_say_so() -> None:
    session = Pages(lambda cursor: {"skills": [entry("a", "skill://x/a/SKILL.md"),
                                               entry("a", "skill://y/a/SKILL.md"),
                                               {"uri": 3}]})
    listing = await _list(Client(session), SOURCE, Limits())  # type: ignore[arg-type]
    assert [s.uri for s in listing.skills] == ["skill://x/a/SKILL.md"]
    assert any("has the name 'a' of 'skill://x/a/SKILL.md'" in p for p in listing.problems)
    assert any(p.startswith("left out: ") for p in listing.problems)


def served(data: bytes) -> tuple[Any, Any]:
    uri = "skill://a/SKILL.md"
    skill = check_entry({"uri": uri, "frontmatter": {"name": "a", "description": "d"},
                         "resources": [{"uri": uri, "size": len(data),
                                        "digest": "sha256:" + hashlib.sha256(data).hexdigest()}]},
                        SOURCE.shown, Limits())
    return skill, skill.files[0]


def text(value: str, uri: str = "skill://a/SKILL.md") -> mcp_types.TextResourceContents:
    return mcp_types.TextResourceContents(uri=uri, text=value)


def blob(value: str, uri: str = "skill://a/SKILL.md") -> mcp_types.BlobResourceContents:
    return mcp_types.BlobResourceContents(uri=uri, blob=value)


async def test_the_promised_bytes_pass() -> None:
    skill, file = served(b"\x00\xffhello")
    client = Client(contents=[blob(base64.b64encode(b"\x00\xffhello").decode())])
    assert await _read_verified(client, SOURCE, skill, file) == b"\x00\xffhello"  # type: ignore[arg-type]


@pytest.mark.parametrize(("contents", "said"), [
    ([text("hellO")], "does not match its SHA-256 digest"),
    ([text("hello!")], "larger than the 5 bytes"),
    ([text("hell")], "is 4 bytes; its manifest says 5"),
    ([text("hello"), text("hello")], "came back as 2 parts"),
    ([text("hello", uri="skill://a/other")], "under another URI"),
    ([blob("A" * 400)], "larger than the 5 bytes"),
    ([blob("!!!!")], "not valid base64"),
])
async def test_other_bytes_than_promised_are_refused(contents: list[Any], said: str) -> None:
    skill, file = served(b"hello")
    with pytest.raises(ServedError) as raised:
        await _read_verified(Client(contents=contents), SOURCE, skill, file)  # type: ignore[arg-type]
    assert said in str(raised.value)
    assert "refused a from mcp+http://127.0.0.1:1/mcp: the file SKILL.md" in str(raised.value)
