"""`studio models list` and `studio models pull REPO[:FILE]`: the GGUF models on this machine, and
downloading one from the Hugging Face Hub."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from studio.llm import (
    RECOMMENDED,
    DownloadCancelled,
    HubError,
    LocalModel,
    download,
    find_models,
    format_size,
    parse_spec,
    resolve,
)
from studio.settings import load_settings

_REFRESH = 0.25


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("models", help="list the GGUF models on this machine, or download one")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="the models found (Ollama, LM Studio, Jan, GPT4All, Hugging Face cache)"
    )
    listing.add_argument(
        "--folder",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="also search this folder (the settings' model_folders are searched too)",
    )
    listing.add_argument("--json", action="store_true", help="print JSON, one object per model")
    listing.set_defaults(handler=run_list)
    pull = actions.add_parser("pull", help="download a GGUF model from the Hugging Face Hub")
    pull.add_argument(
        "spec",
        metavar="REPO[:FILE]",
        nargs="?",
        help="e.g. Qwen/Qwen2.5-0.5B-Instruct-GGUF; without it, the recommended models are listed",
    )
    pull.set_defaults(handler=run_pull)


def _row(model: LocalModel) -> dict[str, Any]:
    facts = model.facts
    return {
        "name": model.name,
        "source": model.source,
        "path": str(model.path),
        "size": model.size,
        "quantization": facts.quantization if facts else None,
        "context_length": facts.context_length if facts else None,
        "supports_tools": facts.supports_tools if facts else None,
        "problem": model.problem,
    }


def _describe(model: LocalModel) -> str:
    facts = model.facts
    if facts is None:
        return f"{model.name}  [{model.source}]  {format_size(model.size)}  unreadable: {model.problem}"
    tools = {True: "tools", False: "no tools", None: "no chat template"}[facts.supports_tools]
    context = f"{facts.context_length:,} tokens" if facts.context_length else "context unknown"
    quantization = facts.quantization or "quantization unknown"
    return (
        f"{model.name}  [{model.source}]  {format_size(model.size)}  {quantization}  {context}  "
        f"{tools}\n    {model.path}"
    )


def _recommended(out: TextIO) -> None:
    print("Recommended small models that can call tools (studio models pull REPO:FILE):", file=out)
    for model in RECOMMENDED:
        print(f"  {model.spec}  ({format_size(model.size)}; {model.note})", file=out)


def run_list(args: argparse.Namespace) -> int:
    loaded = load_settings()
    for problem in loaded.problems:
        print(f"studio models: {problem}", file=sys.stderr)
    models = find_models([*loaded.settings.model_folders, *args.folder])
    if args.json:
        print(json.dumps([_row(model) for model in models], indent=1))
        return 0
    for model in models:
        print(_describe(model))
    if not models:
        print("No GGUF models found on this machine.")
        _recommended(sys.stdout)
    return 0


class _ProgressLine:
    """One line on the terminal, rewritten at most four times a second: bytes, share and speed."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.started = time.monotonic()
        self.first: int | None = None
        self.shown = 0.0

    def __call__(self, have: int, total: int | None) -> None:
        now = time.monotonic()
        if self.first is None:
            self.first, self.started = have, now
        if now - self.shown < _REFRESH and have != total:
            return
        self.shown = now
        elapsed = now - self.started
        speed = (have - self.first) / elapsed if elapsed > 0 else 0.0
        share = f" of {format_size(total)} ({100 * have // total}%)" if total else ""
        print(
            f"\r  {format_size(have)}{share} at {format_size(int(speed))}/s   ",
            end="",
            file=self.out,
            flush=True,
        )

    def end(self) -> None:
        if self.first is not None:
            print(file=self.out)


def run_pull(args: argparse.Namespace) -> int:
    if not args.spec:
        _recommended(sys.stdout)
        return 0
    line = _ProgressLine(sys.stderr)
    try:
        repo, file = parse_spec(args.spec)
        remote = resolve(repo, file)
        size = f" ({format_size(remote.size)})" if remote.size else ""
        print(f"Downloading {remote.file}{size} from {remote.repo}", file=sys.stderr)
        path = download(remote, progress=line)
    except DownloadCancelled as exc:
        line.end()
        print(f"studio models: {exc}", file=sys.stderr)
        return 130
    except HubError as exc:
        line.end()
        print(f"studio models: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        line.end()
        print(
            "studio models: interrupted; what was downloaded is kept and the next pull goes on from there.",
            file=sys.stderr,
        )
        return 130
    line.end()
    print(path)
    return 0
