"""A site index written by `studio pack --index` (the discovery RFC 0.2.0, files with digests)
is installed by `studio install` from that site, and a file changed on the way is refused."""

from __future__ import annotations

import sys
from pathlib import Path

from studio.commands.installing import install
from studio.skills.install.pack import pack_index
from tests.fakes.files import FileServer
from tests.skills.helpers import frontmatter, write_skill


def _site(tmp_path: Path) -> dict[str, bytes]:
    source = tmp_path / "source"
    write_skill(source, "tide-tables", frontmatter(
        "tide-tables", "Reads tide tables for a harbour. Use when asked about high water."),
        {"references/harbours.md": "# Harbours\n"})
    pack_index([source / "tide-tables"], tmp_path / "site")
    root = tmp_path / "site"
    return {"/" + str(path.relative_to(root)): path.read_bytes()
            for path in root.rglob("*") if path.is_file()}


def test_an_index_studio_packed_installs_from_the_site(tmp_path: Path) -> None:
    with FileServer(_site(tmp_path)) as site:
        code = install(site.url + "/.well-known/agent-skills/index.json", tmp_path / "project",
                       True, None, 10 << 20, sys.stderr)
    assert code == 0
    installed = tmp_path / "project" / "tide-tables"
    assert (installed / "references" / "harbours.md").read_text() == "# Harbours\n"


def test_a_file_that_does_not_match_its_digest_is_refused(tmp_path: Path) -> None:
    files = _site(tmp_path)
    files["/.well-known/agent-skills/tide-tables/references/harbours.md"] = b"# Tampered\n"
    with FileServer(files) as site:
        code = install(site.url + "/.well-known/agent-skills/index.json", tmp_path / "project",
                       True, None, 10 << 20, sys.stderr)
    assert code == 1
    assert not (tmp_path / "project" / "tide-tables").exists()
