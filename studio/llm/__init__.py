"""Model backends: talk to a model server over HTTP, streaming; no Qt, and no knowledge of skills.

- `types`: Message, ToolSpec, ToolCall, ModelInfo and the stream events (TextChunk, ThinkingChunk,
  ToolCallChunk, StreamEnd).
- `client`: the ChatClient protocol and `make_client(backend, url, http)`.
- `ollama`, `openai`: the two HTTP clients; `embedded`: llama.cpp's server (xllamacpp) as a child
  process, and the models Ollama has pulled; `embedded_server`: that child's entry point.
- `errors`: LLMError and its subclasses, each with a `user_message`.
- `textcalls`: tool calls a model wrote as text.
- `discovery`, `modelfile`, `hub`, `gguf`: model files on this computer (found, or opened by the
  user), downloads from Hugging Face, a GGUF's header.
- `embeddings`, `minilm`: embedding models for search, on a server or in this process.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`), so asking
for an error class does not load the HTTP clients.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.llm.client import BACKENDS, ChatClient, make_client
    from studio.llm.discovery import LocalModel, find_models
    from studio.llm.embedded import EmbeddedEngine, find_ollama_models
    from studio.llm.embedded_server import engine_problem
    from studio.llm.embeddings import (
        EMBED_BACKENDS,
        Embedder,
        embedder_for,
        local_model_installed,
        search_embedder,
    )
    from studio.llm.errors import (
        BadResponse,
        BadURL,
        EngineError,
        HTTPError,
        LLMError,
        ModelNotFound,
        ServerNotRunning,
        StreamInterrupted,
        ThinkingUnsupported,
        Timeout,
        ToolsUnsupported,
    )
    from studio.llm.gguf import GGUFError, is_gguf, read_metadata
    from studio.llm.hub import (
        RECOMMENDED,
        DownloadCancelled,
        HubError,
        download,
        format_size,
        parse_spec,
        resolve,
    )
    from studio.llm.jsonprefix import object_prefix
    from studio.llm.jsonrepair import repair_json
    from studio.llm.modelfile import ModelFile, ModelFileError, inspect_model_file
    from studio.llm.textcalls import extract_tool_calls
    from studio.llm.transport import CONNECT_TIMEOUT, IDLE_TIMEOUT, checked_url
    from studio.llm.types import (
        DEFAULT_CONTEXT_SIZE,
        Message,
        ModelInfo,
        StreamEnd,
        StreamEvent,
        TextChunk,
        ThinkingChunk,
        ToolCall,
        ToolCallChunk,
        ToolSpec,
        new_call_id,
    )

__all__ = [
    "BACKENDS",
    "CONNECT_TIMEOUT",
    "DEFAULT_CONTEXT_SIZE",
    "EMBED_BACKENDS",
    "IDLE_TIMEOUT",
    "RECOMMENDED",
    "BadResponse",
    "BadURL",
    "ChatClient",
    "DownloadCancelled",
    "EmbeddedEngine",
    "Embedder",
    "EngineError",
    "GGUFError",
    "HTTPError",
    "HubError",
    "LLMError",
    "LocalModel",
    "Message",
    "ModelFile",
    "ModelFileError",
    "ModelInfo",
    "ModelNotFound",
    "ServerNotRunning",
    "StreamEnd",
    "StreamEvent",
    "StreamInterrupted",
    "TextChunk",
    "ThinkingChunk",
    "ThinkingUnsupported",
    "Timeout",
    "ToolCall",
    "ToolCallChunk",
    "ToolSpec",
    "ToolsUnsupported",
    "checked_url",
    "download",
    "embedder_for",
    "engine_problem",
    "extract_tool_calls",
    "find_models",
    "find_ollama_models",
    "format_size",
    "inspect_model_file",
    "is_gguf",
    "local_model_installed",
    "make_client",
    "new_call_id",
    "object_prefix",
    "parse_spec",
    "read_metadata",
    "repair_json",
    "resolve",
    "search_embedder",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
