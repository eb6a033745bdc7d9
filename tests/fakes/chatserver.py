"""What both fake model servers share: the queue of scripted turns and playing one turn as a
stream; subclasses say how each event looks on their wire."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from tests.fakes.httpserver import Exchange, Request, ScriptedHTTPServer
from tests.fakes.script import (
    Bytes,
    Call,
    Disconnect,
    Endless,
    Event,
    Hang,
    Pause,
    Raw,
    Text,
    Trickle,
    Turn,
)


class ScriptedChatServer(ScriptedHTTPServer):
    """A fake model server. `models` maps each model name to its capabilities ("completion",
    "tools", "thinking"); chats for other models get the server's "not found" error.

    Attributes:
        chats: the JSON bodies of the chat requests received, in order.
    """

    chat_path = ""
    content_type = ""
    raw_separator = b"\n"

    def __init__(self, models: dict[str, list[str]] | None = None) -> None:
        super().__init__()
        self.models = dict(models if models is not None else {"fake-model": ["completion", "tools"]})
        self._turns: deque[Turn] = deque()
        self._turn_lock = threading.Lock()
        # Answers each chat request from its body instead of the script, when set: for tests whose
        # requests come in no fixed order (runs spread over several servers at once).
        self.responder: Callable[[dict[str, Any]], Turn] | None = None

    def script(self, *turns: Turn) -> None:
        """Queue turns; each chat request takes the next one."""
        with self._turn_lock:
            self._turns.extend(turns)

    @property
    def pending(self) -> int:
        with self._turn_lock:
            return len(self._turns)

    @property
    def chats(self) -> list[Any]:
        return [request.json for request in self.requests_to(self.chat_path)]

    def _take(self) -> Turn | None:
        with self._turn_lock:
            return self._turns.popleft() if self._turns else None

    def refusal(self, body: dict[str, Any]) -> tuple[int, Any] | None:
        """The error a real server would give this chat request before streaming, if any."""
        return None

    def no_turn_left(self) -> tuple[int, Any]:
        return 500, {"error": f"{type(self).__name__}: no scripted turn left for this request"}

    async def play_chat(self, request: Request, exchange: Exchange) -> None:
        body = request.json or {}
        refused = self.refusal(body)
        if refused is not None:
            await exchange.send(*refused)
            return
        turn = self.responder(body) if self.responder is not None else self._take()
        if turn is None:
            await exchange.send(*self.no_turn_left())
            return
        if turn.status >= 400:
            await exchange.send(turn.status, turn.body)
            return
        if turn.events and isinstance(turn.events[0], Hang):
            await exchange.hang()
        if turn.events and isinstance(turn.events[0], Disconnect):
            exchange.drop()
            return
        if turn.events and isinstance(turn.events[0], Bytes):
            await exchange.write_raw(turn.events[0].data)
            return
        await exchange.start_stream(self.content_type)
        await exchange.chunk(self.encode_start(body))
        call_index = 0
        for event in turn.events:
            if isinstance(event, Pause):
                await exchange.pause(event.seconds)
            elif isinstance(event, Hang):
                await exchange.hang()
            elif isinstance(event, Disconnect):
                exchange.drop()
                return
            elif isinstance(event, Raw):
                await exchange.chunk(event.line.encode() + self.raw_separator)
            elif isinstance(event, Bytes):
                await exchange.chunk(event.data)
            elif isinstance(event, Trickle):
                while True:
                    await exchange.chunk(event.text.encode())
                    await exchange.pause(event.every)
            elif isinstance(event, Endless):
                while True:
                    await exchange.chunk(self.encode_event(Text(event.text), body, call_index))
                    await exchange.pause(event.every)
            else:
                await exchange.chunk(self.encode_event(event, body, call_index))
                call_index += isinstance(event, Call)
        if turn.done:
            await exchange.chunk(self.encode_finish(turn, body))
        await exchange.end_stream()

    def encode_start(self, body: dict[str, Any]) -> bytes:
        return b""

    def encode_event(self, event: Event, body: dict[str, Any], call_index: int) -> bytes:
        raise NotImplementedError

    def encode_finish(self, turn: Turn, body: dict[str, Any]) -> bytes:
        raise NotImplementedError
