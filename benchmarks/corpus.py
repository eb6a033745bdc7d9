"""A generated library of skills shaped like public collections, the same for every run with the
same seed.

The shape was measured on about 8,000 public skills (issue 15) and every distribution is written
out below, so anyone can check it against `measure_shape`'s print-out:
- 77% of skills carry fields outside the spec: `version`, `author`, `tags`, `requires` most,
  then domain-specific ones (`EXTRA_FIELDS`);
- the body's length: median 5.5 KB, 90th percentile 13.5 KB, 99th 33 KB, largest 144 KB
  (`BODY_BYTES`);
- files per skill, SKILL.md included: median 1, 90th percentile 8, 99th 34, largest about 3,600
  (`FILES_PER_SKILL`);
- 3% sit under a client's dot folder (`.claude/skills`, ...) inside a repository-like folder;
  0.5% have frontmatter no YAML parser accepts.
The other faults real libraries have (bad or mismatched names, over-long or missing descriptions,
CRLF line endings, a byte-order mark) come at the rates of `FAULTS`.

`--layout collection` (`generate_corpus(..., layout="collection")`) writes the same skills in the
folders of a real collection, one `owner--repo` folder per repository, with forks sharing names,
skills with no name and SKILL.md files nested in other skills (`collection.py`, issue 27); the
default, `flat`, writes exactly what it wrote before, so older figures stay comparable.
"""

from __future__ import annotations

import argparse
import bisect
import math
import os
import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

WORDS = (
    "pdf", "csv", "json", "git", "docker", "review", "report", "chart", "lint", "test", "deploy",
    "invoice", "slides", "audit", "schema", "query", "sql", "image", "resize", "translate", "notes",
    "meeting", "summary", "release", "changelog", "api", "client", "budget", "calendar", "email",
)
CATEGORIES = ("data", "docs", "devops", "office", "media", "research", "team")

# Quantiles (cumulative share, value) of each distribution; values between two points are
# interpolated on a log scale, which is how sizes spread.
BODY_BYTES = ((0.0, 300), (0.5, 5_500), (0.9, 13_500), (0.99, 33_000), (1.0, 144_000))
FILES_PER_SKILL = ((0.0, 1), (0.5, 1), (0.9, 8), (0.99, 34), (1.0, 3_600))

UNKNOWN_FIELDS_SHARE = 0.77
# Fields outside the spec and their weights; a skill that has any has one to four of them.
EXTRA_FIELDS = (
    ("version", 40), ("author", 30), ("tags", 25), ("requires", 12), ("category", 6),
    ("triggers", 5), ("platforms", 4), ("dependencies", 4), ("updated", 3), ("homepage", 3),
    ("language", 2), ("difficulty", 2), ("model", 2), ("user-invocable", 2),
)
DOT_FOLDERS = (".claude/skills", ".agents/skills", ".kiro/skills", ".codex/skills",
               ".github/skills", ".cursor/skills")
DOT_FOLDER_SHARE = 0.03
BROKEN_YAML_SHARE = 0.005
# Other faults, each a share of all skills, drawn independently of the above.
FAULTS = (
    ("bad-name", 0.05), ("name-mismatch", 0.03), ("long-description", 0.03),
    ("missing-description", 0.02), ("crlf", 0.05), ("bom", 0.02),
)

PARAGRAPH = (
    "Read the input carefully and check that every required column is present before you start. "
    "When a value is missing, say so and ask the user rather than guessing.\n"
)
VERSIONS = ("1.0", "1.0.0", "2.1", "0.3.2", '"1.2"')
LAYOUTS = ("flat", "collection")
CODE_BLOCK = "```bash\npython scripts/run.py --input data.csv --output report.md\n```\n"


def quantile(points: tuple[tuple[float, int], ...], share: float) -> int:
    """The value at `share` (0 to 1) of a distribution given by its quantile points."""
    shares = [p for p, _ in points]
    index = min(max(bisect.bisect_right(shares, share), 1), len(points) - 1)
    (low_p, low_v), (high_p, high_v) = points[index - 1], points[index]
    if high_p == low_p or low_v == high_v:
        return low_v if share < high_p else high_v
    fraction = (share - low_p) / (high_p - low_p)
    return round(math.exp(math.log(low_v) + fraction * (math.log(high_v) - math.log(low_v))))


