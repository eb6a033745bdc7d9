"""Errors from talking to a model server, each with a message a person can act on.

`str(error)` and `error.user_message` are the same text: what happened, then what to do next.
"""

from __future__ import annotations

from studio.errors import StudioError


class LLMError(StudioError):
    """Base of every error the model clients raise."""

    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)


class ServerNotRunning(LLMError):
    def __init__(self, url: str, hint: str) -> None:
        super().__init__(f"No model server is answering at {url}. {hint}")
        self.url = url
        self.hint = hint


class ModelNotFound(LLMError):
    def __init__(self, model: str, hint: str, server_text: str = "") -> None:
        super().__init__(f"The model {model!r} is not available on the server. {hint}")
        self.model = model
        self.hint = hint
        self.server_text = server_text


class ToolsUnsupported(LLMError):
    def __init__(self, model: str, server_text: str = "") -> None:
        super().__init__(
            f"The model {model!r} does not support tools, so it cannot load or run skills. "
            "Pick a model with tool support, or chat without skills."
        )
        self.model = model
        self.server_text = server_text


class ThinkingUnsupported(LLMError):
    def __init__(self, model: str, server_text: str = "") -> None:
        super().__init__(
            f"The model {model!r} does not support thinking. Switch thinking off, or pick a model "
            "that can think."
        )
        self.model = model
        self.server_text = server_text


class HTTPError(LLMError):
    def __init__(self, url: str, status: int, server_text: str) -> None:
        detail = server_text.strip() or "(no message)"
        if len(detail) > 500:
            detail = detail[:500] + "…"
        advice = (
            "The server failed; its log may say more. Try again, or restart the server."
            if status >= 500
            else "Check the model name and the settings for this backend."
        )
        super().__init__(f"The model server at {url} answered HTTP {status}: {detail}. {advice}")
        self.url = url
        self.status = status
        self.server_text = server_text


class StreamInterrupted(LLMError):
    def __init__(self, url: str, detail: str, *, before_answer: bool = False) -> None:
        what = (f"The server at {url} closed the connection without answering" if before_answer
                else f"The answer from {url} stopped midway")
        super().__init__(
            f"{what}: {detail}. Check that the server is still running (its log may say why), "
            "then send the message again."
        )
        self.url = url
        self.detail = detail


class BadResponse(LLMError):
    """The server sent something this client cannot read (not JSON, or not the expected shape)."""

    def __init__(self, url: str, detail: str, hint: str) -> None:
        super().__init__(f"The server at {url} sent a reply this app cannot read: {detail}. {hint}")
        self.url = url
        self.detail = detail


class BadURL(LLMError):
    """The configured address cannot name an HTTP server."""

    def __init__(self, url: str, detail: str) -> None:
        super().__init__(
            f"The server URL {url!r} cannot be used: {detail}. Write it like "
            "http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080/v1."
        )
        self.url = url
        self.detail = detail


class Timeout(LLMError):
    """The server took too long: to accept the connection (`phase` "connect") or to send the next
    piece of its answer ("idle")."""

    def __init__(self, url: str, seconds: float | None, phase: str) -> None:
        waited = f"{seconds:g} s" if seconds is not None else "too long"
        if phase == "connect":
            message = (
                f"Could not connect to {url} within {waited} (the connect timeout). Check that "
                "the address is right and that the server is reachable, or allow more time "
                "(--connect-timeout, or Connect timeout in Settings)."
            )
        else:
            message = (
                f"The model server at {url} sent no answer for {waited} (the idle timeout). It "
                "may be stuck, or still loading a large model; try again, or allow more time "
                "(--idle-timeout, or Idle timeout in Settings)."
            )
        super().__init__(message)
        self.url = url
        self.seconds = seconds
        self.phase = phase


class EngineError(LLMError):
    """The embedded llama.cpp engine could not be started or stopped."""
