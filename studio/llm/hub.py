"""Download GGUF models from the Hugging Face Hub into its standard cache, where the studio (and
every other tool that reads that cache) finds them.

The Hub's API (which files a repository holds, their sizes and SHA-256) is asked through
`huggingface_hub`, so `HF_ENDPOINT`, `HF_TOKEN` and its error kinds apply. The file itself is
fetched here, because `huggingface_hub` deletes a partial download when it is interrupted: this
module keeps `blobs/<sha256>.incomplete` and resumes it with a Range request, then checks the
SHA-256 before the file takes its place in the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx

from studio.errors import StudioError
from studio.llm.discovery import huggingface_cache

DEFAULT_ENDPOINT = "https://huggingface.co"
_HEX = re.compile(r"[0-9a-f]{40,64}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1024 * 1024
_TIMEOUT = httpx.Timeout(30.0, connect=15.0)

Progress = Callable[[int, int | None], None]
"""Called as the download goes with (bytes on disk, total bytes or None)."""


@dataclass(frozen=True, slots=True)
class RecommendedModel:
    """A small GGUF model whose chat template offers tools; `size` in bytes, as the Hub lists it."""

    repo: str
    file: str
    size: int
    note: str

    @property
    def spec(self) -> str:
        return f"{self.repo}:{self.file}"


RECOMMENDED: tuple[RecommendedModel, ...] = (
    RecommendedModel("Qwen/Qwen2.5-0.5B-Instruct-GGUF", "qwen2.5-0.5b-instruct-q4_k_m.gguf",
                     491_400_032, "the smallest that calls tools reliably; any machine"),
    RecommendedModel("Qwen/Qwen3-0.6B-GGUF", "Qwen3-0.6B-Q8_0.gguf",
                     639_446_688, "thinks before it answers; any machine"),
    RecommendedModel("Qwen/Qwen2.5-1.5B-Instruct-GGUF", "qwen2.5-1.5b-instruct-q4_k_m.gguf",
                     1_117_320_480, "better at following a skill; 4 GB of memory"),
    RecommendedModel("bartowski/Llama-3.2-1B-Instruct-GGUF", "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
                     807_694_464, "Meta's small model; 4 GB of memory"),
    RecommendedModel("Qwen/Qwen2.5-3B-Instruct-GGUF", "qwen2.5-3b-instruct-q4_k_m.gguf",
                     2_104_932_768, "the best of these at skills; 8 GB of memory"),
)  # fmt: skip


class HubError(StudioError):
    """A download that cannot go on; the message says why and what to do."""


class DownloadCancelled(HubError):
    """The download was cancelled; what was fetched is kept and the next pull resumes it."""


@dataclass(frozen=True, slots=True)
class RemoteFile:
    """One file of a Hub repository at one commit."""

    repo: str
    file: str
    revision: str
    size: int | None
    sha256: str | None
    blob_id: str | None


def format_size(size: int) -> str:
    """Bytes for people: 512 B, 3.4 MB, 1.2 GB (powers of 1000, as the Hub shows them)."""
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def parse_spec(spec: str) -> tuple[str, str | None]:
    """`owner/name` or `owner/name:file.gguf` as (repo, file or None). Raises HubError."""
    repo, _, file = spec.strip().partition(":")
    parts = repo.split("/")
    if len(parts) != 2 or not all(parts) or any(part in {".", ".."} for part in parts):
        raise HubError(
            f"{spec!r} is not a Hub repository; write it as OWNER/NAME[:FILE], "
            "e.g. Qwen/Qwen2.5-0.5B-Instruct-GGUF:qwen2.5-0.5b-instruct-q4_k_m.gguf"
        )
    if file and not _safe_file(file):
        raise HubError(f"{file!r} is not a file name inside the repository")
    return repo, file or None


def endpoint() -> str:
    """The Hub's address: `HF_ENDPOINT` (read now, not at import), else huggingface.co."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def _token() -> str | None:
    from huggingface_hub import get_token

    return get_token()


