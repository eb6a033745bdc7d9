"""The eval runs here go against the scripted servers in tests/fakes."""

from tests.fakes.fixtures import fake_ollama, http_client

__all__ = ["fake_ollama", "http_client"]