@dataclass
class Shape:
    """What a generated corpus holds, measured as it was written."""

    skills: int = 0
    body_bytes: list[int] = field(default_factory=list)
    files: list[int] = field(default_factory=list)
    extra_fields: Counter[str] = field(default_factory=Counter)
    with_extra_fields: int = 0
    under_dot_folders: int = 0
    broken_yaml: int = 0
    faults: Counter[str] = field(default_factory=Counter)

    def report(self) -> str:
        def pct(values: list[int], share: float) -> int:
            ordered = sorted(values)
            return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0

        n = max(self.skills, 1)
        lines = [f"{self.skills:,} skills, {sum(self.files):,} files"]
        for label, values in (("body bytes", self.body_bytes), ("files per skill", self.files)):
            lines.append(
                f"  {label:<16} median {statistics.median(values) if values else 0:,.0f}, "
                f"p90 {pct(values, 0.9):,}, p99 {pct(values, 0.99):,}, max {max(values, default=0):,}"
            )
        top = ", ".join(f"{name} {count:,}" for name, count in self.extra_fields.most_common(6))
        lines.append(f"  fields outside the spec: {self.with_extra_fields / n:.1%} of skills ({top})")
        lines.append(f"  under client dot folders: {self.under_dot_folders / n:.1%}; "
                     f"frontmatter no YAML parser reads: {self.broken_yaml / n:.1%}")
        lines.append("  other faults: " + ", ".join(
            f"{kind} {count:,}" for kind, count in sorted(self.faults.items())))
        return "\n".join(lines)


def _description(rng: random.Random, words: list[str]) -> str:
    what = f"Works with {' and '.join(words)} files; reads them, checks them and writes a summary."
    when = f" Use when the user asks about {words[0]} or mentions {rng.choice(WORDS)}."
    return what + when * rng.randint(1, 3)


def _body(rng: random.Random, size: int, files: list[str]) -> str:
    parts = ["# Instructions\n\n"]
    length = len(parts[0])
    while length < size:
        choice = rng.random()
        if choice < 0.1 and files:
            part = f"Run `{rng.choice(files)}` on the input.\n"
        elif choice < 0.13:
            part = "See [the reference](references/missing-guide.md) for details.\n"
        elif choice < 0.25:
            part = CODE_BLOCK
        elif choice < 0.35:
            part = f"\n## Step {len(parts)}\n\n"
        else:
            part = PARAGRAPH
        parts.append(part)
        length += len(part)
    return "".join(parts)


def _extra_value(rng: random.Random, key: str) -> list[str]:
    """The lines of a field outside the spec, as public skills write them."""
    if key == "version":
        return [f"version: {rng.choice(VERSIONS)}"]
    if key == "author":
        return [f"author: {rng.choice(WORDS).title()} {rng.choice(('Team', 'Labs', 'Smith'))}"]
    if key in ("tags", "triggers", "platforms"):
        items = rng.sample(WORDS, rng.randint(1, 5))
        if rng.random() < 0.5:
            return [f"{key}: [{', '.join(items)}]"]
        return [f"{key}:", *(f"  - {item}" for item in items)]
    if key in ("requires", "dependencies"):
        return [f"{key}:", *(f"  - {rng.choice(WORDS)}>={rng.randint(1, 9)}.0"
                             for _ in range(rng.randint(1, 3)))]
    if key == "updated":
        return [f"updated: 2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"]
    if key == "user-invocable":
        return ["user-invocable: true"]
    return [f"{key}: {rng.choice(WORDS)}"]


