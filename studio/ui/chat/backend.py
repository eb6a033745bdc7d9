"""The model server behind the chat, as the studio shows it: which backend, which models it
offers and what they can do, and whether it is answering. The core `ModelServer` makes the
clients and runs the embedded engine; the app's one `httpx.AsyncClient` is attached to it here.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import httpx
from PySide6.QtCore import QObject, Signal

from studio.agent.server import ModelServer
from studio.agent.session import SessionSettings
from studio.llm.errors import LLMError
from studio.llm.types import ModelInfo
from studio.settings import DEFAULT_URLS, BackendSettings

BACKEND_LABELS = {"ollama": "Ollama", "openai": "OpenAI-compatible", "embedded": "Embedded"}


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """A model the picker offers.

    Attributes:
        name: the model's name on the server; for the embedded backend, the GGUF file's path.
        supports_tools, supports_thinking: None when the server does not say.
    """

    name: str
    label: str
    supports_tools: bool | None = None
    supports_thinking: bool | None = None

    @property
    def marked_label(self) -> str:
        return self.label + (" — no tools" if self.supports_tools is False else "")


def url_for(settings: BackendSettings, kind: str) -> str:
    """The URL to use for `kind`: the configured one when it is for that kind, else its default."""
    if settings.kind == kind and settings.url.strip():
        return settings.url.strip()
    return DEFAULT_URLS.get(kind, "")


def turn_settings(settings: BackendSettings, model: str, think: bool) -> SessionSettings:
    """The core session's settings for a turn in the studio: the model picked, the backend and
    timeouts from Settings, and the workspace mode Settings choose ("skill" unless changed)."""
    folder = settings.workspace.strip()
    return SessionSettings(
        backend=settings.kind, url=url_for(settings, settings.kind), model=model, think=think,
        connect_timeout=settings.connect_timeout, idle_timeout=settings.idle_timeout,
        workspace_mode=settings.workspace_mode, workspace=Path(folder).expanduser() if folder else None,
    )


class Backend(QObject):
    """The chat's connection to a model server, shown in the pane.

    Attributes:
        server: the core's model server, which the chat sessions use.
        state: "unknown", "checking", "ready", "down", "idle" (embedded, not started) or
            "starting".
        message: what the state means for the user, with what to do when it is down.

    Signals:
        state_changed: (state, message) the server's state changed.
    """

    state_changed = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server = ModelServer(url=DEFAULT_URLS["ollama"])
        self.server.on_state = self._set_state
        self.state = "unknown"
        self.message = ""

    @property
    def kind(self) -> str:
        return self.server.kind

    @property
    def url(self) -> str:
        return self.server.url

    def attach(self, http: httpx.AsyncClient) -> None:
        self.server.http = http

    def configure(self, kind: str, url: str, timeouts: tuple[float, float] | None = None) -> None:
        """Use `kind` at `url`; `timeouts` (connect, idle) in seconds apply to the clients made
        from now on."""
        changed = (kind, url) != (self.kind, self.url)
        self.server.configure(kind, url, timeouts)
        if changed:
            self._set_state("unknown", "")

    def _set_state(self, state: str, message: str) -> None:
        if (state, message) != (self.state, self.message):
            self.state, self.message = state, message
            self.state_changed.emit(state, message)

    async def list_models(self, gguf_path: str = "") -> list[ModelChoice]:
        """The models to offer, with what each can do; the state says whether the server answered.
        For the embedded backend: the GGUF files it can serve (`gguf_path` first, then the models
        Ollama has pulled).

        Raises LLMError (with the URL and how to start the server) when it does not answer."""
        if self.kind == "embedded":
            return self._gguf_choices(gguf_path)
        self._set_state("checking", f"Asking {self.url} for its models…")
        try:
            models = await self.server.models()
        except LLMError as exc:
            self._set_state("down", exc.user_message)
            raise
        choices = [_choice(model, info) for model, info in models]
        if choices:
            self._set_state("ready", f"{BACKEND_LABELS[self.kind]} at {self.url} is answering.")
        else:
            hint = ("Pull one with `ollama pull qwen3:0.6b`." if self.kind == "ollama"
                    else "Load a model into the server.")
            self._set_state("down", f"{self.url} is answering but offers no models. {hint}")
        return choices

    def _gguf_choices(self, configured: str) -> list[ModelChoice]:
        if importlib.util.find_spec("xllamacpp") is None:
            self._set_state("down", "The embedded engine needs llama.cpp's server: install it with "
                            "`pip install 'skill-studio[local]'`, or pick another backend.")
            return []
        choices = [ModelChoice(str(f.path), f.name) for f in self.server.gguf_files()]
        if configured and all(c.name != configured for c in choices):
            choices.insert(0, ModelChoice(configured, Path(configured).name))
        engine = self.server.engine
        if engine is not None and engine.running:
            self._set_state("ready", f"The embedded engine is running {engine.model_path.name}.")
        else:
            self._set_state("idle", "The embedded engine starts when you send a message."
                            if choices else "Pick a GGUF model file in Settings to use the "
                            "embedded engine.")
        return choices

    async def shutdown(self) -> None:
        """Stop the embedded engine, if it runs."""
        await self.server.close()


def _choice(model: ModelInfo, info: ModelInfo | None) -> ModelChoice:
    if info is not None:
        return ModelChoice(model.name, model.name, info.supports_tools, info.supports_thinking)
    return ModelChoice(model.name, model.name)
