"""The Evals tab tests run in the chat tests' windows: the scripted Ollama server with its tool
model picked, and the demo skill."""

from tests.ui.chat.conftest import asyncgen_hooks, chat_http, chat_skills, chat_window, fake_ollama

__all__ = ["asyncgen_hooks", "chat_http", "chat_skills", "chat_window", "fake_ollama"]
