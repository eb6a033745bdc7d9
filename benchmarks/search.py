"""Time `studio search` over a large library and measure how often it finds what a need describes.

    python benchmarks/search.py [--count 8000] [--public DIR] [--index FILE] [--no-check]
        [--embed-backend local | --embed-model M [--embed-backend ollama|openai] [--embed-url U]]

1. Speed: generates `--count` skills (benchmarks/corpus.py) beside the shipped skills and the
   `--public` collection, builds the index (timed, cold), updates it again with nothing changed
   (timed), embeds every skill when an embedding model is given (timed; `--index FILE` keeps the
   index and its vectors for the next run, which then embeds nothing), then times every quality
   query below against the whole library in each ranking (median, worst).
   Target: a query answers in under 100 ms once indexed.
2. Quality: paraphrased needs (not the skills' own words) for the shipped skills, and, with
   `--public DIR` (a checkout of github.com/anthropics/skills, its `skills/` folder), for those,
   searched over the whole library; reports the top-5 hit rate of the lexical ranking, and with an
   embedding model also of the semantic ranking alone and the fused one.
Exits 1 when the median query of any ranking takes 100 ms or more (`--no-check` only prints).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from corpus import generate_corpus

from studio.agent import search_embedder_for
from studio.llm import EMBED_BACKENDS
from studio.skills.scan import SkillRoot
from studio.skills.scan.roots import scan_library
from studio.skills.search import Embedder, EmbeddingError, SearchIndex, SearchOutcome

SHIPPED = Path(__file__).resolve().parent.parent / "skills"

# A need as a user would say it, and the skill that answers it. No query repeats the skill's name,
# and none is built from its description's telling words: each says what the person wants done.
SHIPPED_QUERIES = (
    ("summarise what changed since the last version for the release notes", "changelog-writer"),
    ("is my git message written the right way", "commit-message-lint"),
    ("what kinds of values are in each column of this exported table", "csv-profiler"),
    ("does this config file follow the structure it is supposed to", "json-schema-check"),
    ("add a list of sections with links at the top of my readme", "markdown-toc"),
    ("is my documentation too hard for people to understand", "readability-check"),
    ("how many kilometres is 26 miles", "unit-convert"),
    ("what is 100 fahrenheit in celsius", "unit-convert"),
    ("group the commits since the previous tag into fixed and added", "changelog-writer"),
    ("find duplicate and missing values in my data export", "csv-profiler"),
    ("tell users what is new in version 2.0", "changelog-writer"),
    ("my reviewer says the first line of my git log entry is too long and vague", "commit-message-lint"),
    ("why is the request body I send refused as not matching its contract", "json-schema-check"),
    ("the clickable overview of chapters at the start of my docs page is out of date", "markdown-toc"),
    ("would a twelve year old follow this paragraph", "readability-check"),
    ("how many grams are in three pounds of flour", "unit-convert"),
)
PUBLIC_QUERIES = (
    ("generative art with code and random seeds", "algorithmic-art"),
    ("use our company's colours and fonts", "brand-guidelines"),
    ("design a poster as an image", "canvas-design"),
    ("help me write a technical proposal together", "doc-coauthoring"),
    ("edit a word processor document with tracked changes", "docx"),
    ("write the weekly status update for leadership", "internal-comms"),
    ("build a server that exposes tools to a language model", "mcp-builder"),
    ("merge two pdfs and extract the tables", "pdf"),
    ("make a slide deck for my pitch", "pptx"),
    ("animated reaction image for our chat app", "slack-gif-creator"),
    ("check my local web app's buttons work in a browser", "webapp-testing"),
    ("add formulas to an excel workbook", "xlsx"),
    ("package a new capability for the agent", "skill-creator"),
    ("apply a consistent visual style to my report", "theme-factory"),
    ("thousands of dots drifting along swirling currents, drawn by a program", "algorithmic-art"),
    ("make this one-pager look like it came from our marketing team", "brand-guidelines"),
    ("an abstract wall print for the office in a minimalist style", "canvas-design"),
    ("show the answer word by word when calling Opus from python", "claude-api"),
    ("how much would my chatbot cost per month on Anthropic's cheapest model", "claude-api"),
    ("work through an architecture write-up with me one part at a time", "doc-coauthoring"),
    ("my contract needs our logo at the top and numbered pages", "docx"),
    ("make my landing page look less generic", "frontend-design"),
    ("choose fonts and a bold look for a new dashboard", "frontend-design"),
    ("announce the outage postmortem to all staff", "internal-comms"),
    ("let the assistant call our ticketing system's endpoints", "mcp-builder"),
    ("pull the words out of a photocopied contract so I can find things in it", "pdf"),
    ("turn these bullet points into something I can show on a projector", "pptx"),
    ("a short looping clip of a dancing cat for a team channel", "slack-gif-creator"),
    ("give all my documents the same palette and lettering", "theme-factory"),
    ("an elaborate interactive web widget with several screens to show inside the chat",
     "web-artifacts-builder"),
    ("a complex browser mini app for the conversation, with a modern widget library",
     "web-artifacts-builder"),
    ("click through my site's login flow automatically and see what it prints to the console",
     "webapp-testing"),
    ("sum each month's sales in my sheet and plot them", "xlsx"),
    ("my agent's add-on rarely gets picked when it should; make it get chosen more", "skill-creator"),
)
TOP = 5


def _hit(outcome: SearchOutcome, wanted: str) -> bool:
    return wanted in [hit.name for hit in outcome.hits[:TOP]]


def _ask(index: SearchIndex, queries: list[tuple[str, str]], label: str,
         run: Callable[[str], SearchOutcome]) -> tuple[int, list[float]]:
    """How many queries find their skill in the top 5, and how long each took."""
    hits = 0
    times: list[float] = []
    for query, wanted in queries:
        started = time.perf_counter()
        outcome = run(query)
        times.append(time.perf_counter() - started)
        if outcome.note is not None and label != "lexical":
            raise SystemExit(f"the {label} ranking fell back: {outcome.note}")
        if _hit(outcome, wanted):
            hits += 1
        else:
            print(f"  {label} miss: {query!r} ({wanted}) -> {[h.name for h in outcome.hits]}")
    return hits, times


def _embedder(args: argparse.Namespace) -> Embedder | None:
    if not args.embed_model and args.embed_backend != "local":
        return None
    try:
        return search_embedder_for(args.embed_backend, args.embed_model, args.embed_url, 600)
    except ValueError as exc:
        raise SystemExit(f"benchmarks/search.py: {exc}") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=8000)
    parser.add_argument("--public", type=Path, default=None,
                        help="a folder of public skills (anthropics/skills' skills/)")
    parser.add_argument("--index", type=Path, default=None,
                        help="keep the index (and the vectors) in this file between runs")
    parser.add_argument("--embed-model", default="")
    parser.add_argument("--embed-url", default="http://127.0.0.1:11434")
    parser.add_argument("--embed-backend", choices=EMBED_BACKENDS, default="ollama")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    embedder = _embedder(args)
    queries = list(SHIPPED_QUERIES) + (list(PUBLIC_QUERIES) if args.public else [])
    timings: dict[str, list[float]] = {}
    found: dict[str, int] = {}
    embedding = ""
    with tempfile.TemporaryDirectory() as scratch:
        generated = Path(scratch) / "generated"
        generate_corpus(generated, args.count)
        roots = [SkillRoot(generated), SkillRoot(SHIPPED)] + ([SkillRoot(args.public)] if args.public else [])
        skills = [s for scan in scan_library(roots) for s in scan.skills]
        with SearchIndex(args.index or Path(scratch) / "index.sqlite3") as index:
            started = time.perf_counter()
            index.update(skills)
            cold = time.perf_counter() - started
            started = time.perf_counter()
            index.update(skills)
            warm = time.perf_counter() - started
            rankings: list[tuple[str, Callable[[str], SearchOutcome]]] = [
                ("lexical", lambda query: index.search(query, TOP)),
            ]
            if embedder is not None:
                started = time.perf_counter()
                try:
                    count = index.embed(embedder, lambda done, total: print(
                        f"  embedded {done}/{total} in {time.perf_counter() - started:.0f} s", flush=True))
                except EmbeddingError as exc:
                    raise SystemExit(f"benchmarks/search.py: {exc.user_message}") from None
                embedding = (f"embedding {count} skills with {embedder.label}: "
                             f"{time.perf_counter() - started:.1f} s\n")
                rankings += [
                    ("semantic", lambda query: index.search(query, TOP, embedder, semantic_only=True)),
                    ("fused", lambda query: index.search(query, TOP, embedder)),
                ]
            for label, run in rankings:
                found[label], timings[label] = _ask(index, queries, label, run)
    print(f"library: {len(skills)} skills ({args.count} generated, shipped"
          f"{', public' if args.public else ''}); {len(queries)} queries")
    print(f"index build (cold): {cold:.2f} s; update with nothing changed: {warm * 1000:.0f} ms")
    print(embedding, end="")
    slow = []
    for label, times in timings.items():
        median = statistics.median(times) * 1000
        slow += [label] if median >= 100 else []
        print(f"{label:>8}: top-{TOP} {found[label]}/{len(queries)} = {found[label] / len(queries):.0%}; "
              f"query median {median:.1f} ms, worst {max(times) * 1000:.1f} ms")
    if embedder is None:
        print("semantic and fused: not measured (no embedding model: --embed-backend local, or "
              "--embed-model)")
    if not args.no_check and slow:
        print(f"FAIL: the median {', '.join(slow)} query takes 100 ms or more", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
