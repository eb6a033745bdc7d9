"""Time `studio search` over a large library and measure how often it finds what a need describes.

    python benchmarks/search.py [--count 8000] [--public DIR] [--embed-model M [--embed-url U]
                                [--embed-backend ollama|openai]] [--no-check]

1. Speed: generates `--count` skills (benchmarks/corpus.py) beside the shipped skills and the
   `--public` collection, builds the index (timed, cold), updates it again with nothing changed
   (timed), then times every quality query below against the whole library (median, worst).
   Target: a query answers in under 100 ms once indexed.
2. Quality: paraphrased needs (not the skills' own words) for the shipped skills, and, with
   `--public DIR` (a checkout of github.com/anthropics/skills, its `skills/` folder), for those,
   searched over the whole library; reports the top-5 hit rate of the lexical ranking, and with an
   embedding model also of the semantic ranking alone and the fused one.
Exits 1 when the median query takes 100 ms or more (`--no-check` only prints).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from corpus import generate_corpus

from studio.llm.embeddings import EmbeddingEndpoint
from studio.skills.library import SkillRoot, scan_library
from studio.skills.search import SearchIndex, SearchOutcome

SHIPPED = Path(__file__).resolve().parent.parent / "skills"

# A need as a user would say it, and the skill that answers it. No query repeats the skill's name.
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
)
TOP = 5


def _hit(outcome: SearchOutcome, wanted: str) -> bool:
    return wanted in [hit.name for hit in outcome.hits[:TOP]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=8000)
    parser.add_argument("--public", type=Path, default=None,
                        help="a folder of public skills (anthropics/skills' skills/)")
    parser.add_argument("--embed-model", default="")
    parser.add_argument("--embed-url", default="http://127.0.0.1:11434")
    parser.add_argument("--embed-backend", choices=("ollama", "openai"), default="ollama")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    queries = list(SHIPPED_QUERIES) + (list(PUBLIC_QUERIES) if args.public else [])
    with tempfile.TemporaryDirectory() as scratch:
        generated = Path(scratch) / "generated"
        generate_corpus(generated, args.count)
        roots = [SkillRoot(generated), SkillRoot(SHIPPED)] + ([SkillRoot(args.public)] if args.public else [])
        skills = [s for scan in scan_library(roots) for s in scan.skills]
        with SearchIndex(Path(scratch) / "index.sqlite3") as index:
            started = time.perf_counter()
            index.update(skills)
            cold = time.perf_counter() - started
            started = time.perf_counter()
            index.update(skills)
            warm = time.perf_counter() - started
            times: list[float] = []
            lexical_hits = 0
            for query, wanted in queries:
                started = time.perf_counter()
                outcome = index.search(query, TOP)
                times.append(time.perf_counter() - started)
                lexical_hits += _hit(outcome, wanted)
                if not _hit(outcome, wanted):
                    print(f"  lexical miss: {query!r} -> {[h.name for h in outcome.hits]}")
            semantic_line = "semantic and fused: not measured (no --embed-model)"
            if args.embed_model:
                endpoint = EmbeddingEndpoint(args.embed_backend, args.embed_url, args.embed_model, 600)
                fused_hits = 0
                for query, wanted in queries:
                    fused_hits += _hit(index.search(query, TOP, endpoint), wanted)
                semantic_line = f"fused top-{TOP}: {fused_hits}/{len(queries)}"
    median = statistics.median(times) * 1000
    print(f"library: {len(skills)} skills ({args.count} generated, shipped"
          f"{', public' if args.public else ''})")
    print(f"index build (cold): {cold:.2f} s; update with nothing changed: {warm * 1000:.0f} ms")
    print(f"query: median {median:.1f} ms, worst {max(times) * 1000:.1f} ms over {len(times)} queries"
          " (target: under 100 ms)")
    print(f"lexical top-{TOP}: {lexical_hits}/{len(queries)} = {lexical_hits / len(queries):.0%}")
    print(semantic_line)
    if not args.no_check and median >= 100:
        print("FAIL: the median query takes 100 ms or more", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
