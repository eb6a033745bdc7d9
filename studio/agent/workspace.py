"""What the tool policy treats as the workspace: a project folder, or each skill's own folder.

Its own module so that the settings can name the modes without loading the agent."""

from __future__ import annotations

from typing import Literal, get_args

WorkspaceMode = Literal["project", "skill"]
WORKSPACE_MODES: tuple[str, ...] = get_args(WorkspaceMode)
