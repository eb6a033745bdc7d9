"""Skill Studio: browse, author, validate and try Agent Skills."""

__version__ = "0.1.0"
