"""The Models dialog against a scripted Hugging Face Hub on loopback: progress while the window
stays live, cancel keeping a partial that the next download resumes, and clear messages for a
damaged file and a repository that does not exist."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.llm import RECOMMENDED, format_size
from studio.ui.chat.models_dialog import ModelsDialog
from tests.fakes.ggufwriter import write_gguf
from tests.fakes.hub import FakeHub, HubFile

REPO = "tester/Tiny-GGUF"
FILE = "tiny-q4_k_m.gguf"
SPEC = f"{REPO}:{FILE}"
HELD_AT = 64 * 1024


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    head = write_gguf(tmp_path / "src.gguf", {"general.architecture": "llama"}).read_bytes()
    server = FakeHub({REPO: {FILE: HubFile(head + bytes(range(256)) * 4096)}})
    server.start()
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    for var in ("HF_HOME", "HF_TOKEN", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    yield server
    server.gate.set()
    server.stop()


@pytest.fixture
def dialog(qtbot: QtBot) -> Iterator[ModelsDialog]:
    shown = ModelsDialog()
    qtbot.addWidget(shown)
    shown.open()
    yield shown
    if shown.download_job is not None:
        shown.cancel_download()
        qtbot.waitUntil(lambda: shown.download_job is None, timeout=10000)


def _partials(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "hub").rglob("*.incomplete"))


def test_the_recommended_models_are_listed_with_their_sizes(dialog: ModelsDialog) -> None:
    texts = [dialog.recommended.item(row).text() for row in range(dialog.recommended.count())]
    assert len(texts) == len(RECOMMENDED)
    for text, model in zip(texts, RECOMMENDED, strict=True):
        assert format_size(model.size) in text
    assert dialog.spec_edit.text() == RECOMMENDED[0].spec
    assert not dialog.use_button.isVisible() and not dialog.progress.isVisible()


def test_a_download_shows_progress_and_the_model_can_be_used_at_once(
        qtbot: QtBot, dialog: ModelsDialog, hub: FakeHub, tmp_path: Path) -> None:
    hub.gate_after = HELD_AT
    dialog.spec_edit.setText(SPEC)
    dialog.download_button.click()
    assert hub.at_gate.wait(10)
    # The body is held on the server: the window still shows how far it got, and can cancel.
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=10000)
    assert " of " in dialog.status.text()
    assert dialog.cancel_button.isVisible() and not dialog.download_button.isEnabled()
    hub.gate.set()
    qtbot.waitUntil(lambda: dialog.download_job is None, timeout=10000)
    assert "ready to chat with" in dialog.status.text()
    assert dialog.use_button.isVisible()
    with qtbot.waitSignal(dialog.model_chosen) as chosen:
        dialog.use_button.click()
    path = Path(chosen.args[0])
    assert path.read_bytes() == hub.repos[REPO][FILE].data
    assert path.is_relative_to(tmp_path / "hub")


def test_cancel_keeps_the_partial_and_the_next_download_resumes_it(
        qtbot: QtBot, dialog: ModelsDialog, hub: FakeHub, tmp_path: Path) -> None:
    hub.gate_after = HELD_AT
    dialog.start_download(SPEC)
    assert hub.at_gate.wait(10)
    # Some of the file is on disk (the bar moved) before the cancel.
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=10000)
    dialog.cancel_button.click()
    hub.gate.set()
    qtbot.waitUntil(lambda: dialog.download_job is None, timeout=10000)
    assert "Cancelled" in dialog.status.text() and "resume" in dialog.status.text()
    [partial] = _partials(tmp_path)
    kept = partial.stat().st_size
    assert 0 < kept < len(hub.repos[REPO][FILE].data)
    hub.gate_after = None
    dialog.download_button.click()
    qtbot.waitUntil(lambda: dialog.download_job is None, timeout=10000)
    assert "ready to chat with" in dialog.status.text()
    assert hub.range_requests() == [f"bytes={kept}-"]
    assert _partials(tmp_path) == []


def test_a_damaged_download_is_deleted_and_said_so(
        qtbot: QtBot, dialog: ModelsDialog, hub: FakeHub, tmp_path: Path) -> None:
    hub.corrupt = True
    dialog.start_download(SPEC)
    qtbot.waitUntil(lambda: dialog.download_job is None, timeout=10000)
    assert "arrived damaged" in dialog.status.text()
    assert not dialog.use_button.isVisible() and dialog.download_button.isEnabled()
    assert _partials(tmp_path) == []


def test_a_repository_that_does_not_exist_is_named(
        qtbot: QtBot, dialog: ModelsDialog, hub: FakeHub) -> None:
    dialog.start_download("tester/No-Such-GGUF")
    qtbot.waitUntil(lambda: dialog.download_job is None, timeout=10000)
    assert "tester/No-Such-GGUF is not a model on" in dialog.status.text()


def test_offline_is_explained(qtbot: QtBot, dialog: ModelsDialog,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    dialog.start_download(SPEC)
    qtbot.waitUntil(lambda: dialog.download_job is None, timeout=20000)
    assert "Cannot reach http://127.0.0.1:9" in dialog.status.text()
    assert "network" in dialog.status.text()
