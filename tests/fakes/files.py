"""A loopback server for downloads: `files` maps a path to the bytes it serves; anything else
is a 404. `lie_about_length` sends a Content-Length smaller than the body is."""

from __future__ import annotations

from tests.fakes.httpserver import Exchange, Request, ScriptedHTTPServer


class FileServer(ScriptedHTTPServer):
    def __init__(self, files: dict[str, bytes] | None = None) -> None:
        super().__init__()
        self.files: dict[str, bytes] = dict(files or {})
        self.omit_length = False

    async def respond(self, request: Request, exchange: Exchange) -> None:
        data = self.files.get(request.path)
        if data is None:
            await exchange.send(404, "not found")
            return
        length = "" if self.omit_length else f"Content-Length: {len(data)}\r\n"
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n{length}"
                "Connection: close\r\n\r\n").encode("latin-1")
        await exchange.write_raw(head + data)
