"""How long making tool output safe to show takes: 1 MB of `ls -l`-like lines, plain, coloured
with ANSI escapes (a marker for every ESC) and with Windows line ends.

    python benchmarks/text_show.py [--megabytes N] [--runs N]

Prints the best of --runs for `shown` (commands, names), `shown_prose` (answers, tool output) and
`ProseStream` fed 4 KiB pieces, per kind of text.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from studio.textshow import ProseStream, shown, shown_prose

LINE = "drwxr-xr-x  2 user user  4096 Dec  7 02:47 some-file-name.txt  résumé 日本\n"


def _streamed(text: str) -> str:
    stream = ProseStream()
    pieces = [stream.feed(text[start:start + 4096]) for start in range(0, len(text), 4096)]
    return "".join(pieces) + stream.end()


def _best(function: Callable[[str], str], text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        function(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    plain = LINE * int(args.megabytes * 1_000_000 // len(LINE))
    texts = {
        "plain": plain,
        "ANSI colours": plain.replace("4096", "\x1b[31m4096\x1b[0m"),
        "CR LF line ends": plain.replace("\n", "\r\n"),
    }
    for kind, text in texts.items():
        figures = ", ".join(
            f"{name} {_best(function, text, args.runs) * 1000:.1f} ms"
            for name, function in (("shown", shown), ("shown_prose", shown_prose),
                                   ("ProseStream", _streamed))
        )
        print(f"{kind} ({len(text) / 1e6:.2f} M characters): {figures}")


if __name__ == "__main__":
    main()
