"""A fresh machine: with no server answering, the chat offers a model found on this computer, a
download, or a server; picking one switches the chat to it, keeping every backend's URL, and an
embedded engine that is no longer the backend is stopped."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx
import pytest
import yaml
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.llm import EmbeddedEngine
from studio.settings import SettingsStore
from studio.ui.chat import model_bar as model_bar_module
from studio.ui.chat.first_run import SERVERS
from studio.ui.chat.models_dialog import ModelsDialog
from studio.ui.chat.pane import ChatPane
from studio.ui.settings.settings_dialog import SettingsDialog
from tests.fakes.ggufwriter import write_gguf
from tests.ui.helpers import WindowFactory, open_dialog, run, start

DEAD_URL = "http://127.0.0.1:9"
TOOLS_TEMPLATE = "{% if tools %}{{ tools | tojson }}{% endif %}{{ messages }}"


@pytest.fixture
def found_model(scratch_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small GGUF where LM Studio keeps its models, in the test's home."""
    for var in ("HF_HUB_CACHE", "HF_HOME", "OLLAMA_MODELS"):
        monkeypatch.delenv(var, raising=False)
    return write_gguf(
        scratch_home / ".lmstudio" / "models" / "tester" / "Tiny-GGUF" / "tiny-q4_k_m.gguf",
        {"general.architecture": "llama", "general.file_type": 15, "llama.context_length": 4096,
         "tokenizer.chat_template": TOOLS_TEMPLATE},
    )


def _down_pane(qtbot: QtBot, http: httpx.AsyncClient, tmp_path: Path) -> ChatPane:
    settings = tmp_path / "settings.yaml"
    settings.write_text(yaml.safe_dump({"backend": {"kind": "ollama", "url": DEAD_URL}}))
    pane = ChatPane(SettingsStore(settings))
    qtbot.addWidget(pane)
    pane.show()
    pane.model_bar.attach(http)
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "down", timeout=10000)
    return pane


