"""The editor: a skill's tab (its form, its text, its preview and files), plain file tabs, saving,
autosaves and their recovery, and following files changed on disk."""
