"""How the chat pane keeps up with a streaming answer: 2,000 tokens of Markdown at 200 tokens/s.

    python benchmarks/chat_render.py [--tokens N] [--rate R] [--history N] [--no-check]

Opens the real chat pane offscreen (with a chat of --history earlier messages already shown) and
sends a prompt. The model is a paced stand-in for a server: it yields one token of a Markdown
document (headings, lists, tables, code) every 1/R seconds, and everything after it is the real
path: the agent loop, the session mapping events to the transcript, the throttled renderer. It
reports:

- the GUI thread's longest stall: the worst lateness of a 5 ms QTimer while the answer streams
  (target: under 50 ms);
- arrival-to-paint latency: from the moment a token leaves the model to the first paint of the
  answer's view that shows it (median, 95th percentile, worst);
- how often the answer was rendered, and how long one render took.

Exits 1 when the longest stall is 50 ms or more, unless --no-check.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from offscreen import offscreen_app

TARGET_STALL_MS = 50.0
TICK_MS = 5

SECTION = """\
## Step {n}: profile the columns

The script reads the file in **chunks** of `{size}` rows, so memory stays flat even for large
inputs. Each column gets a type guess, a count of empty cells and the *most common* values.

- Numbers: minimum, maximum, mean and the share of values that are not numbers.
- Dates: the earliest and the latest, with the formats that were seen.
- Text: the longest value, and how many distinct values there are.

```python
def profile(path: str, chunk: int = {size}) -> dict[str, Column]:
    columns: dict[str, Column] = {{}}
    for frame in read_chunks(path, chunk):
        for name, values in frame.items():
            column = columns.setdefault(name, Column(name))
            column.add(values)
    return columns
```

| Column | Type | Empty | Distinct |
|--------|------|-------|----------|
| id | integer | 0 | {size} |
| email | text | 12 | 9,881 |
| signed_up | date | 3 | 1,204 |

> Tip: pass `--sample 1000` to look at a sample first; it is {n}x faster on this file.

