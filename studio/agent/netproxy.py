"""The network by host: a small HTTP proxy of the studio's that a sandbox without network reaches
through a Unix socket bound into it, and that lets through only the hosts the user granted.

Inside, the sandbox's launcher listens on a loopback port and forwards each connection to the
socket; `HTTP_PROXY` and `HTTPS_PROXY` point at that port, so curl, pip, git over HTTPS and
Python's urllib all go through it. The proxy understands `CONNECT host:port` (HTTPS and any
TLS) and plain HTTP with an absolute URL; everything else is refused. Every connection, let
through or refused, is reported to `on_connection` (the audit log).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

ANY_HOST = "*"
# Where the socket appears inside the sandbox.
INSIDE_SOCKET = "/run/studio-proxy.sock"
_HEAD_LIMIT = 64 * 1024
_HEAD_TIMEOUT = 30.0
_CONNECT_TIMEOUT = 30.0

OnConnection = Callable[[str, int, bool], None]


def normalize_host(host: str) -> str:
    """A host as grants hold it: lower case, no brackets, no trailing dot."""
    return host.strip().strip("[]").rstrip(".").lower()


def host_allowed(host: str, granted: Iterable[str]) -> bool:
    """Whether `host` is one of `granted`: a name, `*.example.com` for its subdomains, or `*`."""
    name = normalize_host(host)
    for grant in granted:
        rule = normalize_host(grant)
        if rule in (ANY_HOST, name):
            return True
        if rule.startswith("*.") and name.endswith(rule[1:]):
            return True
    return False


def _split_authority(authority: str, default_port: int) -> tuple[str, int] | None:
    try:
        parts = urlsplit(f"//{authority}")
        return (parts.hostname or "", parts.port or default_port) if parts.hostname else None
    except ValueError:
        return None


class HostProxy:
    """A proxy on a Unix socket in a private folder, for one run.

    Attributes:
        hosts: the granted hosts (`*` for any).
        socket_path: where it listens, once started.
    """

    def __init__(self, hosts: Iterable[str], on_connection: OnConnection | None = None) -> None:
        self.hosts = tuple(hosts)
        self.on_connection = on_connection
        self._folder: Path | None = None
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def socket_path(self) -> Path:
        assert self._folder is not None, "the proxy is not started"
        return self._folder / "proxy.sock"

    async def __aenter__(self) -> HostProxy:
        self._folder = Path(tempfile.mkdtemp(prefix="studio-proxy-"))
        self._server = await asyncio.start_unix_server(self._serve, str(self.socket_path))
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            await self._server.wait_closed()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def _record(self, host: str, port: int, allowed: bool) -> None:
        if self.on_connection is not None:
            self.on_connection(host, port, allowed)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _HEAD_TIMEOUT)
        if len(head) > _HEAD_LIMIT:
            await _refuse(writer, 431, "request head too large")
            return
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3:
            await _refuse(writer, 400, "not an HTTP proxy request")
            return
        method, target, version = parts
        tunnel = method.upper() == "CONNECT"
        if tunnel:
            where = _split_authority(target, 443)
            path = ""
        else:
            url = urlsplit(target)
            where = (_split_authority(url.netloc, 80)
                     if url.scheme == "http" and url.netloc else None)
            path = (url.path or "/") + (f"?{url.query}" if url.query else "")
        if where is None:
            await _refuse(writer, 400, f"the proxy takes CONNECT host:port or http:// URLs, "
                          f"not {target!r}")
            return
        host, port = where
        allowed = host_allowed(host, self.hosts)
        self._record(normalize_host(host), port, allowed)
        if not allowed:
            await _refuse(writer, 403, f"{host} is not among the hosts granted to this run")
            return
        try:
            upstream_reader, upstream_writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), _CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            await _refuse(writer, 502, f"cannot reach {host}:{port}: {exc}")
            return
        try:
            if tunnel:
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                await writer.drain()
            else:
                headers = [line for line in lines[1:] if line and not line.lower().startswith(
                    ("proxy-connection:", "proxy-authorization:", "connection:"))]
                request = "\r\n".join([f"{method} {path} {version}", *headers,
                                       "Connection: close", "", ""])
                upstream_writer.write(request.encode("latin-1"))
            await asyncio.gather(_pump(reader, upstream_writer), _pump(upstream_reader, writer))
        finally:
            upstream_writer.close()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
        if sink.can_write_eof():
            sink.write_eof()
    except OSError:
        sink.close()


async def _refuse(writer: asyncio.StreamWriter, status: int, why: str) -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large",
              502: "Bad Gateway"}[status]
    body = f"Skill Studio's sandbox proxy: {why}\n".encode()
    writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\n"
                 f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    await writer.drain()


# Started by the launcher inside the sandbox, before the command: a loopback port that forwards
# each connection to the proxy's socket, in a child of its own with no output of its own.
FORWARDER = """
p=os.environ.pop('STUDIO_PROXY_SOCKET','')
if p:
 import socket,threading
 s=socket.socket();s.bind(('127.0.0.1',0));s.listen(128)
 u='http://127.0.0.1:%d'%s.getsockname()[1]
 if os.fork()==0:
  n=os.open(os.devnull,os.O_RDWR)
  for f in(0,1,2):os.dup2(n,f)
  def pump(x,y):
   try:
    while 1:
     d=x.recv(65536)
     if not d:break
     y.sendall(d)
    y.shutdown(socket.SHUT_WR)
   except OSError:pass
  def serve(c):
   t=socket.socket(socket.AF_UNIX)
   try:t.connect(p)
   except OSError:c.close();return
   h=threading.Thread(target=pump,args=(c,t),daemon=True);h.start();pump(t,c);h.join()
   c.close();t.close()
  while 1:
   c,_=s.accept();threading.Thread(target=serve,args=(c,),daemon=True).start()
 s.close()
 for k in('http_proxy','https_proxy','HTTP_PROXY','HTTPS_PROXY'):os.environ[k]=u
 os.environ['NO_PROXY']=os.environ['no_proxy']=''
"""
