"""Where a skill's row goes in the library tree, and what its row says beside its name.

A collection keeps each repository's skills in a folder of its own (`owner--repo`), some levels
above the skills (`owner--repo/plugins/pdf/skills/extract`), itself directly in the root or a
few levels down (`skills/owner--repo/...`). The tree groups a root's skills by that repository
folder (else by their first folder below the root), one row per repository with its count, so
no level lists thousands of paths; a plain folder of skills (each skill directly in the root)
has no such level and no groups. In the flat view a root lists all its skills sorted by name instead.

A row shows the skill's name. Where two skills of a repository share it (a skill kept in
`skills/` and again in `.claude/skills/`), each says where it sits in the repository; in the
flat view each says its repository, which tells forks of one skill apart. No Qt here: the model
emits the signals.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from html import escape

from studio.ui.library.library_nodes import FolderNode, Node, RootNode, SkillNode

# A folder named as a collection names a repository's: `owner--repo`, the owner as GitHub spells
# one (letters, digits, single hyphens inside), the repository's name after the two hyphens.
REPOSITORY = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9])*--[A-Za-z0-9._][A-Za-z0-9._-]*\Z")


def place_of(base: str, directory: str) -> tuple[str, str]:
    """(group, inner) of the skill in `directory` under the root whose path, with a separator
    after it, is `base`: the folders below the root down to the first `owner--repo` one above
    the skill's (`skills/acme--tools`), else its first folder below the root ("" when the skill's
    folder is directly in the root); and the skill folder's path below that. Both with `/`
    between folders."""
    # On strings: pathlib's relative_to, for every skill of a scan's batch, was a third of the
    # tree's share of a loader tick.
    if not directory.startswith(base):
        return "", ""
    relative = directory[len(base):]
    head, separator, rest = relative.partition(os.sep)
    if not separator:
        return "", head
    if "--" in rest and not REPOSITORY.match(head):
        parts = relative.split(os.sep)
        for at, part in enumerate(parts[1:-1], 1):
            if REPOSITORY.match(part):
                return "/".join(parts[:at + 1]), "/".join(parts[at + 1:])
    return head, rest.replace(os.sep, "/")


def group_label(group: str) -> str:
    """A repository folder's row names its last folder (`acme--tools` for
    `skills/acme--tools`); the tooltip has the rest."""
    return group.rpartition("/")[2]


def flat_key(node: SkillNode) -> tuple[str, str, str, str]:
    """Where a skill sorts in the flat view: by name, whatever its case, then by repository."""
    assert node.summary is not None
    name = node.summary.display_name
    return (name.lower(), name, node.group, node.inner)


def count_name(root: RootNode, node: SkillNode, step: int) -> bool:
    """Count the skill's name in its repository folder in (step 1) or out (step -1); True when
    that made the name shared or no longer shared (the rows of that name say more, or less)."""
    assert node.summary is not None
    key = (node.group, node.summary.display_name)
    count = root.names.get(key, 0) + step
    if count > 0:
        root.names[key] = count
    else:
        root.names.pop(key, None)
    return count == (2 if step > 0 else 1)


def detail(root: RootNode, node: SkillNode, flat: bool) -> str | None:
    """What the row says, dimmed, after the skill's name (None: nothing)."""
    assert node.summary is not None
    shared = root.names.get((node.group, node.summary.display_name), 0) > 1
    if not flat or not node.group:
        return node.inner if shared else None
    label = group_label(node.group)
    return f"{label}/{node.inner}" if shared else label


def shares_name(root: RootNode, node: SkillNode, row: int, flat: bool) -> bool:
    """Whether the skill at `row` of its parent shares its name with a row beside it (in the
    flat view, rows sort by name; in a folder, only names shared there get a detail)."""
    assert node.summary is not None
    name = node.summary.display_name
    if not flat:
        return root.names.get((node.group, name), 0) > 1
    siblings = node.parent.children if node.parent is not None else []
    for other in (row - 1, row + 1):
        beside = siblings[other] if 0 <= other < len(siblings) else None
        if (isinstance(beside, SkillNode) and beside.summary is not None
                and beside.summary.display_name == name):
            return True
    return False


