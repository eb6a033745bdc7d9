"""`studio remove`: see `studio.commands.installed`."""

from studio.commands.installed import register_remove as register

__all__ = ["register"]
