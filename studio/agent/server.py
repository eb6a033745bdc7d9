"""The model server a chat talks to: which backend at which URL, with which timeouts, over the
app's one HTTP client; for the embedded backend, the llama.cpp engine, started when a chat first
needs it and stopped with `close()`.

Both front ends reach the model only through this: the CLI for one turn, the studio for as long
as it runs (the engine then outlives a chat, so switching chats does not reload the model).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from studio.llm import (
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    ChatClient,
    EmbeddedEngine,
    EngineError,
    LLMError,
    ModelInfo,
    find_ollama_models,
    make_client,
)

# Re-exported: the studio asks whether the engine can run here before offering model files.
from studio.llm import engine_problem as engine_problem

if TYPE_CHECKING:
    # The app's one HTTP client, handed through to the model clients.
    import httpx

# (state, message): "checking", "ready", "down", "starting"; see `ModelServer.on_state`.
StateListener = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class GGUFFile:
    """A model file the embedded engine can serve: its path and the name to show."""

    path: Path
    name: str


class ModelServer:
    """One backend at one URL, and the embedded engine when that is the backend.

    Attributes:
        kind: "ollama", "openai" or "embedded".
        url: the server's URL ("" for the backend's usual one; unused for embedded).
        connect_timeout, idle_timeout: the clients' timeouts in seconds (see `HTTPTransport`).
        engine: the embedded engine, once started.
        on_state: told when the server is asked, starts, answers or fails (the studio shows it).
    """

    def __init__(
        self,
        http: httpx.AsyncClient | None = None,
        *,
        kind: str = "ollama",
        url: str = "",
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        engine_factory: Callable[[Path], EmbeddedEngine] = EmbeddedEngine,
    ) -> None:
        self.http = http
        self.kind = kind
        self.url = url
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        self.engine: EmbeddedEngine | None = None
        self.on_state: StateListener | None = None
        self._engine_factory = engine_factory
        self._engine_lock = asyncio.Lock()

    def configure(self, kind: str, url: str, timeouts: tuple[float, float] | None = None) -> None:
        """Use `kind` at `url` for the clients made from now on; `timeouts` is (connect, idle)."""
        self.kind, self.url = kind, url
        if timeouts is not None:
            self.connect_timeout, self.idle_timeout = timeouts

    def _tell(self, state: str, message: str) -> None:
        if self.on_state is not None:
            self.on_state(state, message)

    def client(self, url: str | None = None) -> ChatClient:
        if self.http is None:
            raise LLMError("The chat is not connected yet; wait for the studio to finish starting.")
        given = self.url if url is None else url
        return make_client(self.kind, given.strip() or None, self.http,
                           connect_timeout=self.connect_timeout, idle_timeout=self.idle_timeout)

    async def models(self) -> list[tuple[ModelInfo, ModelInfo | None]]:
        """The server's models, each with what `model_info` says of it (None when it cannot tell).

        Raises LLMError (with the URL and how to start the server) when it does not answer."""
        client = self.client()
        models = await client.list_models()
        infos = await asyncio.gather(*(client.model_info(m.name) for m in models),
                                     return_exceptions=True)
        return [(model, info if isinstance(info, ModelInfo) else None)
                for model, info in zip(models, infos, strict=True)]

    async def model_names(self) -> list[str]:
        """The names a skill's `model:` can give on this server (for the embedded backend, the
        running engine's; none while it is stopped, since starting it takes a model's memory).

        Raises LLMError (with the URL and how to start the server) when it does not answer."""
        if self.kind == "embedded":
            engine = self.engine
            if engine is None or not engine.running:
                return []
            client = self.client(engine.base_url)
        else:
            client = self.client()
        return [model.name for model in await client.list_models()]

    @staticmethod
    def gguf_files() -> list[GGUFFile]:
        """The model files Ollama has pulled, which the embedded engine can serve as they are."""
        return [GGUFFile(m.path, m.name) for m in find_ollama_models()]

    async def open(self, model: str) -> tuple[ChatClient, str]:
        """A client for a chat with `model`, and the model's name on the server ("" picks the
        server's first model). For the embedded backend `model` is a .gguf file or a model Ollama
        has pulled, whose engine is started here (or switched to)."""
        if self.kind != "embedded":
            client = self.client()
            return client, model or await _first_model(client)
        async with self._engine_lock:
            engine = self.engine
            path = _gguf_for(model)
            if engine is None or engine.model_path != path or not engine.running:
                if engine is not None:
                    self.engine = None
                    await engine.stop()
                engine = self._engine_factory(path)
                self._tell("starting", f"Starting the embedded engine with {path.name}…")
                try:
                    await engine.start()
                except LLMError as exc:
                    self._tell("down", exc.user_message)
                    raise
                except asyncio.CancelledError:
                    await engine.stop()
                    raise
                self.engine = engine
            client = self.client(engine.base_url)
            name = await _first_model(client, fallback=engine.model_path.stem)
        self._tell("ready", f"The embedded engine is running {engine.model_path.name}.")
        return client, name

    async def close(self) -> None:
        """Stop the embedded engine, if it runs."""
        engine, self.engine = self.engine, None
        if engine is not None:
            await engine.stop()


async def _first_model(client: ChatClient, fallback: str = "") -> str:
    models = await client.list_models()
    if models:
        return models[0].name
    if fallback:
        return fallback
    raise LLMError(f"{client.base_url} has no models. Pull one (e.g. `ollama pull qwen3:0.6b`) or "
                   "pick another model.")


def _gguf_for(name: str) -> Path:
    if not name.strip():
        raise EngineError("The embedded engine needs a model: a .gguf file or a model Ollama has "
                          "pulled (Settings, the model picker, or --model).")
    path = Path(name).expanduser()
    # A name that is written as a file is one: the engine then says what is wrong with it.
    if path.is_file() or "/" in name or name.endswith(".gguf"):
        return path
    for model in find_ollama_models():
        if model.name == name or model.name.split(":")[0] == name:
            return model.path
    raise EngineError(f"{name} is neither a .gguf file nor a model Ollama has pulled "
                      "(~/.ollama/models).")
