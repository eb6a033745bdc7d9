"""The library tree's rows: a light node per root, folder, skill and file, each knowing its
parent and its row, and a skill's files as nested nodes in the order the tree shows them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from studio.skills import SKILL_FILE, SkillSummary
from studio.skills.library import RootState
from studio.skills.scan import listing

# How many rows of a parent the model hands the views at first, and then each time they ask for
# more (`NodeTree.fetchMore`, as the user scrolls to its end). A view lays out every row it was
# handed in one turn of the event loop: a root of the 100,000-skill collection holds 11,745
# folders, about 85 ms of layout, against 7 for a page.
PAGE = 1000


@dataclass(eq=False, slots=True)
class Node:
    """A row; `limit` bounds how many of its `children` the views were handed (`NodeTree`)."""

    parent: Node | None
    row: int
    children: list[Node] = field(default_factory=list)
    limit: int = PAGE


@dataclass(eq=False, slots=True)
class RootNode(Node):
    """A root; `folders` are its repository folders by name (none in the flat view), and
    `names` counts its skills by (repository folder, name), to tell apart those sharing one."""

    state: RootState | None = None
    folders: dict[str, FolderNode] = field(default_factory=dict)
    names: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        assert self.state is not None
        return self.state.path


@dataclass(eq=False, slots=True)
class FolderNode(Node):
    """The first folder below a root that holds skills (in a collection, a repository's
    `owner--repo`), over every skill below it however deep."""

    relative: str = ""
    root: RootNode | None = None


@dataclass(eq=False, slots=True)
class SkillNode(Node):
    """A skill; `group` is its repository folder ("" when its folder is directly in the root)
    and `inner` its folder's path below that (`skills/pdf`)."""

    summary: SkillSummary | None = None
    fetched: bool = False
    group: str = ""
    inner: str = ""


@dataclass(eq=False, slots=True)
class FileNode(Node):
    relative: PurePosixPath = field(default_factory=PurePosixPath)
    is_dir: bool = False
    skill: SkillNode | None = None


def file_tree(summary: SkillSummary, entries: list[listing.Entry], skill: SkillNode) -> list[Node]:
    """The entries as nested nodes: SKILL.md first, then the standard folders, then the rest."""
    top = Node(None, 0)
    folders: dict[PurePosixPath, Node] = {PurePosixPath("."): top}

    def folder_node(relative: PurePosixPath) -> Node:
        found = folders.get(relative)
        if found is None:
            parent = folder_node(relative.parent)
            found = FileNode(parent, 0, relative=relative, is_dir=True, skill=skill)
            folders[relative] = found
            parent.children.append(found)
        return found

    for entry in entries:
        if entry.is_dir:
            folder_node(entry.relative)
            continue
        parent = folder_node(entry.relative.parent)
        parent.children.append(FileNode(parent, 0, relative=entry.relative, skill=skill))
    for child in top.children:
        child.parent = skill
    _order(top.children)
    return top.children


def _order(nodes: list[Node]) -> None:
    def key(node: Node) -> tuple[int, str]:
        assert isinstance(node, FileNode)
        if node.relative.name in (SKILL_FILE, SKILL_FILE.lower()) and node.relative.parent.name == "":
            return (0, "")
        standard = node.is_dir and node.relative.name in listing.Entry.STANDARD_FOLDERS
        return (1 if standard else 2 if node.is_dir else 3,
                f"{listing.Entry.STANDARD_FOLDERS.index(node.relative.name):02d}" if standard
                else node.relative.name.lower())

    nodes.sort(key=key)
    for row, node in enumerate(nodes):
        node.row = row
        if node.children:
            _order(node.children)
