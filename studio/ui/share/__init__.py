"""Sharing skills from the window: Skill ▸ Export (archives, plugins, a site index) and
Tools ▸ Serve Library over MCP."""

from studio.ui.share.exports import SkillExports
from studio.ui.share.serving import McpServing

__all__ = ["McpServing", "SkillExports"]