def _frontmatter(rng: random.Random, faults: set[str], name: str, words: list[str],
                 extra: list[str], broken: bool) -> str:
    description = _description(rng, words)
    if "long-description" in faults:
        description = (description + " ") * (1100 // len(description) + 1)
    lines = [f"name: {name}"]
    if "bad-name" in faults:
        lines = [f"name: {rng.choice((name.upper(), name.replace('-', '_'), name + '-'))}"]
    if "missing-description" not in faults:
        lines.append(f"description: {description}")
    if rng.random() < 0.4:
        lines.append(f"license: {rng.choice(('MIT', 'Apache-2.0', 'Proprietary'))}")
    if rng.random() < 0.2:
        lines.append(f"compatibility: Requires {rng.choice(WORDS)} and network access")
    if rng.random() < 0.2:
        lines.append("allowed-tools: Bash(git:*) Read")
    if rng.random() < 0.2:
        lines += ["metadata:", f"  owner: {rng.choice(WORDS)}-team"]
    for key in extra:
        lines += _extra_value(rng, key)
    if "no-name" in faults:
        lines = [line for line in lines if not line.startswith("name:")]
    if broken:
        # A colon inside a plain value: pyyaml, libyaml and strictyaml all refuse it.
        lines.insert(1, "description: Reads files: and writes them")
    return "---\n" + "\n".join(lines) + "\n---\n"


def _write_files(rng: random.Random, directory: Path, count: int) -> list[str]:
    """Write `count` files beside SKILL.md; a skill with many keeps them in nested folders."""
    written: list[str] = []
    for index in range(count):
        kind = rng.random()
        if count > 40:
            relative = f"assets/part-{index // 200}/item{index}.txt"
        elif kind < 0.4:
            relative = f"scripts/step{index}.{rng.choice(('py', 'sh'))}"
        elif kind < 0.8:
            relative = f"references/guide{index}.md"
        else:
            relative = f"assets/template{index}.png"
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if relative.startswith("scripts/"):
            path.write_text("#!/usr/bin/env python3\nprint('step')\n" if rng.random() < 0.8
                            else "x = 1\n")
            if rng.random() < 0.8:
                os.chmod(path, 0o755)
        elif relative.endswith(".png"):
            path.write_bytes(b"\x89PNG\r\n\x1a\n" + rng.randbytes(64))
        else:
            path.write_text(PARAGRAPH * rng.randint(1, 8))
        written.append(relative)
    return written


@dataclass
class _Drawn:
    """What one skill's first draws decided, before its place is known."""

    name: str
    words: list[str]
    extra: list[str]
    faults: set[str]
    broken: bool


def _draw(rng: random.Random, index: int, field_names: list[str],
          field_weights: list[int]) -> _Drawn:
    faults = {kind for kind, share in FAULTS if rng.random() < share}
    broken = rng.random() < BROKEN_YAML_SHARE
    extra: list[str] = []
    if rng.random() < UNKNOWN_FIELDS_SHARE:
        wanted = rng.randint(1, 4)
        while len(extra) < wanted:
            key = rng.choices(field_names, field_weights)[0]
            if key not in extra:
                extra.append(key)
    words = rng.sample(WORDS, rng.randint(1, 3))
    return _Drawn(f"{'-'.join(words)}-{index}", words, extra, faults, broken)


def _write_skill(rng: random.Random, directory: Path, drawn: _Drawn, small: bool,
                 shape: Shape, text: str | None = None,
                 styled: Callable[[random.Random, str], str] | None = None) -> str:
    """Write one skill's folder and return its SKILL.md's text (before line endings and a
    byte-order mark are applied); `text` given is written instead of a new one (a fork), and
    `styled` rewrites a new one's frontmatter."""
    directory.mkdir(parents=True)
    file_count = 1 if small else quantile(FILES_PER_SKILL, rng.random())
    files = _write_files(rng, directory, file_count - 1)
    if text is None:
        size = rng.randint(600, 1400) if small else quantile(BODY_BYTES, rng.random())
        body = _body(rng, size, files)
        frontmatter = _frontmatter(rng, drawn.faults, drawn.name, drawn.words, drawn.extra,
                                   drawn.broken)
        text = (styled(rng, frontmatter) if styled else frontmatter) + body
    else:
        body = text.split("\n---\n", 1)[-1]
    written = text.replace("\n", "\r\n") if "crlf" in drawn.faults else text
    data = written.encode("utf-8")
    if "bom" in drawn.faults:
        data = b"\xef\xbb\xbf" + data
    (directory / "SKILL.md").write_bytes(data)
    shape.skills += 1
    shape.body_bytes.append(len(body.encode("utf-8")))
    shape.files.append(file_count)
    shape.extra_fields.update(drawn.extra)
    shape.with_extra_fields += bool(drawn.extra)
    shape.broken_yaml += drawn.broken
    shape.faults.update(drawn.faults)
    return text


def generate_corpus(root: Path, count: int, seed: int = 0, *, small: bool = False,
                    layout: str = "flat") -> Shape:
    """Write `count` skill folders below `root` and return their shape as written. `small`
    skills have a body of about 1 KB and no other files (the 100,000-skill benchmark).
    `layout` "flat" is the corpus of issue 15 (skills one to three folders below category
    folders), "collection" the folder shape of a real collection (see `collection.py`)."""
    if layout == "collection":
        from collection import generate_collection

        return generate_collection(root, count, seed, small=small)
    if layout != "flat":
        raise ValueError(f"unknown layout {layout!r}: pick one of {', '.join(LAYOUTS)}")
    rng = random.Random(seed)
    field_names = [name for name, _ in EXTRA_FIELDS]
    field_weights = [weight for _, weight in EXTRA_FIELDS]
    shape = Shape()
    for index in range(count):
        drawn = _draw(rng, index, field_names, field_weights)
        folder_name = f"{drawn.name}-old" if "name-mismatch" in drawn.faults else drawn.name
        if rng.random() < DOT_FOLDER_SHARE:
            parents = [f"repos/project-{rng.randint(0, 99)}", *rng.choice(DOT_FOLDERS).split("/")]
            shape.under_dot_folders += 1
        else:
            depth = rng.choice((1, 1, 2, 3))
            parents = [rng.choice(CATEGORIES)] + [f"group-{rng.randint(0, 20)}"
                                                  for _ in range(depth - 1)]
        _write_skill(rng, root.joinpath(*parents, folder_name), drawn, small, shape)
    return shape


def add_layout_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--layout", choices=LAYOUTS, default="flat",
        help="flat: the corpus of issue 15 (the figures before issue 27); collection: a real "
             "collection's folders (owner--repo/..., forks sharing names, nested skills)")


def main() -> None:
    parser = argparse.ArgumentParser(description="Write a generated library of skills to a folder.")
    parser.add_argument("folder", type=Path, help="where to write it (must not exist yet)")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--small", action="store_true", help="1 KB bodies and no other files")
    add_layout_option(parser)
    args = parser.parse_args()
    if args.folder.exists():
        parser.error(f"{args.folder} already exists; pick a new folder")
    shape = generate_corpus(args.folder, args.count, args.seed, small=args.small,
                            layout=args.layout)
    print(f"wrote {args.folder}:\n{shape.report()}")


if __name__ == "__main__":
    main()
