"""Who links to a skill folder: the skills CLI keeps one copy in `.agents/skills/NAME` and links
to it from each client's folder (`.claude/skills/NAME -> ../../.agents/skills/NAME`). Deleting or
renaming that copy breaks every such link, so the library says which there are before it does.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from studio.skills.files import CLIENT_FOLDERS


def link_places(directory: Path, roots: Iterable[Path] = (), home: Path | None = None) -> list[Path]:
    """The folders a link to the skill at `directory` would sit in: each client's skill folder of
    the project the skill is in (the folder above its `.agents`, `.claude`, ...), the user's own
    client folders, and `roots` (the library's); existing ones, each once."""
    home = home if home is not None else Path.home()
    bases = [home]
    for ancestor in directory.parents:
        if ancestor.name in CLIENT_FOLDERS:
            bases.append(ancestor.parent)
            break
    places = [base / client / "skills" for base in bases for client in sorted(CLIENT_FOLDERS)]
    places.extend(roots)
    places.append(directory.parent)
    found: list[Path] = []
    for place in places:
        if place not in found and place.is_dir():
            found.append(place)
    return found


def linkers(directory: Path, places: Iterable[Path]) -> list[Path]:
    """Each link directly inside one of `places` that leads to the folder `directory`, sorted."""
    real = os.path.realpath(directory)
    found: set[Path] = set()
    for place in places:
        try:
            entries = list(os.scandir(place))
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink() and os.path.realpath(entry.path) == real:
                found.add(Path(entry.path))
    return sorted(found)


def links_to(directory: Path, roots: Iterable[Path] = ()) -> list[Path]:
    """The links that lead to the skill folder `directory` (see `link_places`)."""
    return linkers(directory, link_places(directory, roots))
