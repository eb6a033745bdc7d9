"""The embedded engine: llama.cpp's server (package `xllamacpp`, installed with the studio) run as
a child process on 127.0.0.1 and a free port, serving one GGUF file.

It also finds the models Ollama has already pulled (manifests and blobs under ~/.ollama/models),
so they can be served without Ollama.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx

from studio.llm.chat_templates import tool_template_for
from studio.llm.embedded_server import EXIT_NO_ENGINE
from studio.llm.errors import EngineError
from studio.llm.gguf import GGUFError, is_gguf, read_metadata
from studio.llm.openai import OpenAIClient
from studio.llm.transport import CONNECT_TIMEOUT, IDLE_TIMEOUT
from studio.llm.types import DEFAULT_CONTEXT_SIZE, context_tokens

BACKEND_NAME = "embedded"
START_HINT = "The embedded engine is not running; start it again by picking the model file."
_MODEL_LAYER = "application/vnd.ollama.image.model"
_STDERR_LINES = 40
_LOG_LINES_SHOWN = 12
_POLL_INTERVAL = 0.25
_STOP_GRACE = 5.0
_MAX_THREADS = 8


@dataclass(frozen=True, slots=True)
class OllamaModelFile:
    """A model Ollama has pulled: its name as `ollama list` shows it, and its GGUF blob."""

    name: str
    path: Path
    size: int


def ollama_models_dir() -> Path:
    """Where Ollama keeps its models: `OLLAMA_MODELS`, else ~/.ollama/models."""
    configured = os.environ.get("OLLAMA_MODELS")
    return Path(configured).expanduser() if configured else Path.home() / ".ollama" / "models"


def _display_name(host: str, namespace: str, model: str, tag: str) -> str:
    if host == "registry.ollama.ai":
        prefix = "" if namespace == "library" else namespace + "/"
    else:
        prefix = f"{host}/{namespace}/"
    return f"{prefix}{model}:{tag}"


def find_ollama_models(models_dir: Path | None = None) -> list[OllamaModelFile]:
    """The GGUF model files of the models Ollama has pulled, sorted by name. Manifests that cannot
    be read, and blobs that are missing or not GGUF, are skipped."""
    root = models_dir if models_dir is not None else ollama_models_dir()
    manifests = root / "manifests"
    if not manifests.is_dir():
        return []
    found: list[OllamaModelFile] = []
    for manifest in sorted(manifests.glob("*/*/*/*")):
        if not manifest.is_file():
            continue
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        layers = data.get("layers") if isinstance(data, dict) else None
        for layer in layers if isinstance(layers, list) else ():
            if not isinstance(layer, dict) or layer.get("mediaType") != _MODEL_LAYER:
                continue
            digest = layer.get("digest")
            if not isinstance(digest, str) or ":" not in digest:
                continue
            blob = root / "blobs" / digest.replace(":", "-", 1)
            if not is_gguf(blob):
                continue
            host, namespace, model, tag = manifest.relative_to(manifests).parts
            found.append(
                OllamaModelFile(_display_name(host, namespace, model, tag), blob, blob.stat().st_size)
            )
    return sorted(found, key=lambda item: item.name)


def default_threads() -> int:
    """Threads for the engine when the settings leave it to the studio: the CPUs this process may
    use (a container's or `taskset`'s limit, not the machine's count), at most 8: generating
    tokens is bound by memory speed, and more threads only slow a busy machine down."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 1
    return max(1, min(usable, _MAX_THREADS))


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


async def _end(process: asyncio.subprocess.Process) -> None:
    if process.stdin is not None:
        process.stdin.close()
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), _STOP_GRACE)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
    except BaseException:
        # Cancelled while waiting (the app is quitting): do not leave the engine running.
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        raise


def _child_environment() -> dict[str, str]:
    """This environment, with the folder holding the `studio` package first on the child's path
    so that `python -m studio.llm.embedded_server` works from a source checkout too."""
    env = dict(os.environ)
    source_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source_root, env.get("PYTHONPATH")]))
    return env


