"""The fixed world of the policy tests: a skill project, a home with secrets, a folder outside,
and links that lead out of the workspace."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from studio.policy import PolicyContext


@dataclass(frozen=True)
class World:
    root: Path
    workspace: Path
    home: Path
    outside: Path

    @property
    def context(self) -> PolicyContext:
        return PolicyContext(self.workspace, self.workspace, self.home)

    def in_dir(self, relative: str) -> PolicyContext:
        return PolicyContext(self.workspace, self.workspace / relative, self.home)


def build_world(root: Path) -> World:
    workspace = root / "project"
    home = root / "home"
    outside = root / "elsewhere"
    files = {
        workspace / "SKILL.md": "---\nname: project\ndescription: test\n---\n",
        workspace / "README.md": "readme\n",
        workspace / "notes.md": "notes\n",
        workspace / "references" / "guide.md": "guide\n",
        workspace / "references" / "api" / "v1.md": "api\n",
        workspace / "scripts" / "extract.py": "print('x')\n",
        workspace / "scripts" / "run.sh": "#!/bin/sh\necho hi\n",
        workspace / "assets" / "sample.csv": "a,b\n",
        workspace / ".env": "API_KEY=secret\n",
        workspace / ".gitignore": "*.pyc\n",
        workspace / ".git" / "config": "[core]\n",
        workspace / "skills" / "pdf" / "SKILL.md": "---\nname: pdf\n---\n",
        workspace / "skills" / "pdf" / "scripts" / "fill.py": "print('fill')\n",
        home / ".ssh" / "id_rsa": "PRIVATE\n",
        home / ".ssh" / "known_hosts": "host\n",
        home / ".aws" / "credentials": "[default]\n",
        home / ".bashrc": "# rc\n",
        outside / "data.txt": "data\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    os.symlink(outside, workspace / "escape")
    os.symlink(home / ".ssh" / "id_rsa", workspace / "harmless.txt")
    return World(root, workspace.resolve(), home.resolve(), outside.resolve())


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """One world per test session: it is only read."""
    return build_world(tmp_path_factory.mktemp("policy-world"))
