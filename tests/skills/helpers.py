"""Small builders for skill folders in tests."""

from __future__ import annotations

from pathlib import Path

from studio.skills.summary import SkillSummary


def write_skill(parent: Path, dir_name: str, text: str | bytes, files: dict[str, str] | None = None) -> Path:
    directory = parent / dir_name
    directory.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (directory / "SKILL.md").write_bytes(data)
    for relative, content in (files or {}).items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    return directory


def frontmatter(
    name: str = "demo", description: str = "Demo skill. Use when testing.", extra: str = ""
) -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n# Demo\n\nBody.\n"


def summary(name: str, description: str, *, loadable: bool = True) -> SkillSummary:
    """A summary of a skill that needs no files (for the catalog and the prompt)."""
    directory = Path("/skills") / name
    return SkillSummary(Path("/skills"), directory, directory / "SKILL.md", name, description, loadable,
                        loadable, ())
