"""Writing skills into a project and a home for the effective catalog's tests."""

from __future__ import annotations

from pathlib import Path

from studio.skills.catalog import Catalog, Entry, effective_catalog


def write_skill(folder: Path, name: str, description: str = "Does a thing. Use when asked.",
                *, directory: str | None = None, extra: str = "", body: str = "Do it.\n",
                bom: bool = False) -> Path:
    """A skill in `folder/directory` (the name by default); its SKILL.md's path."""
    place = folder / (directory or name)
    place.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}"
    data = text.encode("utf-8")
    path = place / "SKILL.md"
    path.write_bytes(b"\xef\xbb\xbf" + data if bom else data)
    return path


def catalog(client: str, project: Path | None, home: Path, **kwargs: object) -> Catalog:
    env = kwargs.pop("env", {})
    assert isinstance(env, dict)
    return effective_catalog(client, project, home, env, **kwargs)  # type: ignore[arg-type]


def entry(result: Catalog, path: Path) -> Entry:
    """The catalog's row for the SKILL.md at `path`."""
    for item in result.entries:
        if item.path == path:
            return item
    raise AssertionError(f"{path} is not in the catalog: {[e.path for e in result.entries]}")