"""


def document(tokens: int) -> list[str]:
    """At least `tokens` tokens of Markdown, split the way a model's tokens come: short pieces of
    words with their leading spaces."""
    pieces: list[str] = []
    n = 1
    while len(pieces) < tokens:
        text = SECTION.format(n=n, size=1000 * n)
        for word in re.findall(r"\s*\S+|\s+", text):
            while len(word) > 5:
                pieces.append(word[:4])
                word = word[4:]
            pieces.append(word)
        n += 1
    return pieces[:tokens]


def history_messages(count: int) -> list[Any]:
    from studio.chats import StoredMessage

    messages = []
    for n in range(count):
        if n % 2 == 0:
            messages.append(StoredMessage("user", f"Question {n}: how do I profile file {n}.csv?"))
        else:
            messages.append(StoredMessage("assistant", SECTION.format(n=n, size=500)))
    return messages


class PacedModel:
    """A stand-in model server: `chat` streams the document's tokens at a fixed rate, on an
    absolute schedule (a late token does not delay the next), and notes when each one left."""

    backend_name = "bench"
    base_url = "bench://paced"

    def __init__(self, tokens: list[str], rate: float) -> None:
        self.tokens = tokens
        self.rate = rate
        self.sent_at: list[float] = []

    async def list_models(self) -> list[Any]:
        from studio.llm import ModelInfo

        return [ModelInfo("paced", True, False)]

    async def model_info(self, name: str) -> Any:
        from studio.llm import ModelInfo

        return ModelInfo(name, True, False)

    async def context_length(self, model: str) -> int | None:
        return None  # as a server that does not say: the catalog is not trimmed

    async def chat(self, model: str, messages: Sequence[Any], tools: Any = None, think: bool = False,
                   tool_choice: str | None = None,
                   options: dict[str, Any] | None = None) -> AsyncIterator[Any]:
        from studio.llm import StreamEnd, TextChunk

        start = time.perf_counter()
        for index, token in enumerate(self.tokens):
            delay = start + index / self.rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            self.sent_at.append(time.perf_counter())
            yield TextChunk(token)
        yield StreamEnd("stop", {"completion_tokens": len(self.tokens)})

    async def aclose(self) -> None:
        return None


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def measure(tokens: int, rate: float, history: int) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="chat-render-"))
    app = offscreen_app(scratch)

    import qasync
    from PySide6.QtCore import QEvent, QObject, QTimer

    from studio.settings import SettingsStore
    from studio.ui.chat.backend import ModelChoice
    from studio.ui.chat.pane import ChatPane
    from studio.ui.chat.transcript import MessageView

    pieces = document(tokens)
    ends: list[int] = []
    total = 0
    for piece in pieces:
        total += len(piece)
        ends.append(total)
    model = PacedModel(pieces, rate)
    render_seconds: list[float] = []
    painted_at: list[float | None] = [None] * len(pieces)

    original_render = MessageView.render_now

    def timed_render(view: MessageView) -> None:
        started = time.perf_counter()
        original_render(view)
        render_seconds.append(time.perf_counter() - started)

    MessageView.render_now = timed_render  # type: ignore[method-assign, assignment]

    class PaintWatch(QObject):
        """Notes, at each paint of the answer's view, which tokens that paint shows."""

        view: MessageView | None = None
        shown = 0

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            view = self.view
            if (event.type() == QEvent.Type.Paint and view is not None
                    and any(watched is segment.viewport() for segment in view.segments[-2:])):
                now = time.perf_counter()
                while self.shown < len(ends) and ends[self.shown] <= view.rendered_chars:
                    painted_at[self.shown] = now
                    self.shown += 1
            return False

    watch = PaintWatch()
    app.installEventFilter(watch)

    async def run() -> dict[str, Any]:
        store = SettingsStore(scratch / "settings.yaml")
        pane = ChatPane(store)
        pane.resize(430, 860)
        pane.show()

        async def list_models(gguf_path: str = "", folders: Sequence[str] = ()) -> list[ModelChoice]:
            return [ModelChoice("paced", "paced", True, False)]

        async def open_client(name: str) -> tuple[Any, str]:
            return model, name

        pane.model_bar.backend.list_models = list_models  # type: ignore[method-assign]
        pane.model_bar.backend.server.open = open_client  # type: ignore[method-assign, assignment]
        await pane.model_bar.refresh_models()
        pane.transcript.show_messages(history_messages(history))
        pane.transcript.scroll_to_end()
        await asyncio.sleep(0.3)

        ticks: list[float] = []
        timer = QTimer()
        timer.setInterval(TICK_MS)
        timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
        task = pane.send("Write a guide to profiling a CSV file, with code and a table.")
        assert task is not None
        while not pane.transcript.answers()[history // 2:]:
            await asyncio.sleep(0.001)
        watch.view = pane.transcript.answers()[-1].body
        render_seconds.clear()
        timer.start()
        started = time.perf_counter()
        await task
        streamed = time.perf_counter() - started
        await asyncio.sleep(0.2)
        timer.stop()
        stalls = [(b - a) * 1000 - TICK_MS for a, b in itertools.pairwise(ticks)]
        latencies = [(painted - sent) * 1000 for sent, painted in zip(model.sent_at, painted_at,
                                                                       strict=True)
                     if painted is not None]
        answer = pane.transcript.answers()[-1]
        figures = {
            "tokens": len(pieces),
            "characters": len(answer.text),
            "history": history,
            "streamed_s": streamed,
            "longest_stall_ms": max(stalls, default=0.0),
            "p99_stall_ms": percentile(stalls, 0.99),
            "latency_median_ms": statistics.median(latencies) if latencies else float("nan"),
            "latency_p95_ms": percentile(latencies, 0.95),
            "latency_max_ms": max(latencies, default=float("nan")),
            "painted": len(latencies),
            "renders": len(render_seconds),
            "render_median_ms": statistics.median(render_seconds) * 1000,
            "render_max_ms": max(render_seconds) * 1000,
            "complete": answer.text == "".join(pieces),
        }
        await pane.shutdown()
        return figures

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        return runner.run(run())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tokens", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=200.0, help="tokens per second")
    parser.add_argument("--history", type=int, default=40,
                        help="earlier messages already in the chat (default: %(default)s)")
    parser.add_argument("--no-check", action="store_true", help="print only; never fail")
    args = parser.parse_args(argv)
    figures = measure(args.tokens, args.rate, args.history)
    rows = [
        ("tokens streamed", f"{figures['tokens']:,} ({figures['characters']:,} characters)"),
        ("rate", f"{args.rate:g} tokens/s, over {figures['streamed_s']:.2f} s"),
        ("earlier messages shown", f"{figures['history']}"),
        ("longest GUI stall", f"{figures['longest_stall_ms']:.1f} ms (target < {TARGET_STALL_MS:g})"),
        ("99th percentile stall", f"{figures['p99_stall_ms']:.1f} ms"),
        ("arrival to paint, median", f"{figures['latency_median_ms']:.1f} ms"),
        ("arrival to paint, 95th pct", f"{figures['latency_p95_ms']:.1f} ms"),
        ("arrival to paint, worst", f"{figures['latency_max_ms']:.1f} ms"),
        ("tokens seen painted", f"{figures['painted']:,} of {figures['tokens']:,}"),
        ("renders of the answer", f"{figures['renders']:,}"),
        ("one render, median / worst", f"{figures['render_median_ms']:.1f} / "
                                       f"{figures['render_max_ms']:.1f} ms"),
        ("answer complete", "yes" if figures["complete"] else "NO"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    failed = figures["longest_stall_ms"] >= TARGET_STALL_MS or not figures["complete"]
    if failed and not args.no_check:
        print(f"FAIL: the GUI thread stalled {figures['longest_stall_ms']:.1f} ms "
              f"(target under {TARGET_STALL_MS:g} ms) or the answer was incomplete", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
