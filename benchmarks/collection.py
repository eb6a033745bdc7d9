"""A generated library with the folder shape of a real public collection (issue 27), the same for
every run with the same seed. The skills themselves (body sizes, files, fields, faults) come from
`skillgen.py`; what this adds was measured on a collection of 8,244 SKILL.md files (8,223 skills
the studio lists), one folder per repository:
- every skill sits in a folder named `owner--repo`, 3 to 6 folders below the root
  (`owner--repo/skills/NAME`, `.claude/skills/NAME`, `plugins/PLUGIN/skills/NAME`, ...), and a
  repository may keep skills in two of those places (`REPO_PLACES`);
- skills per repository spread the way stars do: most hold one to three, a few hundreds
  (`REPO_SKILLS`);
- 1,287 skills share 388 names: the same skill forked into several repositories, its SKILL.md
  copied or lightly edited (`SHARED_SKILLS`, `SHARED_NAMES`);
- 51 have no `name` (`NO_NAME_SHARE`);
- about 21 SKILL.md files sit inside another skill's folder (`NESTED_SHARE`), which the
  library does not list;
- descriptions are quoted, folded or plain, as authors write them (`DESCRIPTION_STYLES`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from skillgen import CATEGORIES, EXTRA_FIELDS, WORDS, Drawn, Shape, draw, quantile, write_skill

MEASURED_SKILLS = 8_244
SHARED_SKILLS = 1_287
SHARED_NAMES = 388
NO_NAME_SHARE = 51 / MEASURED_SKILLS
NESTED_SHARE = 21 / MEASURED_SKILLS
# Skills per repository, as quantile points (see `skillgen.quantile`).
REPO_SKILLS = ((0.0, 1), (0.5, 2), (0.8, 6), (0.95, 30), (0.99, 120), (1.0, 400))
# Where a repository keeps its skills, below `owner--repo`, with weights; `{plugin}` and
# `{group}` are drawn per repository and per skill. The skill's folder comes last.
REPO_PLACES = (
    ("skills", 45), ("skills/{group}", 10), (".claude/skills", 16), (".agents/skills", 3),
    (".github/skills", 2), (".codex/skills", 1), ("plugins/{plugin}/skills", 14),
    ("plugins/{plugin}/skills/{group}", 3), ("packages/{plugin}/.claude/skills", 4),
    ("src/{plugin}/skills", 2),
)
# The share of repositories keeping skills in a second place too.
TWO_PLACES_SHARE = 0.15
OWNERS = ("acme", "openlab", "devtools", "dataworks", "jdoe", "mkim", "agentsmith", "tinybits",
          "northwind", "skillsmith", "labs42", "cloudnine")
# How a description is written, with weights: plain, double-quoted, single-quoted, folded.
DESCRIPTION_STYLES = (("plain", 60), ("double", 25), ("single", 5), ("folded", 10))
NESTED_PLACES = ("examples/{name}", "templates/{name}", "assets/sample-skill", "skills/{name}")


@dataclass
class CollectionShape(Shape):
    """What a generated collection holds, measured as it was written."""

    repositories: int = 0
    depths: list[int] = field(default_factory=list)
    shared_names: int = 0
    shared_skills: int = 0
    no_name: int = 0
    nested: int = 0
    two_places: int = 0

    def report(self) -> str:
        n = max(self.skills, 1)
        depth_counts = ", ".join(f"{depth}: {self.depths.count(depth):,}"
                                 for depth in sorted(set(self.depths)))
        return "\n".join([
            super().report(),
            f"  {self.repositories:,} repositories ({self.two_places:,} with skills in two "
            f"places); folders below the root: {depth_counts}",
            f"  {self.shared_skills:,} skills ({self.shared_skills / n:.1%}) share "
            f"{self.shared_names:,} names; no name: {self.no_name:,} ({self.no_name / n:.2%}); "
            f"SKILL.md inside another skill: {self.nested:,}",
        ])


def _fork_groups(rng: random.Random, count: int) -> list[int | None]:
    """For each skill in order, the fork group it belongs to (None: a name of its own). The
    groups' sizes are skewed: most forks have two or three copies, a few many."""
    names = round(count * SHARED_NAMES / MEASURED_SKILLS)
    members = round(count * SHARED_SKILLS / MEASURED_SKILLS)
    if names == 0 or members < 2 * names:
        return [None] * count
    sizes = [2] * names
    weights = [1 / (group + 1) for group in range(names)]
    for group in rng.choices(range(names), weights, k=members - 2 * names):
        sizes[group] += 1
    groups: list[int | None] = [None] * (count - members)
    groups += [group for group, size in enumerate(sizes) for _ in range(size)]
    rng.shuffle(groups)
    return groups


