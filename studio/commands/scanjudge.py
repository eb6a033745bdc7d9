"""`studio scan --judge MODEL`: after the rules, a local model reads each skill and gives a
verdict, which the scanner adds as one more finding. What the model is shown and how its answer
is read are the scanner's (`studio.threatscan`: `judge_request`, `read_verdict`); talking to the
model is here.

The model is reached as `studio chat` and `studio eval` reach theirs: `--backend`, `--url` and the
model's name, through the core's `ModelServer` (which starts the embedded engine when that is the
backend). One skill at a time unless `--per-server` says more: a local model answers one request
at a time best. Progress goes to stderr. A server that is down, does not have the model, fails or
times out stops the judge with one message, and the skills it did not get to keep the rules'
findings alone (the report says how many); Ctrl+C stops it too, keeping what finished."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from collections.abc import AsyncGenerator, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

import httpx

from studio.agent import ModelServer
from studio.commands.options import parse_options
from studio.commands.textsafe import one_line
from studio.errors import StudioError
from studio.llm import (
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    BadResponse,
    ChatClient,
    HTTPError,
    LLMError,
    Message,
    StreamEvent,
    TextChunk,
    checked_url,
)
from studio.threatscan import JudgeRun, SkillScan, judge_request, read_verdict

# Asked of every judge unless `--option` says otherwise: the same skill gets the same verdict,
# and an answer is one short JSON object.
JUDGE_OPTIONS = {"temperature": 0, "max_tokens": 512}


class JudgeError(StudioError):
    """A `--judge` that cannot be used as given."""


@dataclass(frozen=True)
class JudgeSettings:
    """The judge a scan asks: its model, the backend and URL of its server ("" for the backend's
    usual one), how many skills it judges at once, the sampling options sent and the server's
    timeouts in seconds (as `studio chat`'s)."""

    model: str
    backend: str = "ollama"
    url: str = ""
    per_server: int = 1
    options: dict[str, Any] = field(default_factory=lambda: dict(JUDGE_OPTIONS))
    connect_timeout: float = float(CONNECT_TIMEOUT)
    idle_timeout: float = float(IDLE_TIMEOUT)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> JudgeSettings:
        """The settings `studio scan`'s options give. Raises JudgeError, BadURL or OptionError,
        each saying what is wrong."""
        if not args.judge.strip():
            raise JudgeError("--judge needs a model's name (`studio models` lists a server's)")
        return cls(args.judge.strip(), args.backend or "ollama",
                   checked_url(args.url) if args.url else "", args.per_server or 1,
                   JUDGE_OPTIONS | parse_options(args.option),
                   args.connect_timeout or float(CONNECT_TIMEOUT),
                   args.idle_timeout or float(IDLE_TIMEOUT))


def judge_scans(scans: list[SkillScan], settings: JudgeSettings, err: TextIO) -> JudgeRun:
    """Have the judge of `settings` read each of `scans`, adding its verdict to each as it comes;
    returns the run's record. Never raises for the server or the user: a judge that stops says
    why on `err` and in the record."""
    run = JudgeRun(settings.model, settings.backend, len(scans))
    try:
        asyncio.run(_until_signalled(scans, settings, run, err))
    except (KeyboardInterrupt, asyncio.CancelledError):
        run.interrupted = True
        err.write(f"studio scan: stopped; the judge gave its verdict on {run.judged} of "
                  f"{run.skills} skills; the report has every rule's finding\n")
    return run


async def _until_signalled(scans: list[SkillScan], settings: JudgeSettings, run: JudgeRun,
                           err: TextIO) -> None:
    """SIGTERM stops the judge as Ctrl+C does (the embedded engine is stopped either way)."""
    task = asyncio.current_task()
    assert task is not None
    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    await _judge_all(scans, settings, run, err)


async def _judge_all(scans: list[SkillScan], settings: JudgeSettings, run: JudgeRun,
                     err: TextIO) -> None:
    def progress(state: str, message: str) -> None:
        if state == "starting":
            err.write(f"studio scan: {message}\n")
            err.flush()

    async with httpx.AsyncClient() as http:
        server = ModelServer(http, kind=settings.backend, url=settings.url,
                             connect_timeout=settings.connect_timeout,
                             idle_timeout=settings.idle_timeout)
        server.on_state = progress
        try:
            client, run.model = await server.open(settings.model)
            context = await _context_tokens(client, run.model)
            pending = iter(enumerate(scans, 1))
            await asyncio.gather(*(_worker(pending, client, context, settings, run, err)
                                   for _ in range(min(settings.per_server, len(scans)))))
        except LLMError as exc:
            _stop(run, exc, err)
        finally:
            await server.close()


async def _worker(pending: Iterator[tuple[int, SkillScan]], client: ChatClient, context: int | None,
                  settings: JudgeSettings, run: JudgeRun, err: TextIO) -> None:
    """Judge the skills `pending` gives until there are none, or the judge has stopped."""
    for number, scan in pending:
        if run.stopped:
            return
        err.write(f"studio scan: judging {number}/{run.skills} {one_line(str(scan.path))}\n")
        err.flush()
        try:
            await _judge_one(client, run.model, scan, context, settings.options)
        except LLMError as exc:
            _stop(run, exc, err)
            return
        run.judged += 1


async def _judge_one(client: ChatClient, model: str, scan: SkillScan, context: int | None,
                     options: dict[str, Any]) -> None:
    """Put `scan`'s skill to the model and add what it answered to `scan`."""
    request = judge_request(scan.path, scan.findings, context)
    messages = [Message("system", request.system), Message("user", request.user)]
    stream = cast(AsyncGenerator[StreamEvent, None],
                  client.chat(model, messages, options=options, schema=request.schema))
    pieces: list[str] = []
    size = 0
    async with contextlib.aclosing(stream):
        async for event in stream:
            if isinstance(event, TextChunk):
                pieces.append(event.text)
                size += len(event.text)
                if size > request.max_answer_chars:
                    break  # read_verdict says it ran long; closing the stream stops the model
    scan.add_judgement(read_verdict("".join(pieces), request))


async def _context_tokens(client: ChatClient, model: str) -> int | None:
    """The model's context on its server, or None when the server does not say (the request is
    then cut for the smallest usual context). A server that is down or lacks the model raises."""
    try:
        return await client.context_length(model)
    except (HTTPError, BadResponse):
        return None


def _stop(run: JudgeRun, exc: LLMError, err: TextIO) -> None:
    if run.stopped:
        return
    run.stopped = exc.user_message
    err.write(f"studio scan: the judge stopped: {one_line(exc.user_message)} The skills it did "
              "not judge keep the rules' findings alone (the report counts them), and the exit "
              "code is what those findings and the verdicts given so far make it.\n")
    err.flush()
