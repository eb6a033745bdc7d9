"""A generated library of varied skills, the same for every run with the same seed.

Most skills are valid; the rest carry the faults real libraries have: bad or mismatched names,
unknown fields, over-long descriptions, broken YAML, CRLF line endings, a byte-order mark. A share
has scripts/, references/ and assets/ files, and the folders nest one to three levels deep.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

WORDS = (
    "pdf", "csv", "json", "git", "docker", "review", "report", "chart", "lint", "test", "deploy",
    "invoice", "slides", "audit", "schema", "query", "sql", "image", "resize", "translate", "notes",
    "meeting", "summary", "release", "changelog", "api", "client", "budget", "calendar", "email",
)
CATEGORIES = ("data", "docs", "devops", "office", "media", "research", "team")

# The kind of skill and how often it turns up, out of 100.
KINDS = (
    ("valid", 46),
    ("valid-with-files", 14),
    ("bad-name", 7),
    ("name-mismatch", 4),
    ("unknown-field", 7),
    ("long-description", 4),
    ("crlf", 6),
    ("bom", 3),
    ("broken-yaml", 4),
    ("missing-description", 2),
    ("long-body", 3),
)

PARAGRAPH = (
    "Read the input carefully and check that every required column is present before you start. "
    "When a value is missing, say so and ask the user rather than guessing.\n"
)


def _description(rng: random.Random, words: list[str]) -> str:
    what = f"Works with {' and '.join(words)} files; reads them, checks them and writes a summary."
    when = f" Use when the user asks about {words[0]} or mentions {rng.choice(WORDS)}."
    return what + when * rng.randint(1, 3)


def _body(rng: random.Random, lines: int, files: list[str]) -> str:
    parts = ["# Instructions", ""]
    while len(parts) < lines:
        choice = rng.random()
        if choice < 0.15 and files:
            parts.append(f"Run `{rng.choice(files)}` on the input.")
        elif choice < 0.2:
            parts.append("See [the reference](references/missing-guide.md) for details.")
        elif choice < 0.3:
            parts += ["```bash", "python scripts/run.py --input data.csv", "```"]
        elif choice < 0.4:
            parts.append(f"## Step {len(parts)}")
        else:
            parts.append(PARAGRAPH.strip())
    return "\n".join(parts) + "\n"


def _frontmatter(rng: random.Random, kind: str, name: str, words: list[str]) -> str:
    description = _description(rng, words)
    if kind == "long-description":
        description = (description + " ") * (1100 // len(description) + 1)
    lines = [f"name: {name}"]
    if kind == "bad-name":
        lines = [f"name: {rng.choice((name.upper(), name.replace('-', '_'), name + '-'))}"]
    if kind != "missing-description":
        lines.append(f"description: {description}")
    if rng.random() < 0.4:
        lines.append(f"license: {rng.choice(('MIT', 'Apache-2.0', 'Proprietary'))}")
    if rng.random() < 0.3:
        lines.append(f"compatibility: Requires {rng.choice(WORDS)} and network access")
    if rng.random() < 0.3:
        lines.append("allowed-tools: Bash(git:*) Read")
    if rng.random() < 0.5:
        lines += ["metadata:", f"  author: {rng.choice(WORDS)}-team", f'  version: "{rng.randint(1, 9)}.0"']
    if kind == "unknown-field":
        lines.insert(rng.randint(1, len(lines)), f"{rng.choice(('version', 'tags', 'author'))}: 1.0")
    if kind == "broken-yaml":
        lines[-1] = "description: Reads files: and writes them"
    return "---\n" + "\n".join(lines) + "\n---\n"


def _write_files(rng: random.Random, directory: Path) -> list[str]:
    written = []
    for index in range(rng.randint(1, 3)):
        script = directory / "scripts" / f"step{index}.py"
        script.parent.mkdir(exist_ok=True)
        script.write_text("#!/usr/bin/env python3\nprint('step')\n" if rng.random() < 0.8 else "x = 1\n")
        if rng.random() < 0.8:
            os.chmod(script, 0o755)
        written.append(f"scripts/{script.name}")
    for index in range(rng.randint(0, 3)):
        reference = directory / "references" / f"guide{index}.md"
        reference.parent.mkdir(exist_ok=True)
        reference.write_text(PARAGRAPH * rng.randint(1, 20))
        written.append(f"references/{reference.name}")
    if rng.random() < 0.5:
        asset = directory / "assets" / "template.png"
        asset.parent.mkdir(exist_ok=True)
        asset.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(256)))
        written.append("assets/template.png")
    return written


def generate_corpus(root: Path, count: int, seed: int = 0) -> Counter[str]:
    """Write `count` skill folders below `root`; return how many of each kind it wrote."""
    rng = random.Random(seed)
    kinds = [kind for kind, _ in KINDS]
    weights = [weight for _, weight in KINDS]
    made: Counter[str] = Counter()
    for index in range(count):
        kind = rng.choices(kinds, weights)[0]
        words = rng.sample(WORDS, rng.randint(1, 3))
        name = f"{'-'.join(words)}-{index}"
        depth = rng.choice((1, 1, 2, 3))
        parents = [rng.choice(CATEGORIES)] + [f"group-{rng.randint(0, 20)}" for _ in range(depth - 1)]
        folder_name = name if kind != "name-mismatch" else f"{name}-old"
        directory = root.joinpath(*parents, folder_name)
        directory.mkdir(parents=True)
        files = _write_files(rng, directory) if kind == "valid-with-files" else []
        lines = rng.randint(400, 700) if kind == "long-body" else rng.randint(5, 80)
        text = _frontmatter(rng, kind, name, words) + _body(rng, lines, files)
        if kind == "crlf":
            text = text.replace("\n", "\r\n")
        data = text.encode("utf-8")
        if kind == "bom":
            data = b"\xef\xbb\xbf" + data
        (directory / "SKILL.md").write_bytes(data)
        made[kind] += 1
    return made


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write a generated library of skills to a folder.")
    parser.add_argument("folder", type=Path, help="where to write it (must not exist yet)")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.folder.exists():
        parser.error(f"{args.folder} already exists; pick a new folder")
    made = generate_corpus(args.folder, args.count, args.seed)
    print(f"wrote {args.count} skills to {args.folder}: "
          + ", ".join(f"{kind} {n}" for kind, n in sorted(made.items())))


if __name__ == "__main__":
    main()
