"""`studio chat` here runs against the scripted Ollama server in tests/fakes."""

from fakes.fixtures import fake_ollama

__all__ = ["fake_ollama"]
