"""Scripted model servers for tests: real HTTP on 127.0.0.1 (an ephemeral port), run in a thread
of the test process, so clients on any event loop (pytest-asyncio, qasync) can talk to them.

- `fakes.ollama.FakeOllama`: Ollama's /api/chat (NDJSON), /api/tags, /api/show, /api/version.
- `fakes.openai.FakeOpenAI`: /v1/chat/completions (SSE, `data: [DONE]`), /v1/models, /health,
  and llama.cpp's /props when given.
- `fakes.script`: the script language (Turn, Text, Thinking, Call, Pause, Hang, Disconnect, Raw,
  Bytes, Trickle, StreamError and the builders reply/calls/error/hang/disconnect); see its
  docstring.
- `fakes.fixtures`: pytest fixtures fake_ollama, fake_openai, http_client.

Every server records what it got: `server.requests` (method, path, headers, body, `.json`,
`client_gone`), `server.chats` (the chat request bodies), `server.pending` (turns not yet used),
`server.disconnected` / `server.wait_disconnected(timeout)` (a client hung up mid-answer).

    from tests.fakes.script import Call, calls, reply

    fake_ollama.script(
        calls(Call("activate_skill", {"name": "pdf"})),   # first chat request
        reply("The PDF skill ", "is loaded."),            # second
    )
    client = OllamaClient(fake_ollama.url, http_client)
    ...
    assert fake_ollama.chats[1]["messages"][-1]["role"] == "tool"
"""