def resolve(repo: str, file: str | None = None) -> RemoteFile:
    """The file to download: `file`, or the repository's one GGUF file (its Q4_K_M one when there
    are several). Raises HubError when offline, when the repository or file does not exist, or
    when the choice is not clear (the message lists the GGUF files)."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    where = endpoint()
    try:
        info = HfApi(endpoint=where, token=_token()).model_info(repo, files_metadata=True)
    except OfflineModeIsEnabled:
        raise HubError(
            "Hugging Face downloads are switched off (HF_HUB_OFFLINE is set); unset it to download."
        ) from None
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (401, 403, 404):
            raise HubError(
                f"{repo} is not a model on {where} (or it is private or gated: log in "
                "with `hf auth login` and accept its terms on its page)."
            ) from None
        raise HubError(f"{where} answered {status} for {repo}; try again later.") from None
    except Exception as exc:  # its HTTP library's errors change from version to version
        raise HubError(
            f"Cannot reach {where} ({type(exc).__name__}: {exc}). Check the network "
            "connection (or HF_ENDPOINT), then try again."
        ) from None
    siblings = {sibling.rfilename: sibling for sibling in info.siblings or ()}
    ggufs = sorted(name for name in siblings if name.lower().endswith(".gguf"))
    if file is None:
        file = _pick(repo, ggufs)
    sibling = siblings.get(file)
    if sibling is None:
        listed = ", ".join(ggufs) if ggufs else "none"
        raise HubError(f"{repo} has no file {file!r}. Its GGUF files: {listed}.")
    lfs = sibling.lfs
    sha256 = lfs.sha256 if lfs else None
    # These become paths in the cache: a server that sends anything else is not trusted with them.
    if (
        not _safe_file(file)
        or not _HEX.fullmatch(info.sha or "")
        or not (sha256 is None or _SHA256.fullmatch(sha256))
    ):
        raise HubError(
            f"{where} answered with a commit, file name or checksum for {repo} that cannot be right; "
            "is HF_ENDPOINT a Hugging Face Hub?"
        )
    blob_id = sibling.blob_id if _HEX.fullmatch(sibling.blob_id or "") else None
    return RemoteFile(repo, file, str(info.sha), lfs.size if lfs else sibling.size, sha256, blob_id)


def _safe_file(file: str) -> bool:
    """A path inside the repository: relative, no `..`, no empty or backslashed parts."""
    return bool(file) and "\\" not in file and all(part not in {"", ".", ".."} for part in file.split("/"))


def _pick(repo: str, ggufs: list[str]) -> str:
    if len(ggufs) == 1:
        return ggufs[0]
    preferred = [name for name in ggufs if "q4_k_m" in name.lower() and "-of-" not in name]
    if len(preferred) == 1:
        return preferred[0]
    if not ggufs:
        raise HubError(
            f"{repo} holds no GGUF file; the studio runs GGUF models. Look for a "
            "repository whose name ends in -GGUF."
        )
    raise HubError(f"{repo} holds several GGUF files; name one as {repo}:FILE. They are: " + ", ".join(ggufs))


def cached_path(remote: RemoteFile, cache: Path | None = None) -> Path:
    """Where the file is in the cache once downloaded (a link into blobs/)."""
    root = cache if cache is not None else huggingface_cache()
    return _storage(root, remote.repo) / "snapshots" / remote.revision / remote.file


def _storage(cache: Path, repo: str) -> Path:
    return cache / ("models--" + repo.replace("/", "--"))


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[IO[bytes]]:
    """`path` opened for appending, locked so a second pull of the same file cannot write to it."""
    with path.open("ab") as handle:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise HubError(
                    f"{path.name} is being downloaded by another studio already; wait for it to finish."
                ) from None
        yield handle


def download(
    remote: RemoteFile,
    *,
    cache: Path | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    http: httpx.Client | None = None,
) -> Path:
    """Download `remote` into the Hugging Face cache (`cache`: the standard one) and return its
    path; a file already there is not fetched again, a partial one is resumed.

    `cancel` set (from another thread) stops it with DownloadCancelled, keeping what was fetched;
    so does Ctrl+C (KeyboardInterrupt). Raises HubError when the server fails, the file is not the
    size the Hub listed, or its SHA-256 does not match (the bad file is deleted)."""
    pointer = cached_path(remote, cache)
    if pointer.is_file():
        return pointer
    storage = _storage(cache if cache is not None else huggingface_cache(), remote.repo)
    name = remote.sha256 or remote.blob_id or remote.revision + "-" + remote.file.replace("/", "-")
    blob = storage / "blobs" / name
    if not blob.is_file():
        blob.parent.mkdir(parents=True, exist_ok=True)
        partial = blob.with_name(blob.name + ".incomplete")
        with _exclusive(partial) as handle:
            _fetch(remote, handle, progress, cancel, http)
            _check(remote, partial)
            os.replace(partial, blob)
    _link(blob, pointer)
    _remember_ref(storage, remote.revision)
    return pointer


def _url(remote: RemoteFile) -> str:
    from urllib.parse import quote

    return f"{endpoint()}/{remote.repo}/resolve/{remote.revision}/{quote(remote.file)}"


def _fetch(
    remote: RemoteFile,
    handle: IO[bytes],
    progress: Progress | None,
    cancel: threading.Event | None,
    http: httpx.Client | None,
) -> None:
    have = handle.seek(0, os.SEEK_END)
    if remote.size is not None and have == remote.size:
        return
    headers = {"Accept-Encoding": "identity"}
    if token := _token():
        headers["Authorization"] = f"Bearer {token}"
    if have:
        headers["Range"] = f"bytes={have}-"
    client = http or httpx.Client(timeout=_TIMEOUT, follow_redirects=True)
    try:
        with client.stream("GET", _url(remote), headers=headers) as response:
            if have and response.status_code in (200, 416):
                # The server cannot resume from here (or the partial file is longer than the
                # file): start over, from this answer's body when it sent the whole file.
                handle.truncate(0)
                have = 0
                if response.status_code == 416:
                    response.close()
                    _fetch(remote, handle, progress, cancel, http)
                    return
            elif response.status_code not in (200, 206):
                raise HubError(
                    f"{endpoint()} answered {response.status_code} for {remote.file} of "
                    f"{remote.repo}; try again later."
                )
            if progress is not None:
                progress(have, remote.size)
            # As the bytes arrive (no buffering to a size): all that came is kept if the line drops.
            for chunk in response.iter_bytes():
                if cancel is not None and cancel.is_set():
                    raise DownloadCancelled(
                        f"Cancelled; {format_size(have)} of {remote.file} are "
                        "kept and the next pull goes on from there."
                    )
                handle.write(chunk)
                have += len(chunk)
                if progress is not None:
                    progress(have, remote.size)
    except httpx.HTTPError as exc:
        raise HubError(
            f"The download of {remote.file} broke off ({exc or type(exc).__name__}); "
            f"{format_size(have)} are kept: pull again to go on."
        ) from None
    finally:
        handle.flush()
        if http is None:
            client.close()


def _check(remote: RemoteFile, partial: Path) -> None:
    size = partial.stat().st_size
    if remote.size is not None and size != remote.size:
        if size > remote.size:
            partial.unlink()
        raise HubError(
            f"{remote.file} is {format_size(size)} but the Hub lists "
            f"{format_size(remote.size)}; pull again to go on."
        )
    if remote.sha256 is None:
        return
    digest = hashlib.sha256()
    with partial.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    if digest.hexdigest() != remote.sha256:
        partial.unlink()
        raise HubError(
            f"{remote.file} arrived damaged (its SHA-256 is not the one the Hub lists); "
            "it was deleted. Pull again; if it keeps happening, the mirror or proxy in "
            "between is changing the file."
        )


def _link(blob: Path, pointer: Path) -> None:
    pointer.parent.mkdir(parents=True, exist_ok=True)
    temporary = pointer.with_name(pointer.name + ".link-incomplete")
    temporary.unlink(missing_ok=True)
    try:
        temporary.symlink_to(os.path.relpath(blob, pointer.parent))
    except OSError:
        # No symlinks (Windows without developer mode): huggingface_hub then keeps the file itself.
        os.link(blob, temporary)
    os.replace(temporary, pointer)


def _remember_ref(storage: Path, revision: str) -> None:
    refs = storage / "refs"
    refs.mkdir(parents=True, exist_ok=True)
    temporary = refs / "main.incomplete"
    temporary.write_text(revision, encoding="utf-8")
    os.replace(temporary, refs / "main")
