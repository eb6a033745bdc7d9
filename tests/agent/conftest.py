"""The agent tests run against the scripted servers in tests/fakes."""

from tests.fakes.fixtures import fake_ollama, fake_openai, http_client

__all__ = ["fake_ollama", "fake_openai", "http_client"]
