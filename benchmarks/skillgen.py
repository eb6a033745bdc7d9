"""One generated skill shaped like public ones, the same for the same state of the random
generator: the distributions measured on about 8,000 public skills (issue 15), what a skill's first
draws decide (`draw`), and writing its folder (`write_skill`), counted into a `Shape`. `corpus.py`
places the skills in its flat layout, `collection.py` in a real collection's folders; both take
their skills from here, so neither imports the other's internals.
"""

from __future__ import annotations

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
class Drawn:
    """What one skill's first draws decided, before its place is known."""

    name: str
    words: list[str]
    extra: list[str]
    faults: set[str]
    broken: bool


def draw(rng: random.Random, index: int, field_names: list[str],
          field_weights: list[int]) -> Drawn:
    """Skill `index`'s name, words, fields outside the spec and faults."""
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
    return Drawn(f"{'-'.join(words)}-{index}", words, extra, faults, broken)


def write_skill(rng: random.Random, directory: Path, drawn: Drawn, small: bool,
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
