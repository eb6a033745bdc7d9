"""The project folder the agent's tests run in: a `skills` folder with `demo` (a script that says
hello, and a reference to read) and `other` (instructions only), notes beside the skills, and the
sandbox's home folder next to the project. Register the fixture in a conftest.py with

    from tests.fakes.projects import project  # noqa: F401
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.skills.helpers import frontmatter, write_skill

DEMO_SCRIPT = "python3 scripts/hello.py"
DEMO_OUTPUT = "hello from the skill"
NOTES = "the project's notes\n"
"""`notes.txt` at the project's top: a file outside every skill."""


def write_project(root: Path) -> Path:
    """Make the project at `root` (its home folder beside it); `root`, resolved."""
    demo = write_skill(root / "skills", "demo", frontmatter("demo") + f"Run `{DEMO_SCRIPT}`.\n", {
        "scripts/hello.py": f"#!/usr/bin/env python3\nprint({DEMO_OUTPUT!r})\n",
        "references/notes.md": "notes",
    })
    os.chmod(demo / "scripts" / "hello.py", 0o755)
    write_skill(root / "skills", "other", frontmatter("other", "Another skill. Use when asked."))
    (root / "notes.txt").write_text(NOTES)
    (root.parent / "home").mkdir(exist_ok=True)
    return root.resolve()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fresh project, `tmp_path / "project"`."""
    return write_project(tmp_path / "project")
