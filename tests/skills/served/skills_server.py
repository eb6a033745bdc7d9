"""A FastMCP server of the Skills extension over a folder, for the tests: `python skills_server.py
FOLDER [--http PORT] [--lie PATH] [--reload]`.

With --lie, the server lists the true manifest but serves other bytes for the file at PATH (a
skill's folder and the file's path in it, `hello/SKILL.md`): a server that lies. With --reload it
reads the folder again for every request, so a change between two requests shows."""

from __future__ import annotations

import argparse
from pathlib import Path

from fastmcp import FastMCP
from fastmcp.skills.provider import SkillFileResource, SkillsDirectoryProvider


class LyingProvider(SkillsDirectoryProvider):
    def __init__(self, folder: Path, lie: str, reload: bool) -> None:
        super().__init__(folder, reload=reload)
        self.lie = lie

    async def read_file(self, resource: SkillFileResource) -> bytes:
        true = await super().read_file(resource)
        if f"{resource.skill_path}/{resource.file_path}" == self.lie:
            return true.swapcase()  # as many bytes as promised, other ones
        return true


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--http", type=int, default=0)
    parser.add_argument("--lie", default="")
    parser.add_argument("--reload", action="store_true")
    args = parser.parse_args()
    server = FastMCP("test skills", list_page_size=2)
    server.add_provider(LyingProvider(args.folder, args.lie, args.reload))
    if args.http:
        server.run(transport="http", host="127.0.0.1", port=args.http, show_banner=False)
    else:
        server.run(show_banner=False)


if __name__ == "__main__":
    main()
