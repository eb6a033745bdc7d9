"""The script language shared by the fake model servers: a script is a list of `Turn`s, one per chat
request, each a list of events to stream.

Events:
    Text("Hel"), Text("lo")      content pieces, one chunk each
    Thinking("hmm")              a thinking / reasoning piece
    Call("activate_skill", {"name": "pdf"}, id="c1", pieces=3, index=0)
                                 a tool call. Ollama sends it whole in one chunk; the OpenAI fake
                                 splits its JSON arguments into `pieces` deltas (index=None leaves
                                 the index out, id="" leaves the id out)
    Pause(0.2)                   wait before the next chunk (ends early if the client goes away)
    Hang()                       stop sending and keep the connection open until the client leaves;
                                 as the first event, the server never even sends headers
    Disconnect()                 drop the connection at once (mid-body; as the first event, before
                                 any response)
    Raw("data: {oops")           write a line exactly as given (malformed data)
    Bytes(b'{"mess')             write these bytes and nothing else (a cut line, binary garbage);
                                 as the first event, instead of an HTTP response at all
    Trickle("\n", every=0.5)     send the text again and again, `every` seconds apart, until the
                                 client leaves (a keep-alive that never turns into an answer)
    StreamError("model crashed") the server's in-stream error object

A turn can instead be an HTTP error: `error(500, {"error": "boom"})` (a dict is sent as JSON, a
str as text, or as HTML when it starts with "<"). `Turn(done=False)` ends the stream cleanly but
without the final done marker.

Builders: reply(*pieces, thinking=...), calls(Call(...), ..., text=...), error(status, body),
hang(*events_before), disconnect(*events_before).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Thinking:
    text: str


@dataclass(frozen=True)
class Call:
    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None
    pieces: int = 3
    index: int | str | None = "auto"


@dataclass(frozen=True)
class Pause:
    seconds: float


@dataclass(frozen=True)
class Hang:
    pass


@dataclass(frozen=True)
class Disconnect:
    pass


@dataclass(frozen=True)
class Raw:
    line: str


@dataclass(frozen=True)
class Bytes:
    data: bytes


@dataclass(frozen=True)
class Trickle:
    text: str = "\n"
    every: float = 0.5


@dataclass(frozen=True)
class Endless:
    """Answer text `text` again and again, every `every` seconds, until the client hangs up: a
    model that never stops."""

    text: str = "more "
    every: float = 0.0


@dataclass(frozen=True)
class StreamError:
    message: str


Event = (Text | Thinking | Call | Pause | Hang | Disconnect | Raw | Bytes | Trickle | Endless
         | StreamError)


@dataclass
class Turn:
    """One scripted answer. `finish` defaults to "tool_calls" when the turn has calls, else "stop";
    `usage` is reported at the end as prompt/completion token counts."""

    events: list[Event] = field(default_factory=list)
    status: int = 200
    body: Any = None
    finish: str | None = None
    usage: tuple[int, int] = (12, 5)
    done: bool = True

    @property
    def finish_reason(self) -> str:
        if self.finish:
            return self.finish
        return "tool_calls" if any(isinstance(e, Call) for e in self.events) else "stop"


def reply(*pieces: str, thinking: tuple[str, ...] | list[str] = (), pause: float = 0.0) -> Turn:
    """Thinking pieces, then content pieces, with an optional pause before each piece."""
    events: list[Event] = []
    for kind, texts in ((Thinking, thinking), (Text, pieces)):
        for text in texts:
            if pause:
                events.append(Pause(pause))
            events.append(kind(text))
    return Turn(events)


def calls(*tool_calls: Call, text: str = "") -> Turn:
    events: list[Event] = [Text(text)] if text else []
    return Turn([*events, *tool_calls])


def error(status: int, body: Any) -> Turn:
    return Turn(status=status, body=body)


def hang(*before: Event) -> Turn:
    return Turn([*before, Hang()])


def disconnect(*before: Event) -> Turn:
    return Turn([*before, Disconnect()])