def with_place(tip: str, node: SkillNode) -> str:
    """A skill's tooltip (HTML) with, after its first line, where it sits below its root in
    full (`skills/acme--tools/skills/pdf`): the row may show only part of that."""
    place = f"{node.group}/{node.inner}" if node.group else node.inner
    first, separator, rest = tip.partition("<br>")
    return f"{first}<br>{escape(place)}{separator}{rest}"


def same_name(root: RootNode, group: str, name: str, flat: bool) -> list[SkillNode]:
    """The skills of the root's repository folder `group` named `name`."""
    if flat:
        children = root.children
        row = bisect_left(children, (name.lower(), name, group, ""), key=_flat_key_of)
        found: list[SkillNode] = []
        while row < len(children):
            node = children[row]
            assert isinstance(node, SkillNode) and node.summary is not None
            if node.group != group or node.summary.display_name != name:
                break
            found.append(node)
            row += 1
        return found
    parent: Node | None = root.folders.get(group) if group else root
    if parent is None:
        return []
    return [node for node in parent.children if isinstance(node, SkillNode)
            and node.group == group and node.summary is not None
            and node.summary.display_name == name]


def sorted_runs(children: list[Node], nodes: list[SkillNode]) -> list[tuple[int, list[SkillNode]]]:
    """Where `nodes` (sorted by `flat_key`) go among a flat root's `children` (sorted too): runs
    of nodes that go together, each with its row once the runs before it are in."""
    runs: list[tuple[int, list[SkillNode]]] = []
    previous = -1
    for before, node in enumerate(nodes):
        at = bisect_right(children, flat_key(node), key=_flat_key_of)
        if at == previous:
            runs[-1][1].append(node)
        else:
            runs.append((at + before, [node]))
        previous = at
    return runs


def row_runs(rows: list[int], gap: int) -> list[tuple[int, int]]:
    """The rows as (first, last) runs, rows less than `gap` apart in one run."""
    runs: list[tuple[int, int]] = []
    for row in sorted(rows):
        if runs and row - runs[-1][1] < gap:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def group_of(root: RootNode, group: str) -> tuple[Node, bool]:
    """The row that holds the skills of the repository folder `group` (the root for ""),
    and whether it is new (made here, not yet among the root's children)."""
    if not group:
        return root, False
    folder = root.folders.get(group)
    if folder is not None:
        return folder, False
    folder = FolderNode(root, len(root.children), relative=group, root=root)
    root.folders[group] = folder
    return folder, True


def lay_out(root: RootNode, nodes: list[SkillNode], flat: bool) -> None:
    """Give the root `nodes` as its skills, from scratch (on switching views)."""
    root.children, root.folders, root.names = [], {}, {}
    for node in nodes:
        count_name(root, node, 1)
    if flat:
        nodes.sort(key=flat_key)
        for row, node in enumerate(nodes):
            node.parent, node.row = root, row
        root.children = list(nodes)
        return
    for node in nodes:
        parent, new = group_of(root, node.group)
        if new:
            root.children.append(parent)
        node.parent, node.row = parent, len(parent.children)
        parent.children.append(node)


def move_to(siblings: list[Node], node: SkillNode, flat: bool) -> int:
    """The row (as `beginMoveRows` counts it) where a skill whose name or folder changed goes
    among its sibling skills: by name in the flat view, else by folder name, as the scan lists
    them (repository folders keep their places)."""
    def key(other: Node) -> tuple[str, ...]:
        assert isinstance(other, SkillNode) and other.summary is not None
        return flat_key(other) if flat else (other.summary.directory.name,)

    mine = key(node)
    rows = [row for row, sibling in enumerate(siblings)
            if sibling is not node and isinstance(sibling, SkillNode)]
    return next((row for row in rows if key(siblings[row]) > mine),
                rows[-1] + 1 if rows else node.row)


def _flat_key_of(node: Node) -> tuple[str, str, str, str]:
    assert isinstance(node, SkillNode)
    return flat_key(node)
