"""A scripted Hugging Face Hub on loopback: the few endpoints a model download uses.

- `GET /api/models/OWNER/NAME` (and `/revision/REV`): the model's info with its files (`siblings`,
  with LFS size and SHA-256), as `HfApi.model_info(files_metadata=True)` reads it;
- `GET|HEAD /OWNER/NAME/resolve/REV/FILE`: the file, with ETag, X-Repo-Commit, Content-Length,
  and Range requests answered 206 (or 416 past the end).

Knobs: `corrupt` serves other bytes than the listed SHA-256; `cut_after` drops the connection after
that many body bytes (once); `gate` holds the body after `gate_after` bytes until the test sets it.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from dataclasses import dataclass

from tests.fakes.httpserver import Exchange, Request, ScriptedHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class HubFile:
    data: bytes
    lfs: bool = True

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


class FakeHub(ScriptedHTTPServer):
    def __init__(self, repos: dict[str, dict[str, HubFile]]) -> None:
        super().__init__()
        self.repos = repos
        self.corrupt = False
        self.cut_after: int | None = None
        self.ignore_range = False
        self.gate_after: int | None = None
        self.gate = threading.Event()
        self.at_gate = threading.Event()

    def range_requests(self) -> list[str]:
        return [r.headers["range"] for r in self.requests if "range" in r.headers]

    async def respond(self, request: Request, exchange: Exchange) -> None:
        parts = request.path.strip("/").split("/")
        if parts[:2] == ["api", "models"] and len(parts) >= 4:
            await self._info("/".join(parts[2:4]), exchange)
        elif len(parts) >= 5 and parts[2] == "resolve":
            await self._file("/".join(parts[:2]), "/".join(parts[4:]), request, exchange)
        else:
            await exchange.send(404, {"error": "not found"})

    async def _info(self, repo: str, exchange: Exchange) -> None:
        files = self.repos.get(repo)
        if files is None:
            head = (
                b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nX-Error-Code: RepoNotFound\r\n"
            )
            body = b'{"error": "Repository not found"}'
            await exchange.write_raw(
                head + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
            )
            return
        siblings = []
        for name, file in files.items():
            sibling: dict[str, object] = {
                "rfilename": name,
                "size": len(file.data),
                "blobId": f"blob{len(name)}",
            }
            if file.lfs:
                sibling["lfs"] = {"size": len(file.data), "sha256": file.sha256, "pointerSize": 134}
            siblings.append(sibling)
        await exchange.send(200, {"id": repo, "modelId": repo, "sha": COMMIT, "siblings": siblings})

    async def _file(self, repo: str, name: str, request: Request, exchange: Exchange) -> None:
        file = self.repos.get(repo, {}).get(name)
        if file is None:
            await exchange.send(404, {"error": "Entry not found"})
            return
        data = bytes(reversed(file.data)) if self.corrupt else file.data
        start = 0
        status = "200 OK"
        wanted = request.headers.get("range", "")
        if wanted.startswith("bytes=") and not self.ignore_range:
            start = int(wanted[6:].split("-", 1)[0])
            if start >= len(data):
                await exchange.write_raw(
                    b"HTTP/1.1 416 Range Not Satisfiable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
                return
            status = "206 Partial Content"
        body = data[start:]
        head = (
            f"HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\n"
            f'ETag: "{file.sha256}"\r\nX-Repo-Commit: {COMMIT}\r\nContent-Length: {len(body)}\r\n'
            + (f"Content-Range: bytes {start}-{len(data) - 1}/{len(data)}\r\n" if start else "")
            + "Connection: close\r\n\r\n"
        )
        await exchange.write_raw(head.encode())
        if request.method == "HEAD":
            return
        if self.cut_after is not None:
            cut, self.cut_after = self.cut_after, None
            await exchange.write_raw(body[:cut])
            exchange.drop()
            return
        if self.gate_after is not None:
            await exchange.write_raw(body[: self.gate_after])
            self.at_gate.set()
            await asyncio.get_running_loop().run_in_executor(None, self.gate.wait)
            body = body[self.gate_after :]
        await exchange.write_raw(body)