def _style_description(rng: random.Random, text: str) -> str:
    """Rewrite the description line of a SKILL.md in one of the styles authors use."""
    style = rng.choices([s for s, _ in DESCRIPTION_STYLES], [w for _, w in DESCRIPTION_STYLES])[0]
    head, marker, rest = text.partition("\ndescription: ")
    if not marker or style == "plain":
        return text
    value, newline, tail = rest.partition("\n")
    if style == "double":
        value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif style == "single":
        value = "'" + value.replace("'", "''") + "'"
    else:
        words = value.split(" ")
        lines = [" ".join(words[start:start + 12]) for start in range(0, len(words), 12)]
        value = ">\n" + "\n".join(f"  {line}" for line in lines)
    return head + marker + value + newline + tail


def _fork(rng: random.Random, text: str) -> str:
    """A fork's SKILL.md: a copy, or the copy with a line of its own."""
    if rng.random() < 0.5:
        return text
    return text + f"\nForked to work with {rng.choice(WORDS)} as well.\n"


class _Repository:
    def __init__(self, rng: random.Random, index: int) -> None:
        places = [p for p, _ in REPO_PLACES]
        weights = [w for _, w in REPO_PLACES]
        self.folder = f"{rng.choice(OWNERS)}{index % 97}--{rng.choice(WORDS)}-{rng.choice(WORDS)}"
        self.plugin = f"{rng.choice(WORDS)}-tools"
        self.places = [rng.choices(places, weights)[0]]
        if rng.random() < TWO_PLACES_SHARE:
            self.places.append(rng.choices(places, weights)[0])
        self.size = quantile(REPO_SKILLS, rng.random())

    def folder_for(self, rng: random.Random, root: Path, folder_name: str) -> Path:
        """A new skill folder in this repository; a second skill of the same name (a fork kept
        twice) goes to the repository's other place or to `forks/N/`."""
        for place in self.places:
            where = place.format(plugin=self.plugin, group=rng.choice(CATEGORIES))
            directory = root.joinpath(self.folder, *where.split("/"), folder_name)
            if not directory.exists():
                return directory
        copy = 1
        while (root / self.folder / "forks" / str(copy) / folder_name).exists():
            copy += 1
        return root / self.folder / "forks" / str(copy) / folder_name


def generate_collection(root: Path, count: int, seed: int = 0, *,
                        small: bool = False) -> CollectionShape:
    """Write `count` listed skills (and the few SKILL.md files nested inside them) below `root`
    in repository folders, and return their shape as written."""
    rng = random.Random(seed)
    field_names = [name for name, _ in EXTRA_FIELDS]
    field_weights = [weight for _, weight in EXTRA_FIELDS]
    shape = CollectionShape()
    groups = _fork_groups(rng, count)
    originals: dict[int, tuple[Drawn, str]] = {}
    repository = _Repository(rng, 0)
    shape.repositories = 1
    shape.two_places = len(repository.places) > 1
    left = repository.size
    for index, group in enumerate(groups):
        if left == 0:
            repository = _Repository(rng, shape.repositories)
            shape.repositories += 1
            shape.two_places += len(repository.places) > 1
            left = repository.size
        left -= 1
        fork_of = originals.get(group) if group is not None else None
        if fork_of is not None:
            drawn, text = fork_of[0], _fork(rng, fork_of[1])
        else:
            drawn, text = draw(rng, index, field_names, field_weights), None
            if rng.random() < NO_NAME_SHARE:
                drawn.faults.add("no-name")
        folder_name = f"{drawn.name}-old" if "name-mismatch" in drawn.faults else drawn.name
        directory = repository.folder_for(rng, root, folder_name)
        if text is None:
            text = write_skill(rng, directory, drawn, small, shape, styled=_style_description)
            if group is not None:
                originals[group] = (drawn, text)
        else:
            write_skill(rng, directory, drawn, small, shape, text)
        parts = directory.relative_to(root).parts
        shape.depths.append(len(parts))
        shape.under_dot_folders += any(part.startswith(".") for part in parts)
        shape.no_name += "no-name" in drawn.faults
        if rng.random() < NESTED_SHARE:
            _write_nested(rng, directory, drawn.name)
            shape.nested += 1
    shape.shared_names = len(originals)
    shape.shared_skills = sum(group is not None for group in groups)
    return shape


def _write_nested(rng: random.Random, directory: Path, name: str) -> None:
    """A SKILL.md inside a skill's folder: a sample or a bundled plugin's skill."""
    inner = rng.choice(NESTED_PLACES).format(name=f"{name}-sample")
    folder = directory.joinpath(*inner.split("/"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {folder.name}\ndescription: A sample skill that shows the layout. Use when "
        f"the user asks for an example.\n---\n\n# Sample\n\nCopy this folder to start.\n")
