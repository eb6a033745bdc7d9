"""Creating a new skill folder from the template in resources/templates/."""

from __future__ import annotations

from pathlib import Path

import studio.skills.checks.names as names
from studio.errors import StudioError
from studio.fsutil import atomic_write_text
from studio.paths import RESOURCES_DIR

TEMPLATE = RESOURCES_DIR / "templates" / "SKILL.md.tmpl"


class ScaffoldError(StudioError):
    """The skill could not be created; the message says why. Nothing was written."""


def render_template(name: str, template: Path = TEMPLATE) -> str:
    try:
        text = template.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScaffoldError(f"the skill template {template} cannot be read: {exc.strerror}") from exc
    words = name.split("-")
    title = " ".join(part.capitalize() for part in words)
    return text.format(name=name, title=title, words=" ".join(words))


def create_skill(parent: Path, name: str) -> Path:
    """Create `parent/name/SKILL.md` from the template and return its path."""
    problems = names.name_problems(name) if name.strip() else ["it is empty"]
    if problems:
        suggestion = names.suggest_name(name)
        raise ScaffoldError(
            f"`{name}` is not a valid skill name: {'; '.join(problems)}. Try `{suggestion}`."
        )
    name = names.normalize_name(name)
    if not parent.is_dir():
        raise ScaffoldError(f"{parent} is not a folder")
    directory = parent / name
    if directory.exists():
        raise ScaffoldError(f"{directory} already exists; pick another name or folder")
    text = render_template(name)
    try:
        directory.mkdir()
        atomic_write_text(directory / "SKILL.md", text)
    except OSError as exc:
        raise ScaffoldError(f"cannot create {directory}: {exc.strerror or exc}") from exc
    return directory / "SKILL.md"
