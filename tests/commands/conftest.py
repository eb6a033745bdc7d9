"""`studio chat` here runs against the scripted Ollama server in tests/fakes; `studio policy` against
the policy tests' fixed workspace (tests/policy/world.py)."""

from tests.fakes.fixtures import fake_ollama
from tests.policy.world import world

__all__ = ["fake_ollama", "world"]
