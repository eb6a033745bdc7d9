"""`studio list`: see `studio.commands.installed`."""

from studio.commands.installed import register_list as register

__all__ = ["register"]
