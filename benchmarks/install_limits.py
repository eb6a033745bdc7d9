"""`studio install` against three hostile sources: how long until it ends, how much memory the
install process took at its peak, and whether anything was left behind.

    python benchmarks/install_limits.py [--entries 2000000] [--only trickle,pax,pax4,entries]

1. **trickle**: a server on 127.0.0.1 that sends its headers, then one byte every 5 s. The
   install must give up at the minimum rate (1 KB/s over 30 s), well within its 120 s deadline.
2. **pax** / **pax4**: a tar.gz whose first entry is a PAX header of 1 MB (4 MB), its records
   held whole (Python's tarfile read these into 3.2 GB; the 4 MB one died with MemoryError).
3. **entries**: a tar.gz of `--entries` empty files (2,000,000: it was refused after 63 s and
   1.9 GB). Built once into the temp folder (it takes a while: about a gigabyte of headers).

Each runs `python -m studio install URL --into DIR` as a child with its own data folders; the
peak RSS is the child's own (`os.wait4`), the time its wall time. "Left behind" lists whatever
the install folder holds afterwards (it must be empty: no skill, no scratch folder).
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import os
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import ClassVar

REPO = Path(__file__).resolve().parent.parent


class _Handler(http.server.BaseHTTPRequestHandler):
    files: ClassVar[dict[str, Path]] = {}
    trickle_every = 5.0

    def do_GET(self) -> None:
        if self.path == "/trickle.zip":
            self.send_response(200)
            self.send_header("Content-Length", "10000000")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"P")
                    self.wfile.flush()
                    time.sleep(self.trickle_every)
            except OSError:
                return
        path = self.files.get(self.path)
        if path is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(path.stat().st_size))
        self.end_headers()
        try:
            with open(path, "rb") as handle:
                while chunk := handle.read(1 << 16):
                    self.wfile.write(chunk)
        except OSError:
            return

    def log_message(self, format: str, *args: object) -> None:
        pass


def pax_bomb(path: Path, held: int) -> None:
    info = tarfile.TarInfo("././@PaxHeader")
    info.size = held
    info.type = tarfile.XHDTYPE
    record = b"%d path=" % held
    record += b"a" * (held - len(record) - 1) + b"\n"
    with gzip.open(path, "wb") as out:
        out.write(info.tobuf(tarfile.GNU_FORMAT) + record + bytes(-held % 512) + bytes(1024))


def many_entries(path: Path, count: int) -> None:
    template = bytearray(tarfile.TarInfo("x" * 20).tobuf(tarfile.USTAR_FORMAT))
    with gzip.open(path, "wb", compresslevel=6) as out:
        batch: list[bytes] = []
        for number in range(count):
            header = bytearray(template)
            header[0:100] = f"pack/f{number:013d}".encode().ljust(100, b"\0")
            header[148:156] = b" " * 8
            header[148:156] = b"%06o\0 " % sum(header)
            batch.append(bytes(header))
            if len(batch) == 10000:
                out.write(b"".join(batch))
                batch.clear()
        out.write(b"".join(batch) + bytes(1024))


def run_install(url: str, work: Path, name: str) -> tuple[float, int, int, str, list[str]]:
    into = work / f"into-{name}"
    into.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO), "STUDIO_DATA_DIR": str(work / "data"),
           "STUDIO_CONFIG_DIR": str(work / "config"), "STUDIO_CACHE_DIR": str(work / "cache")}
    err_path = work / f"{name}.stderr"
    start = time.monotonic()
    with open(err_path, "wb") as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "studio", "install", url, "--into", str(into)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env)
        # wait4, not wait: the child's own peak memory, not the largest of every child so far.
        _pid, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    child.returncode = code = os.waitstatus_to_exitcode(status)
    said = err_path.read_text("utf-8", "replace").strip().splitlines()
    left = sorted(str(p.relative_to(into)) for p in into.rglob("*"))
    return seconds, usage.ru_maxrss, code, said[-1] if said else "", left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2_000_000)
    parser.add_argument("--only", default="trickle,pax,pax4,entries")
    args = parser.parse_args()
    wanted = args.only.split(",")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        files: dict[str, Path] = {}
        if "pax" in wanted:
            pax_bomb(work / "pax.tar.gz", 1 << 20)
            files["/pax.tar.gz"] = work / "pax.tar.gz"
        if "pax4" in wanted:
            pax_bomb(work / "pax4.tar.gz", 4 << 20)
            files["/pax4.tar.gz"] = work / "pax4.tar.gz"
        if "entries" in wanted:
            built = time.monotonic()
            many_entries(work / "entries.tar.gz", args.entries)
            size = (work / "entries.tar.gz").stat().st_size
            print(f"built {args.entries:,} entries: {size / 1e6:.1f} MB compressed "
                  f"in {time.monotonic() - built:.1f} s")
        if "entries" in wanted:
            files["/entries.tar.gz"] = work / "entries.tar.gz"
        _Handler.files = files
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        print(f"{'case':<9} {'exit':>4} {'time':>8} {'peak RSS':>10}  left behind / message")
        for name in wanted:
            url = f"{base}/{'trickle.zip' if name == 'trickle' else name + '.tar.gz'}"
            seconds, peak_kib, code, said, left = run_install(url, work, name)
            print(f"{name:<9} {code:>4} {seconds:>7.1f}s {peak_kib / 1024:>8.0f} MB  "
                  f"{left or 'nothing'}\n{'':<35}{said}")
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
