"""`studio chat` here runs against the scripted Ollama server in tests/fakes (`studio scan --judge`
also against the scripted OpenAI-compatible one); `studio policy` against the policy tests' fixed
workspace (tests/policy/world.py)."""

from tests.fakes.fixtures import fake_ollama, fake_openai
from tests.policy.world import world

__all__ = ["fake_ollama", "fake_openai", "world"]
