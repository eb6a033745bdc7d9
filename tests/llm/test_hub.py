"""Downloading a model from a scripted Hugging Face Hub on loopback: the cache layout, resume,
checksums, cancel and the messages for what goes wrong."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.llm import discovery
from studio.llm.hub import DownloadCancelled, HubError, RemoteFile, download, parse_spec, resolve
from tests.fakes.ggufwriter import write_gguf
from tests.fakes.hub import COMMIT, FakeHub, HubFile

REPO = "tester/Tiny-GGUF"
FILE = "tiny-q4_k_m.gguf"
BIG = 3 * 1024 * 1024 + 17


def _gguf_bytes(tmp_path: Path) -> bytes:
    path = write_gguf(tmp_path / "src.gguf", {"general.architecture": "llama", "llama.context_length": 2048})
    return path.read_bytes() + bytes(range(256)) * (BIG // 256)


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    server = FakeHub(
        {
            REPO: {
                FILE: HubFile(_gguf_bytes(tmp_path)),
                "tiny-q8_0.gguf": HubFile(b"GGUF" * 10),
                "README.md": HubFile(b"# tiny", lfs=False),
            },
            "tester/Two-GGUF": {"a-q8_0.gguf": HubFile(b"a"), "b-f16.gguf": HubFile(b"b")},
        }
    )
    server.start()
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    for var in ("HF_HOME", "HF_TOKEN", "HF_HUB_OFFLINE", "OLLAMA_MODELS"):
        monkeypatch.delenv(var, raising=False)
    yield server
    server.stop()


def _partials(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "hub").rglob("*.incomplete"))


def test_resolve_picks_the_q4_k_m_file_and_reads_its_checksum(hub: FakeHub) -> None:
    remote = resolve(REPO)
    expected = hub.repos[REPO][FILE]
    assert remote == RemoteFile(REPO, FILE, COMMIT, len(expected.data), expected.sha256, remote.blob_id)


def test_download_lands_in_the_standard_cache_where_discovery_finds_it(
    hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discovery, "smollm2_model", lambda: None)
    seen: list[tuple[int, int | None]] = []
    path = download(resolve(REPO, FILE), progress=lambda have, total: seen.append((have, total)))
    assert path == tmp_path / "hub" / f"models--tester--Tiny-GGUF/snapshots/{COMMIT}/{FILE}"
    assert path.is_symlink() and path.read_bytes() == hub.repos[REPO][FILE].data
    assert (tmp_path / "hub/models--tester--Tiny-GGUF/refs/main").read_text() == COMMIT
    assert seen[-1] == (len(hub.repos[REPO][FILE].data),) * 2
    assert [(m.source, m.name) for m in discovery.find_models()] == [("huggingface", f"{REPO}/{FILE}")]
    requests = len(hub.requests)
    assert download(resolve(REPO, FILE)) == path
    assert len(hub.requests) == requests + 1, "a file in the cache is not fetched again"


def test_a_broken_download_resumes_with_a_range_request(hub: FakeHub, tmp_path: Path) -> None:
    hub.cut_after = 1_000_000
    remote = resolve(REPO, FILE)
    with pytest.raises(HubError, match=r"broke off.*pull again"):
        download(remote)
    [partial] = _partials(tmp_path)
    assert partial.stat().st_size == 1_000_000
    path = download(remote)
    assert hub.range_requests() == ["bytes=1000000-"]
    assert path.read_bytes() == hub.repos[REPO][FILE].data
    assert _partials(tmp_path) == []


def test_a_server_that_ignores_the_range_restarts_the_file(hub: FakeHub, tmp_path: Path) -> None:
    hub.cut_after = 500_000
    remote = resolve(REPO, FILE)
    with pytest.raises(HubError):
        download(remote)
    hub.ignore_range = True
    assert download(remote).read_bytes() == hub.repos[REPO][FILE].data


def test_cancel_keeps_the_partial_file_for_the_next_pull(hub: FakeHub, tmp_path: Path) -> None:
    cancel = threading.Event()

    def progress(have: int, total: int | None) -> None:
        if have >= 1024 * 1024:
            cancel.set()

    remote = resolve(REPO, FILE)
    with pytest.raises(DownloadCancelled, match="kept"):
        download(remote, progress=progress, cancel=cancel)
    [partial] = _partials(tmp_path)
    kept = partial.stat().st_size
    assert 0 < kept < len(hub.repos[REPO][FILE].data)
    assert download(remote).read_bytes() == hub.repos[REPO][FILE].data
    assert hub.range_requests() == [f"bytes={kept}-"]


def test_a_checksum_mismatch_deletes_the_file_and_says_so(hub: FakeHub, tmp_path: Path) -> None:
    hub.corrupt = True
    remote = resolve(REPO, FILE)
    with pytest.raises(HubError, match=r"damaged.*deleted"):
        download(remote)
    assert _partials(tmp_path) == []
    assert not list((tmp_path / "hub").rglob(FILE))
    hub.corrupt = False
    assert download(remote).read_bytes() == hub.repos[REPO][FILE].data


def test_unknown_repo_and_file_and_unclear_choice(hub: FakeHub) -> None:
    with pytest.raises(HubError, match="not a model on"):
        resolve("tester/Missing")
    with pytest.raises(HubError, match=r"no file 'nope.gguf'.*tiny-q4_k_m.gguf"):
        resolve(REPO, "nope.gguf")
    with pytest.raises(HubError, match=r"several GGUF files.*a-q8_0.gguf, b-f16.gguf"):
        resolve("tester/Two-GGUF")


def test_offline_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    with pytest.raises(HubError, match=r"Cannot reach http://127.0.0.1.*network"):
        resolve(REPO)


@pytest.mark.parametrize("spec", ["", "justaname", "a/b/c", "../x", "a/b:../../etc/passwd", "a/b:/abs"])
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(HubError):
        parse_spec(spec)


def test_specs_parse() -> None:
    assert parse_spec("Qwen/Qwen2.5-0.5B-Instruct-GGUF") == ("Qwen/Qwen2.5-0.5B-Instruct-GGUF", None)
    assert parse_spec(" a/b:sub/c.gguf ") == ("a/b", "sub/c.gguf")


def test_no_partial_left_when_the_file_exists_already(hub: FakeHub, tmp_path: Path) -> None:
    path = download(resolve(REPO, FILE))
    os.unlink(path)
    assert download(resolve(REPO, FILE)).read_bytes() == hub.repos[REPO][FILE].data
    assert hub.requests_to(f"/{REPO}/resolve/{COMMIT}/{FILE}").__len__() == 1, "the blob was reused"


@pytest.mark.parametrize(
    "name", ["../../evil.gguf", "a/../../evil.gguf", "/etc/evil.gguf", "a\\..\\evil.gguf"]
)
def test_a_hostile_hub_cannot_name_a_file_outside_the_cache(hub: FakeHub, tmp_path: Path, name: str) -> None:
    hub.repos["tester/Evil-GGUF"] = {name: HubFile(b"GGUF")}
    with pytest.raises(HubError, match="cannot be right"):
        resolve("tester/Evil-GGUF")


def test_a_hostile_hub_cannot_name_a_commit_or_checksum_that_is_a_path(
    hub: FakeHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tests.fakes.hub.COMMIT", "../../../../tmp")
    with pytest.raises(HubError, match="cannot be right"):
        resolve(REPO, FILE)
