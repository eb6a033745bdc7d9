"""A generated library of skills shaped like public collections, the same for every run with the
same seed.

The shape was measured on about 8,000 public skills (issue 15) and every distribution is written
out in `skillgen.py` (the skills themselves) and below (where they sit), so anyone can check it
against `Shape.report()`'s print-out:
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
import random
from pathlib import Path

from collection import generate_collection
from skillgen import CATEGORIES, EXTRA_FIELDS, Shape, draw, write_skill

DOT_FOLDERS = (".claude/skills", ".agents/skills", ".kiro/skills", ".codex/skills",
               ".github/skills", ".cursor/skills")
DOT_FOLDER_SHARE = 0.03
LAYOUTS = ("flat", "collection")


def generate_corpus(root: Path, count: int, seed: int = 0, *, small: bool = False,
                    layout: str = "flat") -> Shape:
    """Write `count` skill folders below `root` and return their shape as written. `small`
    skills have a body of about 1 KB and no other files (the 100,000-skill benchmark).
    `layout` "flat" is the corpus of issue 15 (skills one to three folders below category
    folders), "collection" the folder shape of a real collection (see `collection.py`)."""
    if layout == "collection":
        return generate_collection(root, count, seed, small=small)
    if layout != "flat":
        raise ValueError(f"unknown layout {layout!r}: pick one of {', '.join(LAYOUTS)}")
    rng = random.Random(seed)
    field_names = [name for name, _ in EXTRA_FIELDS]
    field_weights = [weight for _, weight in EXTRA_FIELDS]
    shape = Shape()
    for index in range(count):
        drawn = draw(rng, index, field_names, field_weights)
        folder_name = f"{drawn.name}-old" if "name-mismatch" in drawn.faults else drawn.name
        if rng.random() < DOT_FOLDER_SHARE:
            parents = [f"repos/project-{rng.randint(0, 99)}", *rng.choice(DOT_FOLDERS).split("/")]
            shape.under_dot_folders += 1
        else:
            depth = rng.choice((1, 1, 2, 3))
            parents = [rng.choice(CATEGORIES)] + [f"group-{rng.randint(0, 20)}"
                                                  for _ in range(depth - 1)]
        write_skill(rng, root.joinpath(*parents, folder_name), drawn, small, shape)
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
