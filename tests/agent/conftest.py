"""The agent tests run against the scripted servers in tests/fakes, in the project of
tests/fakes/projects.py."""

from tests.agent.sandboxing import place, user
from tests.fakes.fixtures import fake_ollama, fake_openai, http_client
from tests.fakes.projects import project

__all__ = ["fake_ollama", "fake_openai", "http_client", "place", "project", "user"]
