"""The model server behind the chat: which backend, which models it offers and what they can do,
whether it is answering, and the embedded engine, started when first needed and stopped with the
app. The app's one `httpx.AsyncClient` is attached here; this module never makes its own.
"""

from __future__ import annotations

import asyncio
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import httpx
from PySide6.QtCore import QObject, Signal

from studio.llm.client import ChatClient, make_client
from studio.llm.embedded import EmbeddedEngine, find_ollama_models
from studio.llm.errors import EngineError, LLMError
from studio.llm.transport import CONNECT_TIMEOUT, IDLE_TIMEOUT
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


class Backend(QObject):
    """The chat's connection to a model server.

    Attributes:
        kind: "ollama", "openai" or "embedded".
        url: the server's URL (the running engine's, for embedded).
        connect_timeout, idle_timeout: the clients' timeouts in seconds (see `HTTPTransport`).
        state: "unknown", "checking", "ready", "down", "idle" (embedded, not started) or
            "starting".
        message: what the state means for the user, with what to do when it is down.

    Signals:
        state_changed: (state, message) the server's state changed.
    """

    state_changed = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.kind = "ollama"
        self.url = DEFAULT_URLS["ollama"]
        self.http: httpx.AsyncClient | None = None
        self.state = "unknown"
        self.message = ""
        self.engine: EmbeddedEngine | None = None
        self.connect_timeout: float = CONNECT_TIMEOUT
        self.idle_timeout: float = IDLE_TIMEOUT
        self._engine_lock = asyncio.Lock()

    def attach(self, http: httpx.AsyncClient) -> None:
        self.http = http

    def configure(self, kind: str, url: str, timeouts: tuple[float, float] | None = None) -> None:
        """Use `kind` at `url`; `timeouts` (connect, idle) in seconds apply to the clients made
        from now on."""
        if timeouts is not None:
            self.connect_timeout, self.idle_timeout = timeouts
        if (kind, url) != (self.kind, self.url):
            self.kind, self.url = kind, url
            self._set_state("unknown", "")

    def _set_state(self, state: str, message: str) -> None:
        if (state, message) != (self.state, self.message):
            self.state, self.message = state, message
            self.state_changed.emit(state, message)

    def _client(self, url: str) -> ChatClient:
        if self.http is None:
            raise LLMError("The chat is not connected yet; wait for the studio to finish starting.")
        return make_client(self.kind, url, self.http, connect_timeout=self.connect_timeout,
                           idle_timeout=self.idle_timeout)

    async def list_models(self, gguf_path: str = "") -> list[ModelChoice]:
        """The models to offer, with what each can do; the state says whether the server answered.
        For the embedded backend: the GGUF files it can serve (`gguf_path` first, then the models
        Ollama has pulled).

        Raises LLMError (with the URL and how to start the server) when it does not answer."""
        if self.kind == "embedded":
            return self._gguf_choices(gguf_path)
        self._set_state("checking", f"Asking {self.url} for its models…")
        try:
            client = self._client(self.url)
            models = await client.list_models()
            infos = await asyncio.gather(*(client.model_info(m.name) for m in models),
                                         return_exceptions=True)
        except LLMError as exc:
            self._set_state("down", exc.user_message)
            raise
        choices = [_choice(model, info) for model, info in zip(models, infos, strict=True)]
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
        choices = [ModelChoice(str(m.path), m.name) for m in find_ollama_models()]
        if configured and all(c.name != configured for c in choices):
            choices.insert(0, ModelChoice(configured, Path(configured).name))
        if self.engine is not None and self.engine.running:
            self._set_state("ready", f"The embedded engine is running {self.engine.model_path.name}.")
        else:
            self._set_state("idle", "The embedded engine starts when you send a message."
                            if choices else "Pick a GGUF model file in Settings to use the "
                            "embedded engine.")
        return choices

    async def open_client(self, model: str, timeouts: tuple[float, float] | None = None
                          ) -> tuple[ChatClient, str]:
        """A client for a chat with `model`, and the model's name on the server. For the embedded
        backend `model` is a GGUF file, whose engine is started (or switched) here. `timeouts`
        (connect, idle) replace the configured ones, as Settings may have changed them."""
        if timeouts is not None:
            self.connect_timeout, self.idle_timeout = timeouts
        if self.kind != "embedded":
            return self._client(self.url), model
        if not model:
            raise EngineError("Pick a GGUF model file for the embedded engine (Settings, or the "
                              "model picker).")
        async with self._engine_lock:
            engine = self.engine
            if engine is None or engine.model_path != Path(model) or not engine.running:
                if engine is not None:
                    await engine.stop()
                self.engine = engine = EmbeddedEngine(Path(model))
                self._set_state("starting", f"Starting the embedded engine with {Path(model).name}…")
                try:
                    await engine.start()
                except LLMError as exc:
                    self.engine = None
                    self._set_state("down", exc.user_message)
                    raise
            client = self._client(engine.base_url)
            names = await client.list_models()
        self._set_state("ready", f"The embedded engine is running {engine.model_path.name}.")
        return client, names[0].name if names else engine.model_path.stem

    async def shutdown(self) -> None:
        """Stop the embedded engine, if it runs."""
        engine, self.engine = self.engine, None
        if engine is not None:
            await engine.stop()


def _choice(model: ModelInfo, info: ModelInfo | BaseException) -> ModelChoice:
    if isinstance(info, ModelInfo):
        return ModelChoice(model.name, model.name, info.supports_tools, info.supports_thinking)
    return ModelChoice(model.name, model.name)