class _IdleEngine(EmbeddedEngine):
    """An engine that says it runs, and records that it was stopped."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.stopped = False

    @property
    def running(self) -> bool:
        return not self.stopped

    async def stop(self) -> None:
        self.stopped = True


def test_no_server_answering_offers_the_ways_forward(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    panel = pane.model_bar.first_run
    assert panel.isVisibleTo(pane)
    buttons = (panel.local_button, panel.open_file_button, panel.download_button, panel.connect_button)
    assert [b.text() for b in buttons] == [
        "Use a model on this computer", "Open a model file…", "Download a model…", "Connect to a server"]
    offered = [a.text() for a in panel.connect_menu.actions() if a.text()]
    for port in ("11434", "1234/v1", "8080/v1", "8000/v1"):
        assert any(port in text for text in offered), port
    assert any("Another URL" in text for text in offered)
    run(qtbot, pane.shutdown())


def test_choosing_a_found_model_switches_to_the_embedded_engine_with_it(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path, found_model: Path) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    panel = pane.model_bar.first_run
    panel.local_button.click()
    qtbot.waitUntil(lambda: panel.local_list.count() > 0, timeout=10000)
    item = panel.local_list.item(0)
    assert item.toolTip() == str(found_model)
    details = item.text()
    assert "Q4_K_M" in details and "4k context" in details and "tools" in details
    panel.use_button.click()
    qtbot.waitUntil(lambda: pane.model_bar.backend.kind == "embedded"
                    and pane.model_bar.backend.state == "idle", timeout=10000)
    backend = pane.settings_store.settings.backend
    assert (backend.kind, backend.gguf_path) == ("embedded", str(found_model))
    assert pane.model_bar.backend_combo.currentData() == "embedded"
    picked = pane.model_bar.current_model()
    assert picked is not None and picked.name == str(found_model)
    assert "Q4_K_M" in pane.model_bar.model_combo.currentText()
    assert not pane.model_bar.first_run.isVisibleTo(pane)
    # The server URL the user had stays with its backend, and all of it is on disk.
    saved = yaml.safe_load(pane.settings_store.path.read_text())["backend"]
    assert saved["kind"] == "embedded" and saved["gguf_path"] == str(found_model)
    assert saved["servers"]["ollama"]["url"] == DEAD_URL
    run(qtbot, pane.shutdown())


def test_without_the_engine_no_model_file_is_offered_and_the_cause_is_named(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path, found_model: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    pane = _down_pane(qtbot, chat_http, tmp_path)
    panel = pane.model_bar.first_run
    panel.local_button.click()
    qtbot.waitUntil(lambda: "xllamacpp" in panel.local_note.text(), timeout=10000)
    note = panel.local_note.text()
    assert "is not installed" in note and "pip install xllamacpp" in note and "Connect to" in note
    assert panel.local_list.count() == 0 and not panel.local_list.isVisibleTo(pane)
    assert not panel.use_button.isVisibleTo(pane)
    run(qtbot, pane.shutdown())


def test_connecting_to_a_listed_server_switches_backend_and_url(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    lm_studio = next(a for a in pane.model_bar.first_run.connect_menu.actions() if "LM Studio" in a.text())
    lm_studio.trigger()
    qtbot.waitUntil(lambda: pane.model_bar.backend.kind == "openai", timeout=5000)
    assert ("LM Studio", "openai", "http://127.0.0.1:1234/v1") in SERVERS
    assert pane.model_bar.backend.url == "http://127.0.0.1:1234/v1"
    assert pane.settings_store.settings.backend.url == "http://127.0.0.1:1234/v1"
    # Back to Ollama in the pane's own picker: its URL is the one it had.
    pane.model_bar.backend_combo.setCurrentIndex(pane.model_bar.backend_combo.findData("ollama"))
    qtbot.waitUntil(lambda: pane.model_bar.backend.kind == "ollama", timeout=5000)
    assert pane.model_bar.backend.url == DEAD_URL
    run(qtbot, pane.shutdown())


def test_the_engine_stops_when_another_backend_is_chosen(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    engine = _IdleEngine(tmp_path / "tiny.gguf")
    pane.model_bar.backend.server.engine = engine
    pane.model_bar.connect_to("openai", DEAD_URL + "/v1")
    qtbot.waitUntil(lambda: engine.stopped, timeout=5000)
    assert pane.model_bar.backend.server.engine is None
    run(qtbot, pane.shutdown())


def test_settings_reach_the_dock_at_once(
        qtbot: QtBot, chat_http: httpx.AsyncClient, make_window: WindowFactory,
        tmp_path: Path) -> None:
    settings = tmp_path / "window.yaml"
    settings.write_text(yaml.safe_dump({"backend": {"kind": "ollama", "url": DEAD_URL}}))
    window = make_window(settings=settings)
    pane = window.chat.pane
    pane.model_bar.attach(chat_http)
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "down", timeout=10000)
    running = start(window.open_settings())
    dialog = open_dialog(qtbot, SettingsDialog)
    dialog.editor("backend.url").setText("http://127.0.0.1:7/")
    dialog.accept()
    qtbot.waitUntil(running.done, timeout=5000)
    assert running.result() is True
    qtbot.waitUntil(lambda: pane.model_bar.backend.url == "http://127.0.0.1:7/", timeout=5000)
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "down", timeout=10000)
    assert "127.0.0.1:7" in pane.model_bar.server_message.text()


def test_download_a_model_opens_the_models_dialog(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    pane.model_bar.first_run.download_button.click()
    dialog = pane.model_bar.models_dialog
    assert isinstance(dialog, ModelsDialog) and dialog.isVisible()
    dialog.model_chosen.emit(str(tmp_path / "downloaded.gguf"))
    qtbot.waitUntil(lambda: pane.model_bar.backend.kind == "embedded", timeout=5000)
    assert pane.settings_store.settings.backend.gguf_path == str(tmp_path / "downloaded.gguf")
    dialog.close()
    run(qtbot, pane.shutdown())


def test_a_late_answer_from_the_previous_backend_is_not_shown(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path, found_model: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    pane = _down_pane(qtbot, chat_http, tmp_path)
    held = asyncio.Event()

    async def slow_models() -> list[object]:
        await held.wait()
        return []

    monkeypatch.setattr(pane.model_bar.backend.server, "models", slow_models)
    stale = pane.model_bar.refresh_models()
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "checking")
    pane.model_bar.use_local_model(str(found_model))
    qtbot.waitUntil(lambda: pane.model_bar.backend.state == "idle", timeout=10000)
    held.set()
    qtbot.waitUntil(stale.done, timeout=10000)
    assert "Q4_K_M" in pane.model_bar.model_combo.currentText()
    assert pane.model_bar.backend.state == "idle" and pane.model_bar.backend_combo.currentData() == "embedded"
    run(qtbot, pane.shutdown())


def test_no_model_file_found_goes_once_a_gguf_file_is_set_in_settings(
        qtbot: QtBot, chat_http: httpx.AsyncClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def nothing_found(_folders: object) -> list[object]:
        return []

    monkeypatch.setattr(model_bar_module, "local_models", nothing_found)
    pane = _down_pane(qtbot, chat_http, tmp_path)
    panel = pane.model_bar.first_run
    panel.local_button.click()
    qtbot.waitUntil(lambda: "Looking" not in panel.local_note.text(), timeout=10000)
    assert "No model file was found" in panel.local_note.text(), panel.local_note.text()
    model = write_gguf(tmp_path / "models" / "mine.gguf",
                       {"general.architecture": "llama", "tokenizer.chat_template": TOOLS_TEMPLATE})
    pane.settings_store.settings.backend.gguf_path = str(model)
    pane.model_bar.apply_settings()
    qtbot.waitUntil(lambda: "No model file was found" not in panel.local_note.text(),
                    timeout=10000)
    assert panel.local_list.item(0).data(Qt.ItemDataRole.UserRole) == str(model)
    run(qtbot, pane.shutdown())
