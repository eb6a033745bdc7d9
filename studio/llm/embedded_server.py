"""Run llama.cpp's server (the `xllamacpp` package, a dependency of the studio) on one GGUF file, in its own
process so the app can stop it cleanly:

    python -m studio.llm.embedded_server --model PATH --port N [--ctx-size 4096] [--threads N]
        [--chat-template-file FILE]

It prints `listening on URL` once the server is up, then serves until it gets SIGTERM or SIGINT,
or until its standard input closes (the app that started it has gone).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

EXIT_NO_ENGINE = 3
EXIT_START_FAILED = 4


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m studio.llm.embedded_server")
    parser.add_argument("--model", required=True, type=Path, help="the GGUF model file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", required=True, type=int)
    parser.add_argument("--ctx-size", type=int, default=4096, help="context length in tokens")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0: llama.cpp decides)")
    parser.add_argument("--chat-template-file", type=Path, help="a Jinja chat template to use")
    return parser


def engine_problem() -> str | None:
    """Why the embedded engine cannot run in this Python, in words a user can act on; None when it
    can. Importing is the test: a package that is installed can still fail to load its library."""
    try:
        importlib.import_module("xllamacpp")
    except ModuleNotFoundError as exc:
        if exc.name != "xllamacpp":
            return f"The embedded engine (package xllamacpp) cannot load: {exc}."
        return ("The embedded engine (llama.cpp's server, package xllamacpp) is not installed in "
                f"the Python the studio runs on ({sys.executable}). Install it with "
                f"`{sys.executable} -m pip install xllamacpp`, or reinstall the studio.")
    except (ImportError, OSError) as exc:
        return (f"The embedded engine (package xllamacpp) is installed but cannot load: {exc}. "
                f"Reinstall it with `{sys.executable} -m pip install --force-reinstall xllamacpp`.")
    return None


def _watch_stdin(stop: threading.Event) -> None:
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    stop.set()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    problem = engine_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_NO_ENGINE
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(args.model)
    params.hostnames = [args.host]
    params.port = args.port
    params.n_ctx = args.ctx_size
    params.n_parallel = 1
    if args.threads > 0:
        params.cpuparams.n_threads = args.threads
        params.cpuparams_batch.n_threads = args.threads
    if args.chat_template_file is not None:
        params.chat_template = args.chat_template_file.read_text(encoding="utf-8")
    try:
        server = xllamacpp.Server(params)
    except RuntimeError as exc:
        print(f"llama.cpp could not start: {exc}", file=sys.stderr)
        return EXIT_START_FAILED
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    threading.Thread(target=_watch_stdin, args=(stop,), daemon=True).start()
    print(f"listening on {server.listening_address}", flush=True)
    # A timed wait keeps the main thread returning to Python, where signal handlers run.
    while not stop.wait(0.5):
        pass
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main())