class EmbeddedEngine:
    """One llama.cpp server process serving `model_path`, with an OpenAI-compatible API.

    `ctx_size` is the context in tokens (at most the model's own: it is lowered at start);
    `threads=0` uses `default_threads()`. `chat_template=None` keeps the model's own template
    unless that one cannot offer tools and the
    model speaks ChatML; then `chat_templates.CHATML_TOOLS` is used. `chat_template=""` always
    keeps the model's own; any other text is used as the template. Use it as
    `async with EmbeddedEngine(path) as engine:` or call `start()` and `stop()`.

    Attributes:
        base_url: http://127.0.0.1:PORT once started.
        model_path: the GGUF file served.
    """

    def __init__(
        self,
        model_path: Path,
        *,
        ctx_size: int = DEFAULT_CONTEXT_SIZE,
        threads: int = 0,
        chat_template: str | None = None,
        startup_timeout: float = 120.0,
        host: str = "127.0.0.1",
        python: str = sys.executable,
    ) -> None:
        self.model_path = Path(model_path)
        self.ctx_size = ctx_size
        self.threads = threads or default_threads()
        self.chat_template = chat_template
        self.startup_timeout = startup_timeout
        self.host = host
        self.python = python
        self.base_url = ""
        self._process: asyncio.subprocess.Process | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._stderr_task: asyncio.Task[None] | None = None
        self._template_file: Path | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    def client(
        self,
        http: httpx.AsyncClient | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
    ) -> OpenAIClient:
        if not self.base_url:
            raise EngineError("The embedded engine has not been started yet; start it first.")
        return OpenAIClient(
            self.base_url,
            http,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
            backend_name=BACKEND_NAME,
            start_hint=START_HINT,
        )

    def _command(self, port: int) -> list[str]:
        # Each value joined to its option (`--model=PATH`): a model file named `--help.gguf`, or
        # a skill's `model:` starting with '-', stays a value and never becomes an option.
        command = [
            self.python, "-m", "studio.llm.embedded_server",
            f"--model={self.model_path.absolute()}",
            f"--host={self.host}",
            f"--port={port}",
            f"--ctx-size={self.ctx_size}",
            f"--threads={self.threads}",
        ]  # fmt: skip
        if self._template_file is not None:
            command.append(f"--chat-template-file={self._template_file}")
        return command

    def _read_model(self) -> str | None:
        """Fit the context to what the model was trained for (more only makes it ramble) and
        return the chat template to use instead of the model's own, if any."""
        try:
            metadata = read_metadata(self.model_path)
        except GGUFError as exc:
            raise EngineError(f"{exc}. Pick a .gguf model file.") from None
        except OSError as exc:
            raise EngineError(f"Cannot read {self.model_path}: {exc.strerror or exc}.") from None
        architecture = metadata.get("general.architecture")
        trained = context_tokens(metadata.get(f"{architecture}.context_length"))
        if trained:
            self.ctx_size = min(self.ctx_size, trained)
        if self.chat_template is not None:
            return self.chat_template or None
        return tool_template_for(metadata)

    async def start(self) -> str:
        """Start the engine and wait until it answers /health; return its base URL.

        Raises EngineError saying why (no model file, xllamacpp missing, llama.cpp failed: with the
        end of its log, not ready in time)."""
        if self.running:
            return self.base_url
        if not self.model_path.is_file():
            raise EngineError(f"The model file {self.model_path} does not exist. Pick another file.")
        if not is_gguf(self.model_path):
            raise EngineError(f"{self.model_path} is not a GGUF model file. Pick a .gguf file.")
        template = self._read_model()
        if template is not None:
            handle, name = tempfile.mkstemp(prefix="studio-template-", suffix=".jinja")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(template)
            self._template_file = Path(name)
        port = free_port(self.host)
        self.base_url = f"http://{self.host}:{port}"
        self._stderr.clear()
        self._process = await asyncio.create_subprocess_exec(
            *self._command(port),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=os.name == "posix",
            env=_child_environment(),
        )
        self._stderr_task = asyncio.create_task(self._read_stderr(self._process))
        try:
            await self._wait_ready()
        except BaseException:
            await self.stop()
            raise
        return self.base_url

    async def _read_stderr(self, process: asyncio.subprocess.Process) -> None:
        # Read in blocks, not lines: llama.cpp can log lines longer than a stream's line limit.
        assert process.stderr is not None
        pending = b""
        while block := await process.stderr.read(65536):
            *lines, pending = (pending + block).split(b"\n")
            self._keep(lines)
        self._keep([pending])

    def _keep(self, lines: list[bytes]) -> None:
        for raw in lines:
            line = raw.decode("utf-8", errors="replace").rstrip()
            if line:
                self._stderr.append(line)

    async def _wait_ready(self) -> None:
        process = self._process
        assert process is not None
        deadline = time.monotonic() + self.startup_timeout
        timeout = httpx.Timeout(2.0)
        async with httpx.AsyncClient(timeout=timeout) as http:
            while True:
                if process.returncode == EXIT_NO_ENGINE:
                    # The model was never read: the engine's own message is the whole story.
                    raise EngineError(await self._log_tail())
                if process.returncode is not None:
                    raise EngineError(await self._failure(f"stopped with exit code {process.returncode}"))
                with contextlib.suppress(httpx.HTTPError):
                    response = await http.get(self.base_url + "/health")
                    if response.status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise EngineError(await self._failure(f"was not ready after {self.startup_timeout:g} s"))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), _POLL_INTERVAL)

    async def _log_tail(self) -> str:
        """The last lines the engine wrote, once it has written them."""
        if self._stderr_task is not None and self._process is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
        return "\n".join(list(self._stderr)[-_LOG_LINES_SHOWN:]) or "(it wrote nothing)"

    async def _failure(self, what: str) -> str:
        tail = await self._log_tail()
        return (
            f"The embedded engine for {self.model_path.name} {what}. The end of its log:\n{tail}\n"
            "Check that the file is a complete GGUF model and that there is enough memory, "
            "or pick a smaller model."
        )

    async def stop(self) -> None:
        """Stop the engine: SIGTERM, then a kill if it has not exited within a few seconds."""
        process, self._process = self._process, None
        try:
            if process is not None:
                await _end(process)
        finally:
            if self._stderr_task is not None:
                task, self._stderr_task = self._stderr_task, None
                # Read the log to its end once the engine has exited: a reader cancelled with the
                # pipe still open leaves the pipe's transport unclosed. wait_for cancels it if a
                # child of the engine keeps the pipe open.
                with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                    await asyncio.wait_for(task, _STOP_GRACE if process is not None else 0)
            if self._template_file is not None:
                self._template_file.unlink(missing_ok=True)
                self._template_file = None

    async def __aenter__(self) -> EmbeddedEngine:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
