"""The policy tests share one fixed workspace; see world.py."""

from tests.policy.world import world

__all__ = ["world"]
