"""A download server that never finishes: after its headers it sends `size` bytes every `every`
seconds (a trickle, or a steady stream that outlasts a deadline), or nothing at all (`silent`),
until the client hangs up. Used by the install tests and benchmarks/install_limits.py."""

from __future__ import annotations

from tests.fakes.httpserver import Exchange, Request, ScriptedHTTPServer


class TrickleServer(ScriptedHTTPServer):
    def __init__(self, every: float = 0.05, size: int = 1, *, silent: bool = False) -> None:
        super().__init__()
        self.every = every
        self.size = size
        self.silent = silent

    async def respond(self, request: Request, exchange: Exchange) -> None:
        head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\n"
                b"Content-Length: 10000000\r\nConnection: close\r\n\r\n")
        # Ends only when the client hangs up (ClientGone, which sets `disconnected`).
        await exchange.write_raw(head)
        if self.silent:
            await exchange.hang()
        while True:
            await exchange.write_raw(b"P" * self.size)
            await exchange.pause(self.every)
