"""Model backends: talk to a model server over HTTP, streaming; no Qt, and no knowledge of skills.

- `types`: Message, ToolSpec, ToolCall, ModelInfo and the stream events (TextChunk, ThinkingChunk,
  ToolCallChunk, StreamEnd).
- `client`: the ChatClient protocol and `make_client(backend, url, http)`.
- `ollama`, `openai`: the two HTTP clients; `embedded`: llama.cpp's server (xllamacpp) as a child
  process, and the models Ollama has pulled; `embedded_server`: that child's entry point.
- `errors`: LLMError and its subclasses, each with a `user_message`.
- `textcalls`: tool calls a model wrote as text.
"""
